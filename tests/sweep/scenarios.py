#!/usr/bin/env python3
"""Multi-process sweep scenarios: a coordinator, workers and a following
client as separate `dispatchlab` processes on loopback, checked against the
result database. Each scenario is bounded in time; run by lit (tests/sweep)."""

import argparse
import atexit
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

DEADLINE = 120  # seconds any one wait may take before the scenario fails


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def wait_for(predicate, what, timeout=DEADLINE):
    end = time.time() + timeout
    while time.time() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    fail(f"timed out waiting for {what}")


class Cluster:
    def __init__(self, args):
        self.exe = args.dispatchlab
        self.dir = args.dir
        os.makedirs(self.dir, exist_ok=True)
        self.db = os.path.join(self.dir, "results.db")
        self.procs = []

    def spawn(self, name, argv, env=None):
        log = open(os.path.join(self.dir, name + ".log"), "w")
        proc = subprocess.Popen([self.exe] + argv, stdout=log,
                                stderr=subprocess.STDOUT, env=env)
        proc.log_path = log.name
        self.procs.append(proc)
        return proc

    def coordinator(self, extra=(), port=0):
        port_file = os.path.join(self.dir, "port")
        if os.path.exists(port_file):
            os.remove(port_file)
        proc = self.spawn("coordinator", ["coordinator", "--listen",
                          f"127.0.0.1:{port}", "--db", self.db,
                          "--port-file", port_file] + list(extra))
        wait_for(lambda: os.path.exists(port_file) or proc.poll() is not None,
                 "the coordinator's port")
        if proc.poll() is not None:
            fail("coordinator exited: " + open(proc.log_path).read())
        self.port = int(open(port_file).read())
        self.address = f"127.0.0.1:{self.port}"
        return proc

    def worker(self, name, extra=()):
        return self.spawn(name, ["worker", "--coordinator", self.address]
                          + list(extra))

    def sweep(self, spec, extra=()):
        return self.spawn("sweep", ["sweep", spec, "--coordinator",
                                    self.address] + list(extra))

    def query(self, sql):
        with sqlite3.connect(self.db, timeout=30) as db:
            return db.execute(sql).fetchall()

    def count(self, sql):
        """COUNT(*) query's value; 0 while the database is not created yet."""
        if not os.path.exists(self.db):
            return 0
        try:
            return self.query(sql)[0][0]
        except sqlite3.OperationalError:
            return 0

    def stop_all(self):
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def write_spec(path, name, kind, count, measurement, variants_per_axis=None):
    """`count` jobs of one test kind on one model, made distinct by axes over
    two integer knobs."""
    model = os.path.join(os.path.dirname(path), "model.mlir")
    with open(model, "w") as f:
        f.write("func.func @f() { return }\n")
    width = variants_per_axis or count
    depth = (count + width - 1) // width
    assert width * depth == count, "count must be a multiple of the width"
    with open(path, "w") as f:
        f.write(f'name: "{name}"\nmodels: "model.mlir"\nkind: {kind}\n')
        f.write('axes { knob: "max-operands" '
                + " ".join(f'values: "{i + 1}"' for i in range(width)) + " }\n")
        if depth > 1:
            f.write('axes { knob: "inline-constant-bytes" '
                    + " ".join(f'values: "{i}"' for i in range(depth)) + " }\n")
        f.write(f"measurement {{ {measurement} }}\n")


def log_lines(proc):
    with open(proc.log_path) as f:
        return f.read().splitlines()


def finish(proc, what, timeout=DEADLINE):
    try:
        rc = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        fail(f"{what} did not finish; log:\n" + open(proc.log_path).read())
    if rc != 0:
        fail(f"{what} exited {rc}; log:\n" + open(proc.log_path).read())


def first_started(workers):
    """The first worker whose log shows a job's first lease starting, and
    that line; None before any has."""
    for w in workers:
        for line in log_lines(w):
            if "lease 1 started" in line:
                return w, line
    return None


def kill_worker(c):
    """kill -9 of a worker mid-job: its job is leased again and finishes on
    another worker."""
    spec = os.path.join(c.dir, "spec.txtpb")
    write_spec(spec, "kill-worker", "TEST_SLEEP", 6,
               "test_sleep_ms: 1500 timeout_seconds: 30")
    c.coordinator(["--lease-seconds", "2", "--backoff-seconds", "0.1"])
    workers = [c.worker(f"worker{i}") for i in range(3)]
    client = c.sweep(spec)
    victim, line = wait_for(lambda: first_started(workers), "a job to start")
    # "dispatchlab worker ID: job JOB lease 1 started"
    words = line.split()
    victim_id, job_id = int(words[2].rstrip(":")), int(words[4])
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    finish(client, "sweep client")
    rows = c.query("SELECT state, COUNT(*) FROM jobs GROUP BY state")
    if rows != [("done", 6)]:
        fail(f"job states {rows}")
    attempts, worker = c.query(
        f"SELECT attempts, worker_id FROM jobs WHERE id = {job_id}")[0]
    if attempts != 2 or worker == victim_id:
        fail(f"job {job_id}: attempts {attempts}, worker {worker} "
             f"(killed worker {victim_id})")
    print(f"killed worker {victim_id} during job {job_id}; the job finished "
          f"on worker {worker} after {attempts} leases; 6/6 jobs done")


