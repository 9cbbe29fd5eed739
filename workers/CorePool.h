//===- CorePool.h - the cores run jobs are pinned to -----------*- C++ -*-===//

#ifndef DISPATCHLAB_WORKERS_COREPOOL_H
#define DISPATCHLAB_WORKERS_COREPOOL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <condition_variable>
#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace dispatchlab {

/// The cores latency jobs are pinned to. A run job reserves as many as it
/// has threads, all at once and first come first served, so two
/// measurements never share a core and a wide job is not starved by narrow
/// ones. With a lock directory, a reserved core is also locked there (flock
/// on one file per CPU), so worker processes on one host never share one
/// either. Other jobs (compiles) hold cores shared: any number of them may
/// run on a core, but never beside a measurement, which waits for them to
/// end (flock's shared and exclusive locks across processes).
class CorePool {
public:
  explicit CorePool(std::vector<int> cpus, std::string lockDir = "");
  ~CorePool();

  size_t size() const { return cpus.size(); }

  /// Waits until `count` cores (at most size()) are free and it is this
  /// request's turn, polling `keepGoing` every 100 ms; returns the CPU ids,
  /// or nothing once `keepGoing` says stop.
  std::optional<std::vector<int>> acquire(unsigned count,
                                          llvm::function_ref<bool()> keepGoing);
  void release(llvm::ArrayRef<int> cores);

  /// Waits, like acquire, for a core no measurement holds, and shares it:
  /// the one with the fewest sharers in this pool.
  std::optional<int> acquireShared(llvm::function_ref<bool()> keepGoing);
  void releaseShared(int core);

private:
  /// Takes the host-wide lock of cpus[index], exclusive or shared; false
  /// if another process holds it in a conflicting mode.
  bool lockHost(size_t index, bool exclusive);
  void unlockHost(size_t index);
  /// Waits until it is this request's turn and `take` (called under the
  /// mutex) succeeds; false once `keepGoing` says stop.
  bool waitTurn(llvm::function_ref<bool()> take,
                llvm::function_ref<bool()> keepGoing);

  std::vector<int> cpus;
  /// Per CPU, whether a measurement holds it, and how many jobs share it.
  std::vector<bool> busy;
  std::vector<unsigned> sharers;
  std::string lockDir;
  /// Per CPU, the open lock file while held, else -1.
  std::vector<int> lockFds;
  std::mutex mutex;
  std::condition_variable freed;
  /// Requests waiting, oldest first.
  std::list<uint64_t> queue;
  uint64_t nextRequest = 0;
};

/// Where workers lock the cores their run jobs are pinned to.
inline constexpr const char *kCoreLockDir = "/tmp/dispatchlab-core-locks";

} // namespace dispatchlab

#endif // DISPATCHLAB_WORKERS_COREPOOL_H
