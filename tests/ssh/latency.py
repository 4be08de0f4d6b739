"""A class measured from outside: paramiko clients and pyte terminals,
nothing of bpeek's own, time a teacher's keystrokes as the students see
them.

A teacher and STUDENTS students log in to `bpeek serve` at COLSxROWS; the
teacher presses `n` STEPS times, twice a second; every student's channel
is read by one thread, which notes the first byte after each keystroke.
Afterwards each student's bytes are played through a pyte terminal, to
check that its screen shows the teacher's last merge.

With --openssh the students are OpenSSH clients (`ssh -tt`, each in a pty
of COLSxROWS), and this script only reads their terminals: paramiko does
its cryptography and packets in Python under one lock, which on a small
machine takes as long as the server's own work and delays when a byte is
seen; OpenSSH's clients cost little and run apart. The teacher is always
paramiko.

Usage: latency.py PORT PASSWORD STUDENTS STEPS [COLS ROWS] [-v] [--openssh] [--mixed]
                  [--computing K]
With --mixed the students' terminals take seven sizes in turn (80x24 to 200x60).
With --computing K, K more students work alone meanwhile (see --help).
Prints `connected N`, then one line of figures:
`keystroke to a follower's first byte: p50 A ms, p95 B ms, p99 C ms
(K samples, M missed)` and the clients' own CPU in that time, then `at the teacher's merge S: N of N` (with -v,
first the status line of each student that is not).
"""
import argparse
import multiprocessing
import os
import re
import select
import subprocess
import sys
import threading
import time

import paramiko
import pyte


def arguments():
    parser = argparse.ArgumentParser(
        description="Time a teacher's keystrokes as a class of students sees them.")
    parser.add_argument("port", type=int, help="the server's port on 127.0.0.1")
    parser.add_argument("password", help="the teacher's password")
    parser.add_argument("students", type=int, help="how many students log in")
    parser.add_argument("steps", type=int, help="how many times the teacher presses n")
    parser.add_argument("size", type=int, nargs="*", metavar="COLS ROWS",
                        help="the terminals' size (default 120 40)")
    parser.add_argument("-v", dest="verbose", action="store_true",
                        help="show the status line of each student behind")
    parser.add_argument("--openssh", action="store_true",
                        help="students are OpenSSH clients in ptys")
    parser.add_argument("--computing", type=int, default=0, metavar="K",
                        help="K more students (paramiko, not measured) each paste 1 MB of "
                             "text of their own, train on it and go to merge 3000 and back "
                             "while the class is timed")
    parser.add_argument("--mixed", action="store_true",
                        help="students' terminals take seven sizes in turn, 80x24 to 200x60")
    args = parser.parse_args()
    if len(args.size) not in (0, 2):
        parser.error("give the size as COLS ROWS, or leave it out")
    return args


args = arguments()
port, password, students, steps = args.port, args.password, args.students, args.steps
cols, rows = args.size if args.size else (120, 40)
# A class's terminals are not all one size: each size is a screen of its own.
MIXED = [(80, 24), (100, 30), (120, 40), (132, 43), (160, 50), (200, 60), (90, 30)]


def size_of(i):
    """The terminal size of student i."""
    return MIXED[i % len(MIXED)] if args.mixed else (cols, rows)


def login(user, secret=None, size=None):
    width, height = size or (cols, rows)
    transport = paramiko.Transport(("127.0.0.1", port))
    transport.start_client(timeout=30)
    if secret is None:
        transport.auth_none(user)
    else:
        transport.auth_password(user, secret)
    channel = transport.open_session(timeout=30)
    channel.get_pty(term="xterm-256color", width=width, height=height)
    channel.invoke_shell()
    return transport, channel


class Student:
    """A paramiko client."""

    def __init__(self, name, size):
        self.size = size
        self.transport, self.channel = login(name, size=size)
        self.bytes = bytearray()
        self.seen = 0  # the last step whose first byte arrived

    def fileno(self):
        return self.channel.fileno()

    def cpu(self):
        return 0.0  # counted in this process's own time

    def read(self):
        """What has arrived (b"" if nothing), or None once closed."""
        got = bytearray()
        while self.channel.recv_ready():
            got += self.channel.recv(65536)
        if not got and (self.channel.closed or self.channel.eof_received):
            return None
        return bytes(got)

    def close(self):
        self.transport.close()