def paused_worker(c):
    """A worker stopped (SIGSTOP) past its lease: the job is leased again and
    finishes on the other worker; the paused one, resumed, drops its stale
    lease at its next heartbeat and says why."""
    spec = os.path.join(c.dir, "spec.txtpb")
    write_spec(spec, "paused-worker", "TEST_SLEEP", 1,
               "test_sleep_ms: 8000 timeout_seconds: 60")
    c.coordinator(["--lease-seconds", "2", "--backoff-seconds", "0.1"])
    workers = [c.worker(f"worker{i}") for i in range(2)]
    client = c.sweep(spec)
    victim, _ = wait_for(lambda: first_started(workers), "the job to start")
    victim.send_signal(signal.SIGSTOP)
    wait_for(lambda: c.count("SELECT attempts FROM jobs") >= 2,
             "the job to be leased again")
    victim.send_signal(signal.SIGCONT)
    wait_for(lambda: any("lease 1 abandoned" in line
                         for line in log_lines(victim)),
             "the paused worker to drop its lease")
    finish(client, "sweep client")
    line = next(l for l in log_lines(victim) if "lease 1 abandoned" in l)
    if "no longer holds this lease" not in line:
        fail(f"the abandoned lease gives no reason: {line}")
    rows = c.query("SELECT state, attempts FROM jobs")
    if rows != [("done", 2)]:
        fail(f"job state and attempts {rows}")
    print(f"paused worker resumed: {line.split(': ', 1)[1]}")


def restart_coordinator(c):
    """kill -9 of the coordinator mid-sweep, restarted on the same database:
    the sweep resumes, nothing lost or run twice."""
    spec = os.path.join(c.dir, "spec.txtpb")
    write_spec(spec, "restart", "TEST_SLEEP", 12,
               "test_sleep_ms: 400 timeout_seconds: 30")
    coordinator = c.coordinator(["--lease-seconds", "5"])
    workers = [c.worker(f"worker{i}") for i in range(3)]
    client = c.sweep(spec)
    wait_for(lambda: c.query(
        "SELECT COUNT(*) FROM jobs WHERE state = 'done'")[0][0] >= 3,
        "three jobs to finish")
    coordinator.send_signal(signal.SIGKILL)
    coordinator.wait()
    done_at_kill = c.query(
        "SELECT COUNT(*) FROM jobs WHERE state = 'done'")[0][0]
    time.sleep(0.5)
    c.coordinator(["--lease-seconds", "5"], port=c.port)
    finish(client, "sweep client")
    # Submitting the same spec again attaches to the finished sweep.
    again = c.sweep(spec)
    finish(again, "second sweep client")
    if "resuming" not in open(again.log_path).read():
        fail("resubmission did not resume the sweep")
    sweeps = c.query("SELECT COUNT(*) FROM sweeps")[0][0]
    states = c.query("SELECT state, COUNT(*) FROM jobs GROUP BY state")
    results = c.query("SELECT COUNT(*) FROM results")[0][0]
    reruns = c.query("SELECT COUNT(*) FROM jobs WHERE attempts > 1")[0][0]
    if sweeps != 1 or states != [("done", 12)] or results != 12:
        fail(f"sweeps {sweeps}, job states {states}, results {results}")
    # A report the killed coordinator stored but could not answer is sent
    # again to the new one, which ignores it as a duplicate: every job has
    # a report, accepted then or on that resend.
    reports = (re.search(r"job (\d+) lease \d+ SUCCEEDED", line)
               for w in workers for line in log_lines(w))
    reported = {report.group(1) for report in reports if report}
    if len(reported) != 12:
        fail(f"reports accepted for {len(reported)} of 12 jobs")
    print(f"coordinator killed with {done_at_kill}/12 done and restarted; "
          f"12/12 done, 1 sweep, 12 results, a report accepted for each job, "
          f"{reruns} jobs leased again")


