//===- JobRunner.h - one job in a child process -----------------*- C++ -*-===//
//
// Runs a command in a child process (fork/exec) with a wall-clock timeout and
// an address-space limit, capturing stdout and the tail of stderr. Whatever
// the child does (crash, abort, hang, run out of memory) the caller gets a
// result and carries on.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_WORKERS_JOBRUNNER_H
#define DISPATCHLAB_WORKERS_JOBRUNNER_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dispatchlab {

struct ChildLimits {
  double timeoutSeconds = 300;
  /// RLIMIT_AS; 0 for none.
  uint64_t memoryLimitMb = 0;
  /// Bytes of stderr kept (the end of it).
  size_t stderrTailBytes = 4096;
  /// CPUs the child is pinned to (latency jobs); empty: no pinning.
  std::vector<int> cpus;
};

struct ChildResult {
  enum class Status {
    /// Ran and exited; see exitCode.
    Exited,
    /// Killed by a signal of its own (crash, abort, OOM killer).
    Signaled,
    /// Killed by us when the timeout passed.
    TimedOut,
    /// Killed by us because `keepGoing` said stop.
    Cancelled,
    /// fork/exec failed; see error.
    SpawnFailed,
  };
  Status status = Status::SpawnFailed;
  int exitCode = 0;
  int signal = 0;
  std::string stdoutText;
  std::string stderrTail;
  double wallSeconds = 0;
  std::string error;
  /// Its stderr showed it failing to get memory (even where the tail no
  /// longer holds it): the dynamic loader unable to map a library, LLVM's
  /// "out of memory", std::bad_alloc, ENOMEM.
  bool allocationFailed = false;

  /// One line for a failure record: "exit code 1", "killed by signal 11
  /// (Segmentation fault)", "timed out after 2 s", "memory limit 700 MB
  /// exceeded (killed by signal 6 (Aborted))" when a child under a limit
  /// failed to allocate, ...
  std::string describe(const ChildLimits &limits) const;
};

/// Runs `argv` (argv[0] is the executable path) and waits for it. While it
/// runs, `keepGoing` is called about every `tickMs` milliseconds; returning
/// false kills the child. The child gets its own process group (all of it is
/// killed on timeout) and dies with the calling thread's process.
ChildResult runChild(const std::vector<std::string> &argv,
                     const ChildLimits &limits,
                     llvm::function_ref<bool()> keepGoing, int tickMs = 100);

} // namespace dispatchlab

#endif // DISPATCHLAB_WORKERS_JOBRUNNER_H
