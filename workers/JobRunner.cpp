//===- JobRunner.cpp - one job in a child process -------------------------===//

#include "workers/JobRunner.h"

#include "llvm/Support/FormatVariadic.h"

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

namespace dispatchlab {

std::string ChildResult::describe(const ChildLimits &limits) const {
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
bool drain(int fd, std::string &text, size_t keepTail) {
  char buffer[65536];
  ssize_t n = read(fd, buffer, sizeof(buffer));
  if (n < 0)
    return errno == EINTR || errno == EAGAIN;
  if (n == 0)
    return false;
  text.append(buffer, n);
  if (keepTail && text.size() > 2 * keepTail)
    text.erase(0, text.size() - keepTail);
  return true;
}
} // namespace

ChildResult runChild(const std::vector<std::string> &argv,
                     const ChildLimits &limits,
                     llvm::function_ref<bool()> keepGoing, int tickMs) {
  ChildResult result;
  auto start = std::chrono::steady_clock::now();
  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0) {
    result.error = strerror(errno);
    return result;
  }
  if (pipe2(err, O_CLOEXEC) != 0) {
    result.error = strerror(errno);
    close(out[0]);
    close(out[1]);
    return result;
  }
  // Built before fork: between fork and exec only async-signal-safe calls.
  std::vector<char *> args;
  for (const std::string &arg : argv)
    args.push_back(const_cast<char *>(arg.c_str()));
  args.push_back(nullptr);
  rlimit memory{limits.memoryLimitMb << 20, limits.memoryLimitMb << 20};
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  for (int cpu : limits.cpus)
    CPU_SET(cpu, &cpus);
  pid_t parent = getpid();

  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    // A worker killed with -9 takes its children along.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
      _exit(127);
    if (limits.memoryLimitMb)
      setrlimit(RLIMIT_AS, &memory);
    if (!limits.cpus.empty())
      sched_setaffinity(0, sizeof(cpus), &cpus);
    int devNull = open("/dev/null", O_RDONLY);
    dup2(devNull, 0);
    dup2(out[1], 1);
    dup2(err[1], 2);
    execv(args[0], args.data());
    const char message[] = "exec failed\n";
    (void)!write(2, message, sizeof(message) - 1);
    _exit(127);
  }
  close(out[1]);
  close(err[1]);
  if (pid < 0) {
    result.error = strerror(errno);
    close(out[0]);
    close(err[0]);
    return result;
  }
  setpgid(pid, pid); // Also here, so the group exists before any kill.

  auto deadline =
      start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                  std::chrono::duration<double>(limits.timeoutSeconds));
  bool outOpen = true, errOpen = true, killed = false;
  int status = 0;
  auto lastTick = start;
  while (true) {
    pollfd fds[2] = {{outOpen ? out[0] : -1, POLLIN, 0},
                     {errOpen ? err[0] : -1, POLLIN, 0}};
    if (poll(fds, 2, tickMs) > 0) {
      if (fds[0].revents)
        outOpen = drain(out[0], result.stdoutText, 0);
      if (fds[1].revents)
        errOpen = drain(err[0], result.stderrTail, limits.stderrTailBytes);
    }
    // Output closed is not the end: a child may close it and go on.
    if (!outOpen && !errOpen && waitpid(pid, &status, WNOHANG) == pid)
      break;
    auto now = std::chrono::steady_clock::now();
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
      break;
    }
  }
  close(out[0]);
  close(err[0]);
  result.wallSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (result.stderrTail.size() > limits.stderrTailBytes)
    result.stderrTail.erase(0,
                            result.stderrTail.size() - limits.stderrTailBytes);
  if (killed)
    return result;
  if (WIFSIGNALED(status)) {
    result.status = ChildResult::Status::Signaled;
    result.signal = WTERMSIG(status);
  } else {
    result.status = ChildResult::Status::Exited;
    result.exitCode = WEXITSTATUS(status);
  }
  return result;
}

} // namespace dispatchlab
