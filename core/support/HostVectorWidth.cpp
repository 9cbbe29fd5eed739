//===- HostVectorWidth.cpp - f32 lanes of the host's vectors --------------===//

#include "core/support/HostVectorWidth.h"

#include "llvm/TargetParser/Host.h"

namespace dispatchlab {

int64_t getF32VectorWidth(const llvm::StringMap<bool> &features) {
  if (features.lookup("avx512f"))
    return 16;
  if (features.lookup("avx") || features.lookup("avx2"))
    return 8;
  return 4;
}

int64_t getHostF32VectorWidth() {
  return getF32VectorWidth(llvm::sys::getHostCPUFeatures());
}

} // namespace dispatchlab
