//===- TaskMemoryPool.cpp - small blocks the threads' tasks share ---------===//

#include "core/codegen/TaskMemoryPool.h"
#include "core/codegen/HostBufferCache.h"

#include <atomic>
#include <cstdlib>
#include <new>
#include <thread>

namespace dispatchlab {
namespace {

constexpr size_t kBlockBytes = 1024;
constexpr size_t kBlockAlignment = 64;
/// Far more blocks than tasks in flight: a dispatch has one per thread.
constexpr size_t kBlocks = 4096;

struct FreeBlock {
  FreeBlock *next;
};

class Pool {
public:
  static Pool &get() {
    static Pool pool;
    return pool;
  }

  bool owns(void *pointer) const {
    auto *byte = static_cast<std::byte *>(pointer);
    return byte >= slab && byte < slab + kBlocks * kBlockBytes;
  }

  void *take() {
    Lock lock(busy);
    if (FreeBlock *block = freeList) {
      freeList = block->next;
      return block;
    }
    if (used == kBlocks)
      return nullptr;
    return slab + kBlockBytes * used++;
  }

  void give(void *pointer) {
    Lock lock(busy);
    auto *block = static_cast<FreeBlock *>(pointer);
    block->next = freeList;
    freeList = block;
  }

private:
  /// Held for a few instructions, so spinning beats sleeping on a futex.
  struct Lock {
    explicit Lock(std::atomic_flag &flag) : flag(flag) {
      while (flag.test_and_set(std::memory_order_acquire))
        std::this_thread::yield();
    }
    ~Lock() { flag.clear(std::memory_order_release); }
    std::atomic_flag &flag;
  };

  Pool()
      : slab(static_cast<std::byte *>(::operator new(
            kBlocks *kBlockBytes, std::align_val_t(kBlockAlignment)))) {}

  std::byte *const slab;
  size_t used = 0;
  FreeBlock *freeList = nullptr;
  std::atomic_flag busy;
};

} // namespace

void *allocateTaskMemory(size_t bytes, size_t alignment) {
  if (bytes <= kBlockBytes && alignment <= kBlockAlignment)
    if (void *block = Pool::get().take())
      return block;
  return getHostBufferCache().allocate(bytes, alignment);
}

void freeTaskMemory(void *pointer) {
  if (pointer && Pool::get().owns(pointer))
    Pool::get().give(pointer);
  else
    getHostBufferCache().free(pointer);
}

} // namespace dispatchlab
