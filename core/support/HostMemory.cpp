//===- HostMemory.cpp - how the runner's heap treats freed buffers --------===//

#include "core/support/HostMemory.h"

#include <malloc.h>

namespace dispatchlab {

llvm::StringRef retainFreedMemory() {
  // Every block from the heap, and the heap never shrinks: a freed
  // transient buffer is there for the next call, as in a caching allocator.
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);
  return "glibc malloc retaining freed memory (M_MMAP_MAX=0, "
         "M_TRIM_THRESHOLD=-1)";
}

} // namespace dispatchlab
