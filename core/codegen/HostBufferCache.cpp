//===- HostBufferCache.cpp - a compiled model's buffers, kept -------------===//

#include "core/codegen/HostBufferCache.h"

#include <algorithm>
#include <cstdlib>

namespace dispatchlab {

HostBufferCache::HostBufferCache(size_t maxIdleBytes)
    : maxIdleBytes(maxIdleBytes) {}

HostBufferCache::~HostBufferCache() { releaseIdle(); }

void *HostBufferCache::takeIdle(Shape shape) {
  std::lock_guard<std::mutex> lock(mutex);
  // The most recently freed buffer that fits without wasting more than its
  // size: likely still in cache, as glibc's own reuse would be.
  auto fits = [&](const Shape &kept) {
    return kept.second % shape.second == 0 && kept.first >= shape.first &&
           kept.first <= 2 * shape.first;
  };
  auto it = std::find_if(idle.rbegin(), idle.rend(),
                         [&](const Idle &kept) { return fits(kept.shape); });
  if (it == idle.rend())
    return nullptr;
  Idle taken = *it;
  idle.erase(std::next(it).base());
  idleBytes -= taken.shape.first;
  live.emplace(taken.buffer, taken.shape);
  return taken.buffer;
}

void HostBufferCache::releaseIdle() {
  std::lock_guard<std::mutex> lock(mutex);
  for (const Idle &kept : idle)
    std::free(kept.buffer);
  idle.clear();
  idleBytes = 0;
}

void *HostBufferCache::allocate(size_t bytes, size_t alignment) {
  // aligned_alloc wants a multiple of the alignment; zero bytes still get a
  // buffer of their own, as malloc(0) may.
  size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  Shape shape{rounded ? rounded : alignment, alignment};
  if (void *buffer = takeIdle(shape))
    return buffer;
  void *buffer = std::aligned_alloc(alignment, shape.first);
  if (!buffer) {
    // Kept buffers may be what the address space lacks.
    releaseIdle();
    buffer = std::aligned_alloc(alignment, shape.first);
    if (!buffer)
      return nullptr;
  }
  std::lock_guard<std::mutex> lock(mutex);
  // Assigned, not emplaced: should a buffer of ours ever be freed past the
  // cache, the C library may hand its address out again, and the shape
  // must be the new one.
  live[buffer] = shape;
  return buffer;
}

void HostBufferCache::free(void *pointer) {
  if (!pointer)
    return;
  std::vector<void *> dropped;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = live.find(pointer);
    if (it == live.end()) {
      dropped.push_back(pointer);
    } else {
      idle.push_back({pointer, it->second});
      idleBytes += it->second.first;
      live.erase(it);
      // Over the limit, the least recently freed go first.
      while (idleBytes > maxIdleBytes) {
        idleBytes -= idle.front().shape.first;
        dropped.push_back(idle.front().buffer);
        idle.erase(idle.begin());
      }
    }
  }
  for (void *buffer : dropped)
    std::free(buffer);
}

size_t HostBufferCache::getIdleBytes() {
  std::lock_guard<std::mutex> lock(mutex);
  return idleBytes;
}

HostBufferCache &getHostBufferCache() {
  // Never destroyed: compiled code may free into it during static
  // destruction of the runtime.
  static auto *cache = new HostBufferCache(size_t(2) << 30);
  return *cache;
}

} // namespace dispatchlab
