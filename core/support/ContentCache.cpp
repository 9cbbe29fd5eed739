//===- ContentCache.cpp - files on disk, named by a content hash ----------===//

#include "core/support/ContentCache.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <vector>

namespace dispatchlab {

namespace fs = llvm::sys::fs;

namespace {
/// The first line of every entry; a change of the entry layout changes it.
constexpr llvm::StringLiteral kEntryMagic = "dispatchlab-cache 1\n";
constexpr llvm::StringLiteral kTemporaryMarker = ".tmp-";
/// A temporary file this old belongs to no live writer.
constexpr std::chrono::hours kAbandonedAge(1);

std::string hashHex(llvm::StringRef bytes) {
  return llvm::toHex(llvm::BLAKE3::hash(llvm::arrayRefFromStringRef(bytes)),
                     /*LowerCase=*/true);
}

/// The payload of an entry's bytes, or what is wrong with them.
llvm::Expected<llvm::StringRef> checkEntry(llvm::StringRef bytes) {
  if (!bytes.consume_front(kEntryMagic))
    return llvm::createStringError("bad header");
  auto [line, payload] = bytes.split('\n');
  auto [sizeText, hash] = line.split(' ');
  uint64_t size;
  if (sizeText.getAsInteger(10, size) || size != payload.size())
    return llvm::createStringError("truncated");
  if (hash != hashHex(payload))
    return llvm::createStringError("checksum mismatch");
  return payload;
}

llvm::Error fileError(llvm::StringRef path, std::error_code ec) {
  return llvm::createStringError(path + ": " + ec.message());
}

/// Marks `path` as just used, for eviction; failing to is harmless.
void touch(llvm::StringRef path) {
  llvm::Expected<fs::file_t> file = fs::openNativeFileForRead(path);
  if (!file) {
    llvm::consumeError(file.takeError());
    return;
  }
  (void)fs::setLastAccessAndModificationTime(*file,
                                             std::chrono::system_clock::now());
  fs::closeFile(*file);
}

struct CachedFile {
  std::string path;
  llvm::sys::TimePoint<> modified;
  uint64_t size;
};
} // namespace

void CacheKey::addLength(uint64_t length) {
  uint8_t bytes[8];
  for (int i = 0; i < 8; ++i)
    bytes[i] = uint8_t(length >> (8 * i));
  hasher.update(bytes);
}

CacheKey &CacheKey::add(llvm::StringRef label, llvm::StringRef bytes) {
  return add(label, llvm::arrayRefFromStringRef(bytes));
}

CacheKey &CacheKey::add(llvm::StringRef label, llvm::ArrayRef<uint8_t> bytes) {
  addLength(label.size());
  hasher.update(label);
  addLength(bytes.size());
  hasher.update(bytes);
  return *this;
}

CacheKey &CacheKey::add(llvm::StringRef label, uint64_t value) {
  return add(label, llvm::StringRef(std::to_string(value)));
}

std::string CacheKey::str() const {
  llvm::BLAKE3 copy = hasher;
  return llvm::toHex(copy.final(), /*LowerCase=*/true);
}

ContentCache::ContentCache(std::string directory, uint64_t maxBytes)
    : directory(std::move(directory)), maxBytes(maxBytes) {}

std::string ContentCache::getPath(llvm::StringRef kind,
                                  llvm::StringRef key) const {
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, kind, key);
  return path.str().str();
}

llvm::Expected<std::optional<std::string>>
ContentCache::lookup(llvm::StringRef kind, llvm::StringRef key) {
  std::string path = getPath(kind, key);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file) {
    if (file.getError() == std::errc::no_such_file_or_directory)
      return std::nullopt;
    return fileError(path, file.getError());
  }
  llvm::Expected<llvm::StringRef> payload = checkEntry((*file)->getBuffer());
  if (!payload) {
    // Removed so that the next writer replaces it; another process may have
    // replaced it already, which only costs that process its entry.
    (void)fs::remove(path);
    return llvm::createStringError("cache entry " + path + " is damaged (" +
                                   llvm::toString(payload.takeError()) +
                                   "); computing it again");
  }
  touch(path);
  return std::optional<std::string>(payload->str());
}

llvm::Error ContentCache::store(llvm::StringRef kind, llvm::StringRef key,
                                llvm::StringRef payload) {
  if (llvm::Error error = insert(kind, key, payload))
    return error;
  return evict();
}

llvm::Error ContentCache::insert(llvm::StringRef kind, llvm::StringRef key,
                                 llvm::StringRef payload) {
  std::string path = getPath(kind, key);
  llvm::StringRef parent = llvm::sys::path::parent_path(path);
  if (std::error_code ec = fs::create_directories(parent))
    return fileError(parent, ec);
  int fd;
  llvm::SmallString<256> temporary;
  if (std::error_code ec = fs::createUniqueFile(
          path + kTemporaryMarker + "%%%%%%%%", fd, temporary))
    return fileError(path, ec);
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << kEntryMagic << payload.size() << ' ' << hashHex(payload) << '\n'
       << payload;
    os.close();
    if (os.has_error()) {
      std::error_code ec = os.error();
      os.clear_error();
      (void)fs::remove(temporary);
      return fileError(temporary, ec);
    }
  }
  if (std::error_code ec = fs::rename(temporary, path)) {
    (void)fs::remove(temporary);
    return fileError(path, ec);
  }
  return llvm::Error::success();
}

llvm::Error ContentCache::evict() {
  std::vector<CachedFile> files;
  uint64_t total = 0;
  auto now = std::chrono::system_clock::now();
  std::error_code ec;
  for (fs::recursive_directory_iterator it(directory, ec), end;
       it != end && !ec; it.increment(ec)) {
    llvm::ErrorOr<fs::basic_file_status> status = it->status();
    if (!status || status->type() != fs::file_type::regular_file)
      continue;
    if (llvm::StringRef(it->path()).contains(kTemporaryMarker)) {
      if (now - status->getLastModificationTime() > kAbandonedAge)
        (void)fs::remove(it->path());
      continue;
    }
    files.push_back(
        {it->path(), status->getLastModificationTime(), status->getSize()});
    total += status->getSize();
  }
  if (ec && ec != std::errc::no_such_file_or_directory)
    return fileError(directory, ec);
  if (maxBytes == 0 || total <= maxBytes)
    return llvm::Error::success();
  llvm::sort(files, [](const CachedFile &a, const CachedFile &b) {
    return a.modified < b.modified;
  });
  for (const CachedFile &file : files) {
    if (total <= maxBytes)
      break;
    // Another process may have evicted it first.
    (void)fs::remove(file.path);
    total -= file.size;
  }
  return llvm::Error::success();
}

} // namespace dispatchlab
