//===- DatabaseLock.cpp - one coordinator per result database -------------===//

#include "coordinator/DatabaseLock.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dispatchlab {

static std::string holderPid(int fd) {
  char buffer[32] = {};
  ssize_t size = pread(fd, buffer, sizeof(buffer) - 1, 0);
  llvm::StringRef pid = llvm::StringRef(buffer, size > 0 ? size : 0).trim();
  return pid.empty() ? "unknown" : pid.str();
}

/// True if `fd` is still the file at `path`: a holder that released the
/// lock removed its file, and locking that unlinked inode proves nothing.
static bool isCurrentFile(int fd, const std::string &path) {
  struct stat open, named;
  return fstat(fd, &open) == 0 && stat(path.c_str(), &named) == 0 &&
         open.st_ino == named.st_ino && open.st_dev == named.st_dev;
}

static llvm::Error lockError(const std::string &lockPath, int error) {
  return llvm::createStringError(
      llvm::formatv("cannot lock '{0}': {1}", lockPath, std::strerror(error))
          .str());
}

llvm::Expected<std::unique_ptr<DatabaseLock>>
DatabaseLock::acquire(const std::string &dbPath) {
  std::string lockPath = dbPath + ".lock";
  while (true) {
    int fd = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
      return lockError(lockPath, errno);
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      int error = errno;
      std::string pid = holderPid(fd);
      ::close(fd);
      if (error != EWOULDBLOCK)
        return lockError(lockPath, error);
      return llvm::createStringError(
          llvm::formatv("database '{0}' is in use by another coordinator (pid "
                        "{1}, lock {2}); stop it or use another --db",
                        dbPath, pid, lockPath)
              .str());
    }
    if (!isCurrentFile(fd, lockPath)) {
      ::close(fd);
      continue;
    }
    std::string pid = llvm::formatv("{0}\n", getpid()).str();
    if (ftruncate(fd, 0) != 0 ||
        pwrite(fd, pid.data(), pid.size(), 0) != ssize_t(pid.size())) {
      int error = errno;
      ::close(fd);
      return lockError(lockPath, error);
    }
    return std::unique_ptr<DatabaseLock>(new DatabaseLock(lockPath, fd));
  }
}

DatabaseLock::~DatabaseLock() {
  // Unlink before unlocking: a waiter then finds its inode stale and retries.
  ::unlink(lockPath.c_str());
  ::close(fd);
}

} // namespace dispatchlab
