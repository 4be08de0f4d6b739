"""A password guesser with paramiko, as a hostile student would script it.

paramiko asks for the ssh-userauth service again before every try, and
russh (0.65) does not answer that on a connection that has already begun
authenticating, so a second try on one connection waits for the login
timeout: the tests make one try per connection.

Usage: guess.py PORT SOURCE_ADDRESS CONNECTIONS TRIES
Prints one line per try: `answer` (the server said no), `accepted`, or
`closed` (the connection ended without an answer).
"""
import socket
import sys

import paramiko

port, source, connections, tries = (
    int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
for c in range(connections):
    sock = socket.create_connection(("127.0.0.1", port), timeout=20,
                                    source_address=(source, 0))
    transport = paramiko.Transport(sock)
    transport.start_client(timeout=20)
    for t in range(tries):
        try:
            transport.auth_password("teacher", "guess-%d-%d" % (c, t))
            print("accepted", flush=True)
        except paramiko.AuthenticationException:
            print("answer", flush=True)
        except (paramiko.SSHException, EOFError, OSError):
            print("closed", flush=True)
            break
    transport.close()
