//===- CodeSize.h - size of the JIT-compiled machine code -------*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_CODEGEN_CODESIZE_H
#define DISPATCHLAB_CORE_CODEGEN_CODESIZE_H

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>

namespace dispatchlab {

/// Bytes of machine code (the text sections of the object the JIT linked:
/// host function, dispatches and their C wrappers). `engine` must have been
/// created with ExecutionEngineOptions::enableObjectDump, which keeps that
/// object; it is read back through a temporary file, the only way the
/// engine exposes it.
llvm::Expected<int64_t> measureCodeSize(mlir::ExecutionEngine &engine);

/// The same, of an object in memory.
llvm::Expected<int64_t> measureObjectCodeSize(llvm::MemoryBufferRef object);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_CODEGEN_CODESIZE_H
