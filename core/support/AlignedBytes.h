//===- AlignedBytes.h - byte storage aligned as device buffers --*- C++ -*-===//
//
// IREE's HAL hands dispatches buffers aligned to 64 bytes, and the buffers
// one-shot-bufferize allocates inside the compiled code are aligned to 64
// too. An array the host allocates with plain `new` is 16-byte aligned, so
// where it lands decides whether each 64-byte vector load of it splits
// across two cache lines: a draw worth several percent on a short call,
// different in every process (docs/compare.md). Host arrays are therefore
// aligned like IREE's buffers.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_SUPPORT_ALIGNEDBYTES_H
#define DISPATCHLAB_CORE_SUPPORT_ALIGNEDBYTES_H

#include "llvm/Support/MemAlloc.h"

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace dispatchlab {

/// One cache line and one AVX-512 vector.
inline constexpr size_t kHostBufferAlignment = 64;

/// std::allocator's contract with storage from llvm::allocate_buffer.
template <typename T> struct BufferAlignedAllocator {
  using value_type = T;
  using is_always_equal = std::true_type;
  BufferAlignedAllocator() = default;
  template <typename U>
  BufferAlignedAllocator(const BufferAlignedAllocator<U> &) {}
  T *allocate(size_t count) {
    return static_cast<T *>(
        llvm::allocate_buffer(count * sizeof(T), kHostBufferAlignment));
  }
  void deallocate(T *pointer, size_t count) {
    llvm::deallocate_buffer(pointer, count * sizeof(T), kHostBufferAlignment);
  }
  template <typename U>
  bool operator==(const BufferAlignedAllocator<U> &) const {
    return true;
  }
  template <typename U>
  bool operator!=(const BufferAlignedAllocator<U> &) const {
    return false;
  }
};

/// Bytes whose first one is kHostBufferAlignment-aligned.
using AlignedBytes = std::vector<uint8_t, BufferAlignedAllocator<uint8_t>>;

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_SUPPORT_ALIGNEDBYTES_H
