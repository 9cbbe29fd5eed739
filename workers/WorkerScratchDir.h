//===- WorkerScratchDir.h - a worker's own temporary directory --*- C++ -*-===//
//
// A worker's files (its copies of the models it runs) live in one directory
// of its own, `dispatchlab-worker.PID.XXXXXX` in the system temp directory,
// removed when the worker ends. A worker killed with -9 cannot remove its
// own, so every new one removes those whose PID is no longer running.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_WORKERS_WORKERSCRATCHDIR_H
#define DISPATCHLAB_WORKERS_WORKERSCRATCHDIR_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace dispatchlab {

/// Removes the `dispatchlab-worker.PID.*` directories in `tempDir` that
/// this user owns and whose PID no process has; returns their paths.
std::vector<std::string> removeStaleScratchDirs(llvm::StringRef tempDir);

class WorkerScratchDir {
public:
  /// Removes stale directories, then creates this one.
  WorkerScratchDir();
  ~WorkerScratchDir();
  WorkerScratchDir(const WorkerScratchDir &) = delete;
  WorkerScratchDir &operator=(const WorkerScratchDir &) = delete;

  /// Empty when it could not be created; error() says why.
  const std::string &path() const { return dirPath; }
  const std::string &error() const { return creationError; }
  /// Directories of dead workers removed on creation.
  const std::vector<std::string> &removedStale() const { return stale; }

private:
  std::string dirPath;
  std::string creationError;
  std::vector<std::string> stale;
};

} // namespace dispatchlab

#endif // DISPATCHLAB_WORKERS_WORKERSCRATCHDIR_H
