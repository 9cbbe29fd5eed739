//===- JobRunner.cpp - one job in a child process -------------------------===//

#include "workers/JobRunner.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

namespace dispatchlab {

std::string ChildResult::describe(const ChildLimits &limits) const {
  // Under RLIMIT_AS running out shows only as failed allocations, which the
  // child reports before it dies; a bare crash may have other causes.
  bool ended =
      status == Status::Signaled || (status == Status::Exited && exitCode != 0);
  if (ended && allocationFailed && limits.memoryLimitMb) {
    ChildResult plain = *this;
    plain.allocationFailed = false;
    return llvm::formatv("memory limit {0} MB exceeded ({1})",
                         limits.memoryLimitMb, plain.describe(limits));
  }
  switch (status) {
  case Status::Exited:
    return llvm::formatv("exit code {0}", exitCode);
  case Status::Signaled:
    return llvm::formatv("killed by signal {0} ({1})", signal,
                         strsignal(signal));
  case Status::TimedOut:
    return llvm::formatv("timed out after {0} s (killed)",
                         limits.timeoutSeconds);
  case Status::Cancelled:
    return "cancelled (worker stopping or lease lost)";
  case Status::SpawnFailed:
    return "could not start: " + error;
  }
  return "unknown";
}

namespace {
/// Moves what is readable on `fd` into `text`; false at end of file.
bool drain(int fd, std::string &text) {
  char buffer[65536];
  ssize_t n = read(fd, buffer, sizeof(buffer));
  if (n < 0)
    return errno == EINTR || errno == EAGAIN;
  if (n == 0)
    return false;
  text.append(buffer, n);
  return true;
}

/// What children print when an allocation fails.
constexpr llvm::StringLiteral kAllocationFailures[] = {
    "failed to map segment from shared object", // the dynamic loader
    "LLVM ERROR: out of memory",                // LLVM's bad_alloc handler
    "std::bad_alloc",                           // libstdc++'s terminate
    "Cannot allocate memory",                   // strerror(ENOMEM)
};

/// drain for stderr: notes an allocation failure in `result`, then keeps
/// only the tail.
bool drainStderr(int fd, ChildResult &result, size_t keepTail) {
  size_t longest = 0;
  for (llvm::StringRef marker : kAllocationFailures)
    longest = std::max(longest, marker.size());
  std::string &text = result.stderrTail;
  // A marker may straddle two reads: look again at the end of the last one.
  size_t from = text.size() > longest ? text.size() - longest : 0;
  bool open = drain(fd, text);
  llvm::StringRef seen = llvm::StringRef(text).substr(from);
  if (llvm::any_of(kAllocationFailures, [&](llvm::StringRef marker) {
        return seen.contains(marker);
      }))
    result.allocationFailed = true;
  if (keepTail && text.size() > 2 * keepTail)
    text.erase(0, text.size() - keepTail);
  return open;
}

/// The pipes the child writes its stdout and stderr to.
struct OutputPipes {
  int out[2] = {-1, -1};
  int err[2] = {-1, -1};
};

llvm::Expected<OutputPipes> openPipes() {
  OutputPipes pipes;
  if (pipe2(pipes.out, O_CLOEXEC) != 0)
    return llvm::createStringError(strerror(errno));
  if (pipe2(pipes.err, O_CLOEXEC) != 0) {
    std::string error = strerror(errno);
    close(pipes.out[0]);
    close(pipes.out[1]);
    return llvm::createStringError(error);
  }
  return pipes;
}

/// What the child applies before exec, built before fork: between fork and
/// exec only async-signal-safe calls.
struct ChildSetup {
  std::vector<char *> args;
  rlimit memory;
  cpu_set_t cpus;
  pid_t parent;
};

ChildSetup prepareChild(const std::vector<std::string> &argv,
                        const ChildLimits &limits) {
  ChildSetup setup;
  for (const std::string &arg : argv)
    setup.args.push_back(const_cast<char *>(arg.c_str()));
  setup.args.push_back(nullptr);
  setup.memory = {limits.memoryLimitMb << 20, limits.memoryLimitMb << 20};
  CPU_ZERO(&setup.cpus);
  for (int cpu : limits.cpus)
    CPU_SET(cpu, &setup.cpus);
  setup.parent = getpid();
  return setup;
}

/// In the forked child: limits, pinning, output to the pipes, then exec.
[[noreturn]] void execChild(const ChildSetup &setup, const ChildLimits &limits,
                            const OutputPipes &pipes) {
  setpgid(0, 0);
  // A worker killed with -9 takes its children along.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != setup.parent)
    _exit(127);
  if (limits.memoryLimitMb)
    setrlimit(RLIMIT_AS, &setup.memory);
  if (!limits.cpus.empty())
    sched_setaffinity(0, sizeof(setup.cpus), &setup.cpus);
  int devNull = open("/dev/null", O_RDONLY);
  dup2(devNull, 0);
  dup2(pipes.out[1], 1);
  dup2(pipes.err[1], 2);
  execv(setup.args[0], setup.args.data());
  const char message[] = "exec failed\n";
  (void)!write(2, message, sizeof(message) - 1);
  _exit(127);
}

/// Drains the child's output until it exits, or kills its process group
/// once the timeout passes or `keepGoing` says stop (the status saying
/// which). Returns the wait status and whether it was killed.
std::pair<int, bool>
watchChild(pid_t pid, const OutputPipes &pipes, const ChildLimits &limits,
           llvm::function_ref<bool()> keepGoing, int tickMs,
           std::chrono::steady_clock::time_point start, ChildResult &result) {
  auto deadline =
      start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                  std::chrono::duration<double>(limits.timeoutSeconds));
  bool outOpen = true, errOpen = true;
  int status = 0;
  auto lastTick = start;
  while (true) {
    pollfd fds[2] = {{outOpen ? pipes.out[0] : -1, POLLIN, 0},
                     {errOpen ? pipes.err[0] : -1, POLLIN, 0}};
    if (poll(fds, 2, tickMs) > 0) {
      if (fds[0].revents)
        outOpen = drain(pipes.out[0], result.stdoutText);
      if (fds[1].revents)
        errOpen = drainStderr(pipes.err[0], result, limits.stderrTailBytes);
    }
    // Output closed is not the end: a child may close it and go on.
    if (!outOpen && !errOpen && waitpid(pid, &status, WNOHANG) == pid)
      return {status, false};
    auto now = std::chrono::steady_clock::now();
    bool killed = false;
    if (now >= deadline) {
      result.status = ChildResult::Status::TimedOut;
      killed = true;
    } else if (now - lastTick >= std::chrono::milliseconds(tickMs)) {
      lastTick = now;
      if (!keepGoing()) {
        result.status = ChildResult::Status::Cancelled;
        killed = true;
      }
    }
    if (killed) {
      kill(-pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      return {status, true};
    }
  }
}

/// How the child ended, from its wait status.
void recordExit(ChildResult &result, int status) {
  if (WIFSIGNALED(status)) {
    result.status = ChildResult::Status::Signaled;
    result.signal = WTERMSIG(status);
  } else {
    result.status = ChildResult::Status::Exited;
    result.exitCode = WEXITSTATUS(status);
  }
}
} // namespace

ChildResult runChild(const std::vector<std::string> &argv,
                     const ChildLimits &limits,
                     llvm::function_ref<bool()> keepGoing, int tickMs) {
  ChildResult result;
  auto start = std::chrono::steady_clock::now();
  llvm::Expected<OutputPipes> pipes = openPipes();
  if (!pipes) {
    result.error = llvm::toString(pipes.takeError());
    return result;
  }
  ChildSetup setup = prepareChild(argv, limits);
  pid_t pid = fork();
  if (pid == 0)
    execChild(setup, limits, *pipes);
  close(pipes->out[1]);
  close(pipes->err[1]);
  if (pid < 0) {
    result.error = strerror(errno);
    close(pipes->out[0]);
    close(pipes->err[0]);
    return result;
  }
  setpgid(pid, pid); // Also here, so the group exists before any kill.

  auto [status, killed] =
      watchChild(pid, *pipes, limits, keepGoing, tickMs, start, result);
  close(pipes->out[0]);
  close(pipes->err[0]);
  result.wallSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (result.stderrTail.size() > limits.stderrTailBytes)
    result.stderrTail.erase(0,
                            result.stderrTail.size() - limits.stderrTailBytes);
  if (!killed)
    recordExit(result, status);
  return result;
}

} // namespace dispatchlab
