"""A password guesser with paramiko, as a hostile student would script it.

paramiko asks for the ssh-userauth service again before every try on one
connection, which the server's SSH library does not answer; the server
closes such a connection at once with a reason, so every try still gets an
answer.

Usage: guess.py PORT SOURCE_ADDRESS CONNECTIONS TRIES
Prints one line per try: `answer` (the server said no), `accepted`,
`timeout` (no answer came in time) or `closed` (the connection had already
ended), and for a connection the server closed with a reason, `told:
REASON`.
"""
import logging
import socket
import sys

import paramiko


class Reasons(logging.Handler):
    """Keeps the reasons of the server's disconnect messages."""

    def __init__(self):
        super().__init__()
        self.said = []

    def emit(self, record):
        text = record.getMessage()
        if text.startswith("Disconnect (code"):
            self.said.append(text.split("): ", 1)[-1])


reasons = Reasons()
logging.getLogger("paramiko.transport").addHandler(reasons)
logging.getLogger("paramiko.transport").setLevel(logging.INFO)

port, source, connections, tries = (
    int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
for c in range(connections):
    reasons.said.clear()
    sock = socket.create_connection(("127.0.0.1", port), timeout=20,
                                    source_address=(source, 0))
    transport = paramiko.Transport(sock)
    transport.start_client(timeout=20)
    # Long enough for any answer on a loaded machine, short enough that
    # a try left unanswered is told apart from the server's login timeout.
    transport.auth_timeout = 15
    for t in range(tries):
        try:
            transport.auth_password("teacher", "guess-%d-%d" % (c, t))
            print("accepted", flush=True)
        except paramiko.AuthenticationException as e:
            print("timeout" if "timeout" in str(e) else "answer", flush=True)
        except (paramiko.SSHException, EOFError, OSError):
            print("closed", flush=True)
            break
    transport.close()
    for reason in reasons.said:
        print("told: " + reason, flush=True)
