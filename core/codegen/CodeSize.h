//===- CodeSize.h - size of the JIT-compiled machine code -------*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_CODEGEN_CODESIZE_H
#define DISPATCHLAB_CORE_CODEGEN_CODESIZE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>

namespace dispatchlab {

/// Bytes of machine code in `object`: its text sections (host function,
/// dispatches and their C wrappers, for a compiled model).
llvm::Expected<int64_t> measureObjectCodeSize(llvm::MemoryBufferRef object);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_CODEGEN_CODESIZE_H
