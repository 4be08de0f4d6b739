"""A class measured from outside: paramiko clients and pyte terminals,
nothing of bpeek's own, time a teacher's keystrokes as the students see
them.

A teacher and STUDENTS students log in to `bpeek serve` at COLSxROWS; the
teacher presses `n` STEPS times, twice a second; every student's channel
is read by one thread, which notes the first byte after each keystroke.
Afterwards each student's bytes are played through a pyte terminal, to
check that its screen shows the teacher's last merge.

Usage: latency.py PORT PASSWORD STUDENTS STEPS [COLS ROWS] [-v]
Prints `connected N`, then one line of figures:
`keystroke to a follower's first byte: p50 A ms, p95 B ms, p99 C ms
(K samples, M missed)` and the clients' own CPU in that time, then `at the teacher's merge S: N of N` (with -v,
first the status line of each student that is not).
"""
import re
import select
import sys
import threading
import time

import paramiko
import pyte

port, password, students, steps = (
    int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
sizes = [a for a in sys.argv[5:7] if a.isdigit()]
cols, rows = (int(sizes[0]), int(sizes[1])) if len(sizes) == 2 else (120, 40)


def login(user, secret=None):
    transport = paramiko.Transport(("127.0.0.1", port))
    transport.start_client(timeout=30)
    if secret is None:
        transport.auth_none(user)
    else:
        transport.auth_password(user, secret)
    channel = transport.open_session(timeout=30)
    channel.get_pty(term="xterm-256color", width=cols, height=rows)
    channel.invoke_shell()
    return transport, channel


class Student:
    def __init__(self, name):
        self.transport, self.channel = login(name)
        self.bytes = bytearray()
        self.seen = 0  # the last step whose first byte arrived


teacher_transport, teacher = login("teacher", password)
class_ = []
for i in range(students):
    class_.append(Student("student%d" % i))
print("connected %d" % len(class_), flush=True)

step = {"n": 0, "at": 0.0}
samples = []
lock = threading.Lock()
reading = True


def read_all():
    """One thread reads every student, so the client's own cost stays small."""
    by_channel = {s.channel: s for s in class_}
    while reading and by_channel:
        ready, _, _ = select.select(list(by_channel), [], [], 0.1)
        now = time.monotonic()
        for channel in ready:
            s = by_channel[channel]
            got = 0
            while channel.recv_ready():
                data = channel.recv(65536)
                got += len(data)
                s.bytes += data
            if got == 0:
                if channel.closed or channel.eof_received:
                    # A student the server refused or closed: no longer read.
                    del by_channel[channel]
                continue
            with lock:
                if s.seen < step["n"]:
                    s.seen = step["n"]
                    samples.append(now - step["at"])


teacher_bytes = bytearray()


def drain(channel):
    while channel.recv_ready():
        teacher_bytes.extend(channel.recv(65536))


reader = threading.Thread(target=read_all, daemon=True)
reader.start()
# Everyone's first screen, and the class's joins, settle first.
time.sleep(2.0 + students * 0.02)
cpu_before, wall_before = time.process_time(), time.monotonic()
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
cpu = time.process_time() - cpu_before
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


def status_line(data):
    """The status line (the last row but the footer's) of a screen."""
    screen = pyte.Screen(cols, rows)
    pyte.ByteStream(screen).feed(data)
    return next((line for line in reversed(screen.display) if STATUS.search(line)), "")


def merge_of(line):
    found = STATUS.search(line)
    return int(found.group(1)) if found else None


STATUS = re.compile(r"merge (\d+)/")
teacher_at = merge_of(status_line(bytes(teacher_bytes)))
at_merge = 0
for s in class_:
    line = status_line(bytes(s.bytes))
    if teacher_at is not None and merge_of(line) == teacher_at:
        at_merge += 1
    elif "-v" in sys.argv:
        print("behind (%d bytes): %s" % (len(s.bytes), line.strip()), flush=True)
print("at the teacher's merge %s: %d of %d" % (teacher_at, at_merge, students), flush=True)

for s in class_:
    s.transport.close()
teacher_transport.close()
