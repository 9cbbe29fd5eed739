//===- ContentCache.h - files on disk, named by a content hash --*- C++ -*-===//
//
// A directory of cache entries, each named by a hash of everything its
// contents depend on. Several processes may share one directory: an entry
// is written to a temporary file and renamed into place, and carries its
// own length and hash, so a reader sees a whole entry or none, and a
// damaged one is a miss. The directory is kept under a size bound by
// removing the entries used least recently (oldest modification time; a
// hit touches its entry).
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_SUPPORT_CONTENTCACHE_H
#define DISPATCHLAB_CORE_SUPPORT_CONTENTCACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace dispatchlab {

/// A hash of labelled parts. Each part is length-prefixed, so that no two
/// different sequences of parts hash alike by concatenation.
class CacheKey {
public:
  CacheKey &add(llvm::StringRef label, llvm::StringRef bytes);
  CacheKey &add(llvm::StringRef label, llvm::ArrayRef<uint8_t> bytes);
  CacheKey &add(llvm::StringRef label, uint64_t value);
  /// 64 hex digits.
  std::string str() const;

private:
  void addLength(uint64_t length);
  llvm::BLAKE3 hasher;
};

class ContentCache {
public:
  /// `maxBytes` 0: unbounded.
  ContentCache(std::string directory, uint64_t maxBytes);

  /// The payload stored under `kind`/`key`: none when absent; an error
  /// naming the entry when it is damaged (it is removed: a miss next time).
  llvm::Expected<std::optional<std::string>> lookup(llvm::StringRef kind,
                                                    llvm::StringRef key);
  /// Stores `payload` atomically (a concurrent writer of the same key wins
  /// or loses whole), then evicts down to the size bound.
  llvm::Error store(llvm::StringRef kind, llvm::StringRef key,
                    llvm::StringRef payload);
  /// store() without evicting: for a batch of entries (a model's objects),
  /// each eviction reading the whole directory; evict() after the batch.
  llvm::Error insert(llvm::StringRef kind, llvm::StringRef key,
                     llvm::StringRef payload);
  /// Removes the least recently used entries until the directory holds at
  /// most `maxBytes`, and temporary files abandoned by a crashed writer.
  llvm::Error evict();

  llvm::StringRef getDirectory() const { return directory; }

private:
  std::string getPath(llvm::StringRef kind, llvm::StringRef key) const;

  std::string directory;
  uint64_t maxBytes;
};

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_SUPPORT_CONTENTCACHE_H