def lost_coordinator(c):
    """kill -9 of the coordinator, not restarted: the client and a worker
    mid-job say within seconds that they lost it, keep saying so, and exit 1
    after their --coordinator-timeout with one error line."""
    spec = os.path.join(c.dir, "spec.txtpb")
    write_spec(spec, "lost", "TEST_SLEEP", 2,
               "test_sleep_ms: 60000 timeout_seconds: 120")
    # Heartbeats every 2 s: the busy worker's only calls.
    coordinator = c.coordinator(["--lease-seconds", "8"])
    worker = c.worker("worker", ["--coordinator-timeout", "10"])
    client = c.sweep(spec, ["--coordinator-timeout", "10"])
    wait_for(lambda: any("lease 1 started" in line
                         for line in log_lines(worker)), "a job to start")
    # The job may start before the submission's reply reaches the client.
    wait_for(lambda: any(line.startswith("sweep lost: 2 jobs")
                         for line in log_lines(client)), "the sweep's reply")
    coordinator.send_signal(signal.SIGKILL)
    coordinator.wait()
    procs = (("client", client), ("worker", worker))
    for name, proc in procs:
        wait_for(lambda: any(f"lost the coordinator at {c.address} (" in line
                             for line in log_lines(proc)),
                 f"the {name} to say it lost the coordinator", timeout=15)
    for name, proc in procs:
        try:
            rc = proc.wait(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            fail(f"the {name} did not give up; log:\n"
                 + open(proc.log_path).read())
        lines = log_lines(proc)
        errors = [line for line in lines if ": error: " in line]
        gave_up = f"lost the coordinator at {c.address} ("
        if rc != 1 or len(errors) != 1 or gave_up not in errors[0] or \
                "gave up after 10 s (--coordinator-timeout)" not in errors[0]:
            fail(f"{name}: exit code {rc}, log:\n" + "\n".join(lines))
        if not any("still no coordinator at" in line for line in lines):
            fail(f"the {name} did not say it was still retrying")
        print(errors[0])
    if "the sweep may still be running there" not in log_lines(client)[-1]:
        fail("the client does not say the sweep may still be running")
    print("coordinator killed: the client and the worker said so, retried "
          "visibly and gave up after 10 s with exit code 1")


def proc_children(pid):
    """PIDs whose parent is `pid`, from /proc."""
    children = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            children.append(int(entry))
    return children


def proc_alive(pid):
    """Running, not a zombie nobody reaped."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def worker_scratch(c):
    """A worker's files live in $TMPDIR/dispatchlab-worker.PID.XXXXXX. kill -9
    leaves it (and takes the job's child along); the next worker to start
    removes it, but not one of a live process; SIGTERM removes the worker's
    own at once."""
    tmp = os.path.join(c.dir, "tmp")
    os.makedirs(tmp)
    env = dict(os.environ, TMPDIR=tmp)
    argv = lambda: ["worker", "--coordinator", c.address]

    def dirs_of(pid):
        return [os.path.join(tmp, name) for name in os.listdir(tmp)
                if name.startswith(f"dispatchlab-worker.{pid}.")]
    c.coordinator(["--lease-seconds", "4"])
    first = c.spawn("first", argv(), env=env)
    spec = os.path.join(c.dir, "compile.txtpb")
    write_spec(spec, "compile", "COMPILE", 1, "timeout_seconds: 60")
    finish(c.sweep(spec), "compile sweep client")
    left = dirs_of(first.pid)
    if len(left) != 1 or not any(name.endswith(".mlir")
                                 for name in os.listdir(left[0])):
        fail(f"the first worker's scratch directories: {left}")
    spec = os.path.join(c.dir, "hang.txtpb")
    write_spec(spec, "hang", "TEST_HANG", 1, "timeout_seconds: 600")
    c.sweep(spec)
    job_child = wait_for(lambda: proc_children(first.pid), "the job's child")[0]
    first.send_signal(signal.SIGKILL)
    first.wait()
    wait_for(lambda: not proc_alive(job_child),
             "the job's child to die with its worker", timeout=15)
    if dirs_of(first.pid) != left:
        fail("kill -9 did not leave the scratch directory (test premise)")
    live = os.path.join(tmp, f"dispatchlab-worker.{os.getpid()}.live")
    os.mkdir(live)
    second = c.spawn("second", argv(), env=env)
    registered_id(second)
    if dirs_of(first.pid) or not os.path.isdir(live):
        fail(f"after the second worker started: {sorted(os.listdir(tmp))}")
    if not any(f"removed {left[0]}, left by a worker no longer running" in
               line for line in log_lines(second)):
        fail("the second worker does not say what it removed")
    own = dirs_of(second.pid)
    second.send_signal(signal.SIGTERM)
    finish(second, "the second worker after SIGTERM")
    os.rmdir(live)
    if len(own) != 1 or os.listdir(tmp):
        fail(f"after SIGTERM: {own}, left {os.listdir(tmp)}")
    print("kill -9: the job's child died with the worker, the scratch "
          "directory stayed until the next worker started; a live "
          "process's was kept; SIGTERM removed the worker's own")


def wrong_token(c):
    """A coordinator with a token refuses workers and clients without it."""
    token = os.path.join(c.dir, "token")
    with open(token, "w") as f:
        f.write("right-token\n")
    wrong = os.path.join(c.dir, "wrong")
    with open(wrong, "w") as f:
        f.write("wrong-token\n")
    spec = os.path.join(c.dir, "spec.txtpb")
    write_spec(spec, "token", "TEST_NOOP", 4, "timeout_seconds: 30")
    c.coordinator(["--token-file", token])
    bad_worker = c.worker("bad-worker", ["--token-file", wrong])
    if bad_worker.wait(timeout=DEADLINE) != 1:
        fail("worker with a wrong token was not refused")
    bad_client = c.spawn("bad-client", ["sweep", spec, "--coordinator",
                                        c.address, "--token-file", wrong])
    if bad_client.wait(timeout=DEADLINE) != 1:
        fail("client with a wrong token was not refused")
    env = dict(os.environ, DISPATCHLAB_TOKEN="right-token")
    no_token = c.spawn("no-token", ["sweep", spec, "--coordinator",
                                    c.address])
    if no_token.wait(timeout=DEADLINE) != 1:
        fail("client without a token was not refused")
    c.spawn("worker", ["worker", "--coordinator", c.address], env=env)
    client = c.spawn("sweep", ["sweep", spec, "--coordinator", c.address,
                               "--token-file", token])
    finish(client, "sweep client with the right token")
    for proc in (bad_worker, bad_client, no_token):
        if "wrong coordinator token" not in open(proc.log_path).read():
            fail("no token error in " + proc.log_path)
        print(open(proc.log_path).read().strip())
    print("right token (file and $DISPATCHLAB_TOKEN): 4/4 jobs done")


def load(c):
    """10,000 no-op jobs through 8 worker processes: none lost, none run
    twice."""
    spec = os.path.join(c.dir, "spec.txtpb")
    write_spec(spec, "load", "TEST_NOOP", 10000, "timeout_seconds: 30", 100)
    c.coordinator()
    start = time.time()
    for i in range(8):
        c.worker(f"worker{i}", ["--quiet"])
    client = c.sweep(spec)
    finish(client, "sweep client", timeout=300)
    seconds = time.time() - start
    states = c.query("SELECT state, COUNT(*) FROM jobs GROUP BY state")
    twice = c.query("SELECT COUNT(*) FROM jobs WHERE attempts != 1")[0][0]
    results = c.query("SELECT COUNT(*) FROM results")[0][0]
    if states != [("done", 10000)] or twice or results != 10000:
        fail(f"job states {states}, {twice} leased more than once, "
             f"{results} results")
    print(f"10000/10000 jobs done by 8 workers, each leased once, "
          f"{results} results ({10000 / seconds:.0f} jobs/s)")


SEED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                    "inputs", "seeds", "000_matmul_bias_relu.mlir")


def write_run_spec(path, name, measurement=""):
    """Two run jobs of seed 000 (iree-O0 and no-fusion)."""
    with open(path, "w") as f:
        f.write(f'name: "{name}"\nmodels: "{SEED}"\nkind: RUN\n'
                'axes { knob: "preset" values: "iree-O0" '
                'values: "no-fusion" }\n'
                f"measurement {{ repetitions: 2 timeout_seconds: 60 "
                f"{measurement} }}\n")


def registered_id(proc):
    """The id in "dispatchlab worker ID: registered ..."."""
    def find():
        for line in log_lines(proc):
            if ": registered" in line:
                return int(line.split()[2].rstrip(":"))
        return None
    return wait_for(find, proc.log_path + " to register")


def cpu_class(c):
    """Run jobs go only to workers of their CPU class: a worker standing for
    another class (--cpu-class-override) gets none of the coordinator's, and
    all of a spec that names its class; results record the class and host."""
    other_class = "test-other-class"
    c.coordinator()
    other = c.worker("other", ["--cpu-class-override", other_class])
    other_id = registered_id(other)
    spec = os.path.join(c.dir, "native.txtpb")
    write_run_spec(spec, "native")
    client = c.sweep(spec)
    wait_for(lambda: c.count("SELECT COUNT(*) FROM jobs") == 2,
             "the sweep's submission")
    # Only the other-class worker is there: the jobs wait for their class.
    time.sleep(3)
    leased = c.query("SELECT COUNT(*) FROM jobs WHERE state != 'pending'")
    if leased != [(0,)]:
        fail(f"{leased[0][0]} run jobs leased to a worker of another class")
    if "run jobs go to workers of CPU class " not in open(
            client.log_path).read():
        fail("the client does not say which CPU class the run jobs wait for")
    native = c.worker("native")
    native_id = registered_id(native)
    finish(client, "sweep client (native class)")
    native_class, = c.query(
        f"SELECT cpu FROM workers WHERE id = {native_id}")[0]
    rows = c.query("SELECT j.state, j.worker_id, j.cpu_class, r.cpu_class, "
                   "r.hostname FROM jobs j JOIN results r ON r.id = "
                   "j.result_id ORDER BY j.id")
    expected = [("done", native_id, native_class, native_class,
                 socket.gethostname())] * 2
    if rows != expected:
        fail(f"native sweep rows {rows}, expected {expected}")

    spec = os.path.join(c.dir, "other.txtpb")
    write_run_spec(spec, "other", f'cpu_class: "{other_class}"')
    finish(c.sweep(spec), "sweep client (other class)")
    rows = c.query("SELECT j.state, j.worker_id, r.cpu_class FROM jobs j "
                   "JOIN results r ON r.id = j.result_id WHERE j.cpu_class = "
                   f"'{other_class}' ORDER BY j.id")
    if rows != [("done", other_id, other_class)] * 2:
        fail(f"other-class sweep rows {rows}")
    # Same model and variants, other class: other keys, nothing reused.
    results = c.query("SELECT COUNT(*) FROM results")[0][0]
    if results != 4:
        fail(f"{results} results for 2 variants on 2 CPU classes")
    print(f"run jobs of class {native_class} waited 3 s with only a "
          f"{other_class} worker and went to the {native_class} worker; "
          f"the {other_class} spec's went to the other; 4 results")


def interrupt_resume(c):
    """Ctrl-C in an embedded sweep: exit 130 with a resume hint, the database
    consistent (every job there, none left leased), and the same command
    then runs only the jobs that had not finished."""
    spec = os.path.join(c.dir, "spec.txtpb")
    write_spec(spec, "interrupt", "TEST_SLEEP", 12,
               "test_sleep_ms: 400 timeout_seconds: 30")
    argv = ["sweep", spec, "--workers", "2", "--db", c.db]
    first = c.spawn("first", argv)
    wait_for(lambda: c.count(
        "SELECT COUNT(*) FROM jobs WHERE state = 'done'") >= 4,
        "four jobs to finish")
    first.send_signal(signal.SIGINT)
    try:
        rc = first.wait(timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        fail("the sweep did not stop on SIGINT")
    log = open(first.log_path).read()
    if rc != 130 or "interrupted; run the same command again to resume" \
            not in log:
        fail(f"exit code {rc} after SIGINT; log:\n{log}")
    if c.query("PRAGMA integrity_check") != [("ok",)]:
        fail("integrity_check failed")
    states = dict(c.query("SELECT state, COUNT(*) FROM jobs GROUP BY state"))
    done = c.query("SELECT id, result_id, finished_at FROM jobs WHERE state "
                   "= 'done' ORDER BY id")
    if sum(states.values()) != 12 or set(states) - {"done", "pending"} \
            or len(done) == 12:
        fail(f"job states after SIGINT: {states}")
    if c.query("SELECT COUNT(*) FROM results")[0][0] != len(done):
        fail("results and done jobs disagree")

    second = c.spawn("second", argv)
    finish(second, "the resumed sweep")
    log = open(second.log_path).read()
    if f"(resuming the sweep submitted before: {len(done)} finished)" \
            not in log:
        fail("resumption not reported; log:\n" + log)
    if c.query("SELECT state, COUNT(*) FROM jobs GROUP BY state") != \
            [("done", 12)] or c.query("SELECT COUNT(*) FROM sweeps") != [(1,)]:
        fail("resumed sweep did not finish every job of the one sweep")
    again = c.query("SELECT id, result_id, finished_at FROM jobs WHERE id IN "
                    f"({','.join(str(r[0]) for r in done)}) ORDER BY id")
    if again != done:
        fail("jobs finished before the interruption ran again")
    # Jobs cut short were handed back without counting an attempt.
    if c.query("SELECT COUNT(*) FROM jobs WHERE attempts != 1") != [(0,)]:
        fail("some job was leased more than once")
    print(f"SIGINT with {len(done)}/12 done: exit 130, no job leased, "
          f"integrity ok; rerun ran the other {12 - len(done)}")


def force_rerun(c):
    """A forced rerun adds results: the first sweep keeps its own numbers
    (rows, wall times, report), the rerun points at the new ones."""
    spec = os.path.join(c.dir, "spec.txtpb")
    write_spec(spec, "force", "TEST_SLEEP", 4,
               "test_sleep_ms: 50 timeout_seconds: 30")
    c.coordinator()
    c.worker("worker")
    finish(c.sweep(spec), "first sweep client")
    mine = ("SELECT j.id, r.id, r.stats_json, r.wall_seconds, r.created_at "
            "FROM jobs j JOIN results r ON r.id = j.result_id WHERE "
            "j.sweep_id = {} ORDER BY j.id")

    def report(sweep):
        out = subprocess.run([c.exe, "report", "--db", c.db, "--sweep",
                              str(sweep), "--metric", "compile_time"],
                             capture_output=True, text=True)
        if out.returncode != 0:
            fail(f"report --sweep {sweep}: {out.stderr}")
        return out.stdout

    first = c.query(mine.format(1))
    first_report = report(1)
    finish(c.sweep(spec, ["--force"]), "forced sweep client")
    if c.query("SELECT COUNT(*) FROM sweeps") != [(2,)]:
        fail("the forced rerun did not make a second sweep")
    if c.query(mine.format(1)) != first or report(1) != first_report:
        fail("the forced rerun changed the first sweep's results")
    second = c.query(mine.format(2))
    shared = {r[1] for r in first} & {r[1] for r in second}
    results = c.query("SELECT COUNT(*) FROM results")[0][0]
    if len(first) != 4 or len(second) != 4 or shared or results != 8:
        fail(f"sweeps with {len(first)} and {len(second)} results, "
             f"{len(shared)} shared, {results} stored")
    # A key names its newest result; the earlier one is still there by id.
    key, = c.query(f"SELECT content_key FROM results WHERE id = "
                   f"{first[0][1]}")[0]
    for selector, expected in ((key[:8], second[0][1]),
                               (str(first[0][1]), first[0][1])):
        out = subprocess.run([c.exe, "show", selector, "--db", c.db],
                             capture_output=True, text=True)
        if out.returncode != 0 or not out.stdout.startswith(
                f"result {expected}\n"):
            fail(f"show {selector}: exit {out.returncode}, "
                 f"{out.stdout[:40]!r} {out.stderr}")
    print("forced rerun: 8 results for 2 x 4 jobs, none shared; the first "
          "sweep's rows and report unchanged; show KEY gives the newest")


def write_knob_spec(path, name, first, count):
    """`count` TEST_SLEEP jobs on one model, max-operands first, first+1..."""
    model = os.path.join(os.path.dirname(path), "model.mlir")
    with open(model, "w") as f:
        f.write("func.func @f() { return }\n")
    with open(path, "w") as f:
        f.write(f'name: "{name}"\nmodels: "model.mlir"\nkind: TEST_SLEEP\n'
                'axes { knob: "max-operands" ' + " ".join(
                    f'values: "{first + i}"' for i in range(count)) + " }\n"
                "measurement { test_sleep_ms: 200 timeout_seconds: 30 }\n")


def overlapping_sweeps(c):
    """Two clients submit sweeps sharing 4 of 12 distinct jobs before any
    worker is there: each distinct job runs once, the second sweep reuses the
    first's results for the shared ones."""
    specs = [os.path.join(c.dir, n + ".txtpb") for n in ("first", "second")]
    write_knob_spec(specs[0], "first", 1, 8)
    write_knob_spec(specs[1], "second", 5, 8)
    c.coordinator()
    clients = [c.spawn(f"client{i}", ["sweep", spec, "--coordinator",
                                      c.address])
               for i, spec in enumerate(specs)]
    wait_for(lambda: c.count("SELECT COUNT(*) FROM jobs") == 16,
             "both sweeps' submissions")
    for i in range(2):
        c.worker(f"worker{i}", ["--slots", "2"])
    for i, client in enumerate(clients):
        finish(client, f"sweep client {i}")
    distinct = c.query("SELECT COUNT(DISTINCT content_key) FROM jobs")[0][0]
    leases = c.query("SELECT SUM(attempts) FROM jobs")[0][0]
    results = c.query("SELECT COUNT(*) FROM results")[0][0]
    states = c.query("SELECT state, COUNT(*) FROM jobs GROUP BY state")
    if distinct != 12 or leases != 12 or results != 12 or \
            states != [("cached", 4), ("done", 12)]:
        fail(f"{distinct} distinct jobs leased {leases} times, {results} "
             f"results, job states {states}")
    unshared = c.query("SELECT COUNT(*) FROM jobs a JOIN jobs b ON "
                       "a.content_key = b.content_key AND a.id < b.id WHERE "
                       "a.result_id IS NOT b.result_id")[0][0]
    if unshared:
        fail(f"{unshared} shared jobs point at different results")
    print("16 jobs of 2 overlapping sweeps, 12 distinct: 12 leases, "
          "12 results; the 4 shared jobs reuse one result each")


def make_certificates(directory):
    """A throw-away CA and a server certificate for 127.0.0.1 signed by it,
    plus an unrelated CA."""
    def openssl(*argv):
        subprocess.run(["openssl"] + list(argv), cwd=directory, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
          "-nodes"]
    for ca in ("ca", "other-ca"):
        openssl("req", "-x509", *ec, "-keyout", ca + ".key", "-out",
                ca + ".pem", "-days", "1", "-subj", "/CN=dispatchlab " + ca)
    openssl("req", *ec, "-keyout", "server.key", "-out", "server.csr",
            "-subj", "/CN=127.0.0.1")
    with open(os.path.join(directory, "san.cnf"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey",
            "ca.key", "-CAcreateserial", "-out", "server.pem", "-days", "1",
            "-extfile", "san.cnf")


def tls(c):
    """A TLS coordinator on loopback: a worker and a client trusting its CA
    complete a sweep; plaintext clients and clients trusting another CA are
    refused with one error line."""
    make_certificates(c.dir)
    path = lambda name: os.path.join(c.dir, name)
    token = path("token")
    with open(token, "w") as f:
        f.write("tls-token\n")
    spec = path("spec.txtpb")
    write_spec(spec, "tls", "TEST_SLEEP", 4,
               "test_sleep_ms: 50 timeout_seconds: 30")
    c.coordinator(["--tls-cert", path("server.pem"), "--tls-key",
                   path("server.key"), "--token-file", token])
    if "TLS" not in open(c.procs[0].log_path).read():
        fail("the coordinator does not say it uses TLS")
    c.worker("worker", ["--tls-ca", path("ca.pem"), "--token-file", token])
    client = c.sweep(spec, ["--tls-ca", path("ca.pem"), "--token-file",
                            token])
    finish(client, "TLS sweep client")
    if c.query("SELECT state, COUNT(*) FROM jobs GROUP BY state") != \
            [("done", 4)]:
        fail("the TLS sweep did not finish its 4 jobs")
    for name, extra in (("plaintext", []),
                        ("other-ca", ["--tls-ca", path("other-ca.pem")])):
        proc = c.spawn(name, ["sweep", spec, "--coordinator", c.address,
                              "--token-file", token] + extra)
        try:
            rc = proc.wait(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            fail(f"{name} client hangs instead of failing")
        lines = log_lines(proc)
        if rc != 1 or len(lines) != 1 or not lines[0].startswith(
                "dispatchlab sweep: error: cannot submit the sweep to "):
            fail(f"{name} client: exit code {rc}, output {lines}")
        print(lines[0])
    print("TLS sweep with the CA: 4/4 jobs done")


def refusal(c, name, argv, within, prefix=()):
    """Runs `dispatchlab argv`, which must exit 1 within `within` seconds
    with one error line; returns that line."""
    started = time.time()
    proc = subprocess.Popen(list(prefix) + [c.exe] + argv,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    try:
        output, _ = proc.communicate(timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        proc.kill()
        fail(f"{name} hangs instead of refusing")
    seconds = time.time() - started
    lines = output.splitlines()
    if proc.returncode != 1 or len(lines) != 1 or seconds > within:
        fail(f"{name}: exit code {proc.returncode} after {seconds:.1f} s, "
             f"output {lines}")
    print(lines[0])
    return lines[0]


def small_results_db(c, spec_name):
    """A real results database made by a 4-job embedded sweep."""
    spec = os.path.join(c.dir, "spec.txtpb")
    write_spec(spec, spec_name, "TEST_SLEEP", 4,
               "test_sleep_ms: 10 timeout_seconds: 30")
    finish(c.spawn("embedded", ["sweep", spec, "--db", c.db]),
           "embedded sweep")
    return spec


def two_coordinators(c):
    """A second coordinator or embedded sweep on a database a coordinator
    holds is refused within a second, naming the database and the holder's
    pid; reading the database still works."""
    spec = small_results_db(c, "two-coordinators")
    first = c.coordinator()
    expected = (f"database '{c.db}' is in use by another coordinator (pid "
                f"{first.pid}, lock {c.db}.lock); stop it or use another --db")
    for name, argv in (
            ("second coordinator", ["coordinator", "--listen",
                                    "127.0.0.1:0", "--db", c.db]),
            ("embedded sweep", ["sweep", spec, "--db", c.db])):
        line = refusal(c, name, argv, within=1.0)
        if not line.endswith("error: " + expected):
            fail(f"{name}: expected '{expected}', got '{line}'")
    reader = subprocess.run([c.exe, "query", "--db", c.db,
                             "SELECT COUNT(*) AS jobs FROM jobs"],
                            capture_output=True, text=True, timeout=DEADLINE)
    if reader.returncode != 0 or "4" not in reader.stdout:
        fail(f"query while a coordinator runs: {reader.returncode} "
             f"{reader.stdout} {reader.stderr}")
    first.send_signal(signal.SIGTERM)
    finish(first, "first coordinator")
    if os.path.exists(c.db + ".lock"):
        fail("the coordinator left its lock file behind")
    c.coordinator()
    print("second coordinator and embedded sweep refused; query read 4 jobs; "
          "a coordinator started after the first one stopped")


def damaged_db(c):
    """A results database with a page of garbage: the coordinator, an
    embedded sweep and report each refuse it with one line naming the
    file."""
    spec = small_results_db(c, "damaged")
    damaged = os.path.join(c.dir, "damaged.db")
    page_size, root = c.query(
        "SELECT (SELECT page_size FROM pragma_page_size), rootpage FROM "
        "sqlite_master WHERE name = 'jobs_by_state'")[0]
    with open(c.db, "rb") as f:
        content = bytearray(f.read())
    start = (root - 1) * page_size
    content[start:start + page_size] = b"\xde\xad\xbe\xef" * (page_size // 4)
    with open(damaged, "wb") as f:
        f.write(content)
    for name, argv in (
            ("coordinator", ["coordinator", "--listen", "127.0.0.1:0",
                             "--db", damaged]),
            ("embedded sweep", ["sweep", spec, "--db", damaged]),
            ("report", ["report", "--db", damaged])):
        line = refusal(c, name, argv, within=DEADLINE)
        if f"database '{damaged}' is damaged: " not in line:
            fail(f"{name} does not say the database is damaged: {line}")


def read_only_db(c):
    """A results database the user cannot write: the coordinator refuses to
    start, before listening, naming the file and the cause; report reads
    it. As root, whom file modes do not bind, runs as nobody."""
    small_results_db(c, "read-only")
    prefix = []
    if os.geteuid() == 0:
        prefix = ["setpriv", "--reuid=65534", "--regid=65534",
                  "--clear-groups"]
        # nobody must reach the file: the test tree, and lit's TMPDIR, may
        # sit below a directory only root can enter (mktemp -d makes 0700
        # ones); /tmp itself is open to everyone.
        reachable = tempfile.mkdtemp(prefix="dispatchlab-read-only-",
                                     dir="/tmp")
        atexit.register(shutil.rmtree, reachable, True)
        for suffix in ("", "-wal"):
            if os.path.exists(c.db + suffix):
                shutil.copy(c.db + suffix, reachable)
        c.db = os.path.join(reachable, os.path.basename(c.db))
        c.dir = reachable
    os.chmod(c.db, 0o444)
    os.chmod(c.dir, 0o777)
    port_file = os.path.join(c.dir, "port")
    line = refusal(c, "coordinator", ["coordinator", "--listen",
                                      "127.0.0.1:0", "--db", c.db,
                                      "--port-file", port_file],
                   within=DEADLINE, prefix=prefix)
    expected = f"error: {c.db}: attempt to write a readonly database"
    if not line.endswith(expected) or os.path.exists(port_file):
        fail(f"expected '{expected}' before listening, got '{line}'")
    report = subprocess.run(prefix + [c.exe, "report", "--db", c.db],
                            capture_output=True, text=True, timeout=DEADLINE)
    if report.returncode != 0:
        fail(f"report of a read-only database: {report.stderr}")


def full_disk(c):
    """The database on a 1 MB tmpfs (run under `unshare -m`) that fills up
    mid-sweep: the remote client says so within seconds and the worker keeps
    its coordinator; once space is freed every job's result is stored."""
    disk = os.path.join(c.dir, "disk")
    os.makedirs(disk)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "none", disk],
                   check=True)
    c.db = os.path.join(disk, "results.db")
    spec = os.path.join(c.dir, "spec.txtpb")
    write_spec(spec, "full", "TEST_SLEEP", 60, "test_sleep_ms: 100",
               variants_per_axis=10)
    c.coordinator()
    worker = c.worker("worker")
    client = c.sweep(spec)
    wait_for(lambda: c.count("SELECT COUNT(*) FROM jobs WHERE state = 'done'")
             >= 5, "5 jobs to finish")
    filler = os.path.join(disk, "filler")
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while os.write(fd, b"\0" * 4096) > 0:
            pass
    except OSError:
        pass  # no space left: the point
    os.close(fd)
    full = "dispatchlab sweep: the coordinator cannot store results: " \
        f"database full ({c.db}): retrying"
    wait_for(lambda: any(full in line for line in log_lines(client)),
             "the client to say the database is full", timeout=20)
    time.sleep(3)
    os.remove(filler)
    finish(client, "sweep client after space was freed")
    if not any("the coordinator stores results again" in line
               for line in log_lines(client)):
        fail("the client does not say results are stored again")
    if any("lost the coordinator" in line for line in log_lines(worker)):
        fail("the worker took a full database for a lost coordinator:\n"
             + "\n".join(log_lines(worker)))
    done = c.count("SELECT COUNT(*) FROM jobs WHERE state = 'done'")
    results = c.count("SELECT COUNT(*) FROM results")
    if done != 60 or results != 60:
        fail(f"{done} jobs done and {results} results stored of 60")
    print("disk full mid-sweep: the client said so, 60/60 results stored "
          "after space was freed")


SCENARIOS = {f.__name__.replace("_", "-"): f for f in
             (kill_worker, paused_worker, restart_coordinator, lost_coordinator,
              worker_scratch, wrong_token, load, cpu_class, interrupt_resume,
              tls, force_rerun, overlapping_sweeps, two_coordinators,
              damaged_db, read_only_db, full_disk)}

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    parser.add_argument("--dispatchlab", default="dispatchlab")
    parser.add_argument("--dir", required=True)
    args = parser.parse_args()
    cluster = Cluster(args)
    try:
        SCENARIOS[args.scenario](cluster)
    finally:
        cluster.stop_all()
