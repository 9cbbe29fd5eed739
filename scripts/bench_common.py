"""What the benchmark scripts (bench_vs_reference.py, bench_vs_ort.py,
measure_peaks.py) share: running a command pinned to the last T cores of
this process's affinity set, with a memory limit and a timeout, turning
a failure into the line a table can show, and reading the load average."""

import os
import resource
import shlex
import signal
import subprocess
import sys
from typing import Dict, List, Optional

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                    "MKL_NUM_THREADS")


def first_error_line(stderr: str, returncode: int) -> str:
    if returncode < 0:
        return f"killed by {signal.Signals(-returncode).name}"
    lines = [l.strip() for l in stderr.splitlines() if l.strip()]
    for line in lines:
        if "error" in line.lower():
            return line
    return lines[-1] if lines else f"exit code {returncode}"


def read_cpu() -> str:
    """The CPU's model name, as /proc/cpuinfo gives it."""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown"


def load_average() -> str:
    """The 1-, 5- and 15-minute load averages, as /proc/loadavg gives them."""
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


class PinnedRunner:
    """Runs commands pinned with taskset; a failure is recorded in
    `failures` as "WHAT: first error line"."""

    def __init__(self, timeout: float, memory_limit_mb: int):
        self.timeout = timeout
        self.memory_limit_mb = memory_limit_mb
        self.cores = sorted(os.sched_getaffinity(0))
        self.failures: List[str] = []

    def pin(self, threads: int) -> List[str]:
        return ["taskset", "-c", ",".join(map(str, self.cores[-threads:]))]

    def limit_memory(self) -> None:
        limit = self.memory_limit_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    def execute(self, command: List[str], threads: int, what: str,
                env: Optional[Dict[str, str]] = None,
                limit_memory: bool = False) -> Optional[str]:
        """`command`'s stdout, or None after recording why it failed."""
        print(f"[{what}] {shlex.join(command)}", file=sys.stderr, flush=True)
        environment = dict(os.environ)
        environment.update({name: str(threads) for name in THREAD_VARIABLES})
        environment.update(env or {})
        try:
            proc = subprocess.run(
                self.pin(threads) + command, text=True, capture_output=True,
                env=environment, timeout=self.timeout,
                preexec_fn=self.limit_memory if limit_memory else None)
        except subprocess.TimeoutExpired:
            self.failures.append(f"{what}: timeout after {self.timeout:g} s")
            return None
        if proc.returncode != 0:
            self.failures.append(
                f"{what}: {first_error_line(proc.stderr, proc.returncode)}")
            return None
        return proc.stdout
