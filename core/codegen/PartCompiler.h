//===- PartCompiler.h - a model's parts to machine code ---------*- C++ -*-===//
//
// Compiles the parts of a model's LLVM module (ModuleParts.h) into objects
// for the host CPU: each part at -O3 in its own LLVMContext, the parts the
// cache lacks in parallel on the CPUs this process may run on.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_CODEGEN_PARTCOMPILER_H
#define DISPATCHLAB_CORE_CODEGEN_PARTCOMPILER_H

#include "core/support/ContentCache.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>
#include <vector>

namespace dispatchlab {

/// The host's target machine, at the JIT's optimization level. detectHost
/// takes the CPU name and features from llvm::sys, so the code uses every
/// vector extension of this machine.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createHostMachine();

struct CompiledParts {
  /// One object per part, in the parts' order.
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects;
  /// How many came from the cache.
  int64_t cacheHits = 0;
  /// Cache entries that were damaged or could not be stored: the objects
  /// are compiled anyway.
  std::vector<std::string> warnings;
};

/// Machine code for `parts` (bitcode, not yet optimized, for `machine`:
/// createHostMachine's), each looked up in `cache` first when there is one
/// and stored there once compiled. An entry's key is the part's bitcode,
/// `machine`'s target and the LLVM version.
llvm::Expected<CompiledParts> compileParts(llvm::ArrayRef<std::string> parts,
                                           const llvm::TargetMachine &machine,
                                           ContentCache *cache);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_CODEGEN_PARTCOMPILER_H
