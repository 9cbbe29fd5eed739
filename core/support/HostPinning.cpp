//===- HostPinning.cpp - CPU affinity for latency measurement -------------===//

#include "core/support/HostPinning.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstring>
#include <sched.h>
#include <unistd.h>

namespace dispatchlab {

std::vector<int> getAllowedCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof(set), &set) != 0)
    return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set))
      cpus.push_back(cpu);
  return cpus;
}

int getCurrentCpu() { return sched_getcpu(); }

std::vector<int> chooseCpus(llvm::ArrayRef<int> allowed, int current,
                            unsigned threads) {
  if (allowed.empty())
    return {};
  const int *first = llvm::find(allowed, current);
  size_t start = first == allowed.end() ? 0 : first - allowed.begin();
  std::vector<int> cpus;
  for (size_t i = 0; i < std::min<size_t>(threads, allowed.size()); ++i)
    cpus.push_back(allowed[(start + i) % allowed.size()]);
  llvm::sort(cpus);
  return cpus;
}

namespace {
llvm::Error pinThread(pid_t thread, const cpu_set_t &set) {
  // A thread that ended since the listing needs no mask.
  if (sched_setaffinity(thread, sizeof(set), &set) == 0 || errno == ESRCH)
    return llvm::Error::success();
  return llvm::createStringError("sched_setaffinity failed for thread " +
                                 llvm::Twine(thread) + ": " +
                                 std::strerror(errno));
}
} // namespace

llvm::Error pinToCpus(llvm::ArrayRef<int> cpus, bool wholeProcess) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int cpu : cpus)
    CPU_SET(cpu, &set);
  if (!wholeProcess)
    return pinThread(0, set);
  // The affinity mask is per thread: set it on every thread that exists
  // (the JIT's and MLIR's pools included); later ones inherit it.
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it("/proc/self/task", ec), end;
       it != end && !ec; it.increment(ec)) {
    pid_t thread;
    if (llvm::StringRef(llvm::sys::path::filename(it->path()))
            .getAsInteger(10, thread))
      continue;
    if (llvm::Error error = pinThread(thread, set))
      return error;
  }
  if (ec)
    return llvm::createStringError("cannot list /proc/self/task: " +
                                   ec.message());
  return llvm::Error::success();
}

llvm::Expected<std::vector<int>> pinForThreads(unsigned threads) {
  std::vector<int> cpus =
      chooseCpus(getAllowedCpus(), getCurrentCpu(), threads);
  if (cpus.empty())
    return llvm::createStringError(
        "cannot read the CPU affinity of this process");
  if (llvm::Error error = pinToCpus(cpus, /*wholeProcess=*/threads > 1))
    return std::move(error);
  return cpus;
}

} // namespace dispatchlab
