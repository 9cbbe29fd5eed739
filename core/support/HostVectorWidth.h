//===- HostVectorWidth.h - f32 lanes of the host's vectors ------*- C++ -*-===//
//
// The vector width codegen tiles for: the widest f32 vector the target CPU's
// features allow, so the innermost tiles fill whole registers of this host.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_SUPPORT_HOSTVECTORWIDTH_H
#define DISPATCHLAB_CORE_SUPPORT_HOSTVECTORWIDTH_H

#include "llvm/ADT/StringMap.h"

#include <cstdint>

namespace dispatchlab {

/// f32 lanes of the widest vector `features` (LLVM feature name -> enabled)
/// allow: 16 with avx512f, 8 with avx or avx2, 4 otherwise (SSE, NEON).
int64_t getF32VectorWidth(const llvm::StringMap<bool> &features);

/// getF32VectorWidth of this host's CPU features, the ones the JIT compiles
/// for.
int64_t getHostF32VectorWidth();

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_SUPPORT_HOSTVECTORWIDTH_H
