//===- TaskMemoryPool.h - small blocks the threads' tasks share -*- C++ -*-===//
//
// With --threads N every dispatch makes a few small objects per task: the
// async runtime's tokens and groups, and the coroutine frames of the
// compiled code (async-to-async-runtime allocates them with aligned_alloc
// and frees them with free). A task that finishes on a worker frees what
// the calling thread allocated, and glibc then locks the caller's malloc
// arena against the caller's own mallocs: a futex wake per contended free.
// These blocks come from one process-wide slab under a spin lock instead,
// as IREE's task executor keeps its task storage in pools of its own.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_CODEGEN_TASKMEMORYPOOL_H
#define DISPATCHLAB_CORE_CODEGEN_TASKMEMORYPOOL_H

#include <cstddef>

namespace dispatchlab {

/// A block of at least `bytes` aligned to `alignment`: from the pool when
/// it fits a block and the pool has one, else from the host buffer cache
/// (HostBufferCache.h).
void *allocateTaskMemory(size_t bytes, size_t alignment);

/// Frees memory of allocateTaskMemory, or any the C library allocated (the
/// host buffer cache tells its own buffers apart).
void freeTaskMemory(void *pointer);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_CODEGEN_TASKMEMORYPOOL_H
