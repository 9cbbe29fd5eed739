"""Runs a command while holding DB.lock as a coordinator would (flock, a
pid in the file): python3 hold_lock.py DB CMD ARGS..."""
import fcntl
import subprocess
import sys

with open(sys.argv[1] + ".lock", "w") as lock:
    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    lock.write("4242\n")
    lock.flush()
    sys.exit(subprocess.run(sys.argv[2:]).returncode)
