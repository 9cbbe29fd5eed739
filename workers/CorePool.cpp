//===- CorePool.cpp - the cores run jobs are pinned to --------------------===//

#include "workers/CorePool.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dispatchlab {

using namespace std::chrono_literals;

CorePool::CorePool(std::vector<int> cpus, std::string lockDir)
    : cpus(std::move(cpus)), busy(this->cpus.size(), false),
      sharers(this->cpus.size(), 0), lockDir(std::move(lockDir)),
      lockFds(this->cpus.size(), -1) {
  // Shared by every user's workers, like /tmp itself.
  if (!this->lockDir.empty() && mkdir(this->lockDir.c_str(), 01777) == 0)
    chmod(this->lockDir.c_str(), 01777);
}

CorePool::~CorePool() {
  for (int fd : lockFds)
    if (fd >= 0)
      close(fd);
}

bool CorePool::lockHost(size_t index, bool exclusive) {
  if (lockDir.empty())
    return true;
  std::string path = llvm::formatv("{0}/cpu{1}", lockDir, cpus[index]);
  // Not inherited by children: a lock must end with its reservation.
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  // Unable to coordinate (e.g. another user's file without write access):
  // fall back to this process's reservations rather than never running.
  if (fd < 0)
    return true;
  fchmod(fd, 0666);
  if (flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0) {
    close(fd);
    return false;
  }
  lockFds[index] = fd;
  return true;
}

void CorePool::unlockHost(size_t index) {
  if (lockFds[index] >= 0)
    close(lockFds[index]);
  lockFds[index] = -1;
}

bool CorePool::waitTurn(llvm::function_ref<bool()> take,
                        llvm::function_ref<bool()> keepGoing) {
  std::unique_lock<std::mutex> lock(mutex);
  auto self = queue.insert(queue.end(), nextRequest++);
  while (true) {
    if (queue.begin() == self && take()) {
      queue.erase(self);
      freed.notify_all();
      return true;
    }
    // Other processes release cores without a notification: poll.
    freed.wait_for(lock, 100ms);
    lock.unlock();
    bool go = keepGoing();
    lock.lock();
    if (!go) {
      queue.erase(self);
      freed.notify_all();
      return false;
    }
  }
}

std::optional<std::vector<int>>
CorePool::acquire(unsigned count, llvm::function_ref<bool()> keepGoing) {
  std::vector<int> reserved;
  auto take = [&] {
    std::vector<size_t> taken;
    for (size_t i = 0; i < cpus.size() && taken.size() < count; ++i)
      if (!busy[i] && sharers[i] == 0 && lockHost(i, /*exclusive=*/true))
        taken.push_back(i);
    // All or nothing, so two wide jobs cannot each hold half.
    if (taken.size() < count) {
      for (size_t i : taken)
        unlockHost(i);
      return false;
    }
    for (size_t i : taken) {
      busy[i] = true;
      reserved.push_back(cpus[i]);
    }
    return true;
  };
  if (!waitTurn(take, keepGoing))
    return std::nullopt;
  return reserved;
}

void CorePool::release(llvm::ArrayRef<int> cores) {
  std::lock_guard<std::mutex> lock(mutex);
  for (int core : cores) {
    size_t index = std::find(cpus.begin(), cpus.end(), core) - cpus.begin();
    busy[index] = false;
    unlockHost(index);
  }
  freed.notify_all();
}

std::optional<int>
CorePool::acquireShared(llvm::function_ref<bool()> keepGoing) {
  int core = -1;
  auto take = [&] {
    std::vector<size_t> order(cpus.size());
    std::iota(order.begin(), order.end(), 0);
    llvm::stable_sort(
        order, [&](size_t a, size_t b) { return sharers[a] < sharers[b]; });
    for (size_t i : order) {
      // The first sharer takes the host lock for all of them.
      if (busy[i] || (sharers[i] == 0 && !lockHost(i, /*exclusive=*/false)))
        continue;
      ++sharers[i];
      core = cpus[i];
      return true;
    }
    return false;
  };
  if (!waitTurn(take, keepGoing))
    return std::nullopt;
  return core;
}

void CorePool::releaseShared(int core) {
  std::lock_guard<std::mutex> lock(mutex);
  size_t index = std::find(cpus.begin(), cpus.end(), core) - cpus.begin();
  if (--sharers[index] == 0)
    unlockHost(index);
  freed.notify_all();
}

} // namespace dispatchlab