class OpenSshStudent:
    """An OpenSSH client in a pty of its own; only its terminal is read here."""

    def __init__(self, name, size):
        import fcntl
        import pty
        import struct
        import termios
        self.size = size
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        env = dict(os.environ, TERM="xterm-256color")
        self.process = subprocess.Popen(
            ["ssh", "-tt", "-p", str(port),
             "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
             "-o", "LogLevel=ERROR", "-o", "BatchMode=yes", "-o", "PubkeyAuthentication=no",
             "%s@127.0.0.1" % name],
            stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
        os.close(slave)
        self.bytes = bytearray()
        self.seen = 0
        # Logged in and shown a screen before the next one connects: a
        # server refuses logins that pile up (as OpenSSH's MaxStartups does).
        waiting = select.poll()
        waiting.register(self.master, select.POLLIN)
        if waiting.poll(10000):
            self.bytes += self.read() or b""

    def fileno(self):
        return self.master

    def cpu(self):
        """Seconds of CPU the ssh process has taken."""
        try:
            with open("/proc/%d/stat" % self.process.pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return 0.0

    def read(self):
        try:
            data = os.read(self.master, 65536)
        except OSError:
            return None
        return data if data else None

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
        os.close(self.master)


teacher_transport, teacher = login("teacher", password)
class_ = []
kind = OpenSshStudent if args.openssh else Student
for i in range(students):
    class_.append(kind("student%d" % i, size_of(i)))
print("connected %d" % len(class_), flush=True)

step = {"n": 0, "at": 0.0}
samples = []
lock = threading.Lock()
reading = True


def read_all():
    """One thread reads every student, so the client's own cost stays small."""
    by_fd = {s.fileno(): s for s in class_}
    # poll, not select: a class of hundreds passes select's 1024 descriptors.
    waiting = select.poll()
    for fd in by_fd:
        waiting.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
    while reading and by_fd:
        ready = waiting.poll(100)
        now = time.monotonic()
        for fd, _ in ready:
            if fd not in by_fd:
                continue
            s = by_fd[fd]
            data = s.read()
            if data is None:
                # A student the server refused or closed: no longer read.
                del by_fd[fd]
                waiting.unregister(fd)
                continue
            if not data:
                continue
            s.bytes += data
            with lock:
                if s.seen < step["n"]:
                    s.seen = step["n"]
                    samples.append(now - step["at"])


teacher_bytes = bytearray()


def drain(channel):
    while channel.recv_ready():
        teacher_bytes.extend(channel.recv(65536))


def text_of(seed, size=1 << 20):
    """`size` bytes of words of a student's own."""
    state = seed * 2654435761 % (1 << 32) or 1
    words = []
    length = 0
    while length < size:
        state = state * 1103515245 + 12345 & 0x7FFFFFFF
        # Letters drawn unevenly (a word's first is any of 26, the rest
        # lean to the first half), so pairs are many and uneven, as in text.
        word = "".join(chr(97 + (state >> (3 * k)) % (26 if k == 0 else 13 + k))
                       for k in range(2 + state % 8))
        words.append(word)
        length += len(word) + 1
    return " ".join(words).encode()


def compute(i):
    """A student who works alone: its own text, trained on, gone far and back."""
    transport, channel = login("computing%d" % i, size=(100, 30))
    try:
        time.sleep(1.0)
        channel.sendall(b"e\x1b[200~" + text_of(i + 1) + b"\x1b[201~\x1b")
        time.sleep(1.0)
        channel.sendall(b"uy")
        while computing:
            for target in (b"3000", b"0"):
                channel.sendall(b"g" + target + b"\r")
                deadline = time.monotonic() + 3.0
                while computing and time.monotonic() < deadline:
                    while channel.recv_ready():
                        channel.recv(1 << 16)
                    time.sleep(0.05)
    finally:
        transport.close()


computing = True
# Processes of their own: paramiko works under Python's lock, and their
# screens must not delay when the timed students' bytes are seen.
workers = [multiprocessing.Process(target=compute, args=(i,), daemon=True)
           for i in range(args.computing)]
for w in workers:
    w.start()
if workers:
    # Their pastes are in and their training under way before the steps.
    time.sleep(4.0)
    print("computing %d" % len(workers), flush=True)

reader = threading.Thread(target=read_all, daemon=True)
reader.start()
# Everyone's first screen, and the class's joins, settle first.
time.sleep(2.0 + students * 0.02)
def clients_cpu():
    return time.process_time() + sum(s.cpu() for s in class_)


cpu_before, wall_before = clients_cpu(), time.monotonic()
for _ in range(steps):
    drain(teacher)
    with lock:
        step["n"] += 1
        step["at"] = time.monotonic()
    teacher.send(b"n")
    time.sleep(0.5)
time.sleep(1.0)
drain(teacher)
reading = False
reader.join()
for w in workers:
    w.terminate()
cpu = clients_cpu() - cpu_before
wall = time.monotonic() - wall_before

samples.sort()


def percentile(p):
    if not samples:
        return float("nan")
    return samples[min(len(samples) - 1, int(p * len(samples)))] * 1000.0


missed = students * steps - len(samples)
print("keystroke to a follower's first byte: p50 %.1f ms, p95 %.1f ms, p99 %.1f ms (%d samples, %d missed)"
      % (percentile(0.50), percentile(0.95), percentile(0.99), len(samples), missed), flush=True)
# The clients share the server's machine: what they take is not the server's.
print("the clients took %.1f s of CPU in the %.1f s of steps (%.0f%% of one core)"
      % (cpu, wall, 100.0 * cpu / wall), flush=True)


def status_line(data, size=None):
    """The status line (the last row but the footer's) of a screen."""
    width, height = size or (cols, rows)
    screen = pyte.Screen(width, height)
    pyte.ByteStream(screen).feed(data)
    return next((line for line in reversed(screen.display) if STATUS.search(line)), "")


def merge_of(line):
    found = STATUS.search(line)
    return int(found.group(1)) if found else None


STATUS = re.compile(r"merge (\d+)/")
teacher_at = merge_of(status_line(bytes(teacher_bytes)))
at_merge = 0
for s in class_:
    line = status_line(bytes(s.bytes), s.size)
    if teacher_at is not None and merge_of(line) == teacher_at:
        at_merge += 1
    elif args.verbose:
        print("behind (%d bytes): %s" % (len(s.bytes), line.strip()), flush=True)
print("at the teacher's merge %s: %d of %d" % (teacher_at, at_merge, students), flush=True)

for s in class_:
    s.close()
teacher_transport.close()
