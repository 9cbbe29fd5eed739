#!/usr/bin/env python3
"""Runs docs/tutorial.md's marked code blocks in order, so the tutorial's
commands are the test's commands.

A block runs when its first line is `# tutorial: NAME` (```sh or ```python);
`# tutorial: NAME &` runs it in the background (a terminal left open, such as
the coordinator), stopped with SIGTERM at the end, as Ctrl-C would. Blocks run
in DIR, where `experiments` links to the source tree's, as the tutorial runs
from the repository's root with `dispatchlab` on PATH. The tutorial's port
7411 becomes a free one, so parallel tests do not collide. Each block's
stdout goes to DIR/NAME.out, its stderr to DIR/NAME.err (a background
block's both to NAME.out); any failure exits 1 naming the block."""

import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import time

BLOCK = re.compile(r"^```(sh|python)\n# tutorial: ([\w-]+)( &)?\n(.*?)^```$",
                   re.MULTILINE | re.DOTALL)
PORT = "127.0.0.1:7411"
TIMEOUT = 120  # seconds any one block, or the coordinator's start, may take


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port, proc, log_path):
    end = time.time() + TIMEOUT
    while time.time() < end:
        if proc.poll() is not None:
            fail(f"background block exited {proc.returncode}: "
                 + open(log_path).read())
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    fail(f"nothing listens on port {port} after {TIMEOUT} s")


def command(kind, text):
    return ["sh", "-ec", text] if kind == "sh" else [sys.executable, "-c", text]


def run_block(kind, name, text, directory, background):
    out_path = os.path.join(directory, name + ".out")
    if background:
        proc = subprocess.Popen(command(kind, text), cwd=directory,
                                stdout=open(out_path, "w"),
                                stderr=subprocess.STDOUT,
                                start_new_session=True)
        proc.log_path = out_path
        return proc
    err_path = os.path.join(directory, name + ".err")
    try:
        done = subprocess.run(command(kind, text), cwd=directory,
                              stdout=open(out_path, "w"),
                              stderr=open(err_path, "w"), timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        fail(f"block '{name}' took over {TIMEOUT} s")
    if done.returncode != 0:
        fail(f"block '{name}' exited {done.returncode}:\n"
             + open(out_path).read() + open(err_path).read())
    return None


def stop(procs):
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--doc", required=True)
    parser.add_argument("--src", required=True)
    parser.add_argument("--dir", required=True)
    args = parser.parse_args()
    blocks = BLOCK.findall(open(args.doc).read())
    if not blocks:
        fail(f"{args.doc}: no '# tutorial: NAME' blocks")
    os.makedirs(args.dir, exist_ok=True)
    os.symlink(os.path.join(args.src, "experiments"),
               os.path.join(args.dir, "experiments"))
    port = free_port()
    background = []
    try:
        for kind, name, ampersand, text in blocks:
            print(f"block {name}" + (" (background)" if ampersand else ""))
            text = text.replace(PORT, f"127.0.0.1:{port}")
            proc = run_block(kind, name, text, args.dir, bool(ampersand))
            if proc:
                background.append(proc)
                wait_for_port(port, proc, proc.log_path)
    finally:
        stop(background)


if __name__ == "__main__":
    main()
