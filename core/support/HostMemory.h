//===- HostMemory.h - how the runner's heap treats freed buffers -*- C++
//-*-===//
//
// A model call allocates its transient buffers (the tensors between
// dispatches) and frees them before returning. IREE's runtime takes them
// from a caching allocator, so a steady-state call touches memory it already
// owns; glibc's malloc instead serves large blocks with fresh mmaps and
// unmaps them on free, so every call page-faults its buffers in again
// (deeplabv3's 30 MB padded tensors: ~20% of a call in the kernel).
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_SUPPORT_HOSTMEMORY_H
#define DISPATCHLAB_CORE_SUPPORT_HOSTMEMORY_H

#include "llvm/ADT/StringRef.h"

namespace dispatchlab {

/// Makes malloc keep freed memory for reuse (no mmap per block, no trimming
/// of the heap) for the rest of the process. Returns a description of the
/// policy for provenance.
llvm::StringRef retainFreedMemory();

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_SUPPORT_HOSTMEMORY_H
