//===- HostJit.h - a compiled model's object, linked in process -*- C++ -*-===//
//
// The machine code of a model is compiled eagerly into relocatable objects
// (compileObject; one per part, ModuleParts.h) and then linked into this
// process with ORC (HostJit). Having the objects in hand, rather than letting
// the JIT compile at the first lookup as mlir::ExecutionEngine does, lets the
// run time the compile, measure the code and keep the objects in a cache
// keyed by their input.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_CODEGEN_HOSTJIT_H
#define DISPATCHLAB_CORE_CODEGEN_HOSTJIT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace dispatchlab {

/// Adds `_mlir_NAME(void **args)` for each function NAME of `entries`: it
/// calls NAME with argument i loaded from `*args[i]` (and stores a result
/// through `args[n]`), the calling convention of HostJit::lookupPacked, as
/// of mlir::ExecutionEngine::invokePacked. Every other definition becomes
/// internal, as an executable exports only its entry points: -O3 may then
/// drop the arguments a function does not use and choose its calling
/// convention. (MobileBERT's host function takes thousands of arguments;
/// with it and a packed wrapper of it exported, instruction selection of
/// those calls took most of the JIT's 88 s.)
llvm::Error exportPackedEntryPoints(llvm::Module &module,
                                    llvm::ArrayRef<llvm::StringRef> entries);

/// The name of the wrapper exportPackedEntryPoints adds for `entry`.
std::string getPackedEntryPoint(llvm::StringRef entry);

/// Machine code for `module` (already optimized) as an object file.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
compileObject(llvm::Module &module, llvm::TargetMachine &machine);

class HostJit {
public:
  /// Links `objects`. Their undefined symbols resolve to each other's, to
  /// `symbols`, to what the runtime `libraries` export through
  /// mlir::ExecutionEngine's init hook (kLibraryInitFnName), and to anything
  /// visible in the process (the libraries without that hook are loaded
  /// into it).
  static llvm::Expected<std::unique_ptr<HostJit>>
  create(std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects,
         llvm::ArrayRef<llvm::StringRef> libraries,
         llvm::ArrayRef<std::pair<llvm::StringRef, void *>> symbols);
  ~HostJit();

  /// The wrapper addPackedWrappers made for function `name`.
  llvm::Expected<void (*)(void **)> lookupPacked(llvm::StringRef name) const;
  /// The objects that were linked (for their code size).
  llvm::ArrayRef<std::unique_ptr<llvm::MemoryBuffer>> getObjects() const {
    return objectCopies;
  }
  /// The same objects linked again, with the same libraries and symbols, at
  /// other addresses: a second copy of the code without compiling it again.
  llvm::Expected<std::unique_ptr<HostJit>> relink() const;

private:
  HostJit() = default;
  llvm::Error loadLibraries(llvm::ArrayRef<llvm::StringRef> libraries,
                            llvm::orc::SymbolMap &exported);

  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> objectCopies;
  /// What create() was given, for relink().
  std::vector<std::string> libraryPaths;
  std::vector<std::pair<std::string, void *>> extraSymbols;
  /// The runtime libraries' destroy hooks, run when the code goes away.
  std::vector<void (*)()> destroyFunctions;
};

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_CODEGEN_HOSTJIT_H
