//===- HostBufferCache.h - a compiled model's buffers, kept ----*- C++ -*-===//
//
// A compiled model allocates its intermediate tensors (memref.alloc ->
// malloc / aligned_alloc) and frees each after its last use, the same sizes
// in the same order on every call. glibc serves such buffers (up to tens of
// MiB, mmap off for timed runs) from its large bins, and searching and
// splitting them cost about 3.5 us a buffer: 0.22 ms of MobileNetV2's 5.8 ms
// on one thread (62 buffers a call). Freed buffers are kept here instead; an
// allocation takes the most recently freed one that holds it without
// wasting more than its size, which is likely still in the CPU's caches (a
// cache by exact size handed out the previous call's buffers, cold, and
// gained nothing). IREE's runtime likewise keeps transient buffers in a
// caching allocator.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_CODEGEN_HOSTBUFFERCACHE_H
#define DISPATCHLAB_CORE_CODEGEN_HOSTBUFFERCACHE_H

#include <cstddef>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dispatchlab {

class HostBufferCache {
public:
  /// Keeps at most `maxIdleBytes` of freed buffers; beyond, frees the
  /// least recently freed.
  explicit HostBufferCache(size_t maxIdleBytes);
  ~HostBufferCache();
  HostBufferCache(const HostBufferCache &) = delete;
  HostBufferCache &operator=(const HostBufferCache &) = delete;

  /// At least `bytes` aligned to `alignment` (a power of two): the most
  /// recently freed kept buffer of at least that alignment holding between
  /// the rounded size and twice it, else a new one. Null when the C library
  /// has none, even after the kept buffers are given back to it.
  void *allocate(size_t bytes, size_t alignment);

  /// Keeps a buffer of allocate(); any other pointer goes to the C library.
  void free(void *pointer);

  /// Bytes kept for reuse.
  size_t getIdleBytes();

private:
  using Shape = std::pair<size_t, size_t>; // rounded bytes, alignment
  struct Idle {
    void *buffer;
    Shape shape;
  };

  void *takeIdle(Shape shape);
  void releaseIdle();

  const size_t maxIdleBytes;
  std::mutex mutex;
  std::vector<Idle> idle; // least recently freed first
  std::unordered_map<void *, Shape> live;
  size_t idleBytes = 0;
};

/// The process's cache, for the compiled code (HostJit's malloc,
/// aligned_alloc and free, the task runtime's large blocks).
HostBufferCache &getHostBufferCache();

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_CODEGEN_HOSTBUFFERCACHE_H
