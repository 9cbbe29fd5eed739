//===- WorkerScratchDir.cpp - a worker's own temporary directory ----------===//

#include "workers/WorkerScratchDir.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace dispatchlab {

namespace {
constexpr llvm::StringLiteral kPrefix = "dispatchlab-worker.";

/// The PID in a `dispatchlab-worker.PID.XXXXXX` name; 0 for other names.
pid_t ownerPid(llvm::StringRef name) {
  if (!name.consume_front(kPrefix))
    return 0;
  auto [pidText, suffix] = name.split('.');
  pid_t pid = 0;
  if (suffix.empty() || pidText.getAsInteger(10, pid) || pid <= 0)
    return 0;
  return pid;
}

/// Only ESRCH says no process has the PID: EPERM is another user's process.
bool isRunning(pid_t pid) { return kill(pid, 0) == 0 || errno != ESRCH; }

/// A directory of our own, not a link another user planted.
bool isOwnDirectory(const std::string &path) {
  struct stat status;
  return lstat(path.c_str(), &status) == 0 && S_ISDIR(status.st_mode) &&
         status.st_uid == geteuid();
}
} // namespace

std::vector<std::string> removeStaleScratchDirs(llvm::StringRef tempDir) {
  std::vector<std::string> removed;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator entry(tempDir, ec), end;
       !ec && entry != end; entry.increment(ec)) {
    const std::string &path = entry->path();
    pid_t pid = ownerPid(llvm::sys::path::filename(path));
    if (pid == 0 || isRunning(pid) || !isOwnDirectory(path))
      continue;
    if (!llvm::sys::fs::remove_directories(path))
      removed.push_back(path);
  }
  return removed;
}

WorkerScratchDir::WorkerScratchDir() {
  llvm::SmallString<128> tempDir;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, tempDir);
  stale = removeStaleScratchDirs(tempDir);
  llvm::SmallString<128> pattern(tempDir);
  llvm::sys::path::append(pattern,
                          llvm::formatv("{0}{1}.XXXXXX", kPrefix, getpid()));
  std::string buffer(pattern);
  if (mkdtemp(buffer.data())) {
    dirPath = buffer;
    return;
  }
  int error = errno;
  creationError = llvm::formatv("cannot create a scratch directory in {0}: {1}",
                                tempDir, strerror(error));
}

WorkerScratchDir::~WorkerScratchDir() {
  if (!dirPath.empty())
    llvm::sys::fs::remove_directories(dirPath);
}

} // namespace dispatchlab
