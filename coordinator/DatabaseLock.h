//===- DatabaseLock.h - one coordinator per result database -----*- C++ -*-===//
//
// An exclusive flock on DB.lock, held for a coordinator's lifetime (embedded
// sweeps included), with the holder's pid in the file. Two coordinators on
// one database would lease the same jobs twice; readers (report, show,
// query) take no lock.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_COORDINATOR_DATABASELOCK_H
#define DISPATCHLAB_COORDINATOR_DATABASELOCK_H

#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace dispatchlab {

class DatabaseLock {
public:
  /// Takes the lock of the database at `dbPath`, or fails at once naming
  /// the database and the holder's pid.
  static llvm::Expected<std::unique_ptr<DatabaseLock>>
  acquire(const std::string &dbPath);
  /// Removes the lock file and releases the lock.
  ~DatabaseLock();
  DatabaseLock(const DatabaseLock &) = delete;
  DatabaseLock &operator=(const DatabaseLock &) = delete;

  const std::string &getLockPath() const { return lockPath; }

private:
  DatabaseLock(std::string lockPath, int fd)
      : lockPath(std::move(lockPath)), fd(fd) {}

  std::string lockPath;
  int fd;
};

} // namespace dispatchlab

#endif // DISPATCHLAB_COORDINATOR_DATABASELOCK_H
