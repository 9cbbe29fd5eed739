//===- ModuleParts.h - a model's LLVM module, one part per dispatch -*- C++
//-*-//
//
// Two variants of a model share most of their dispatches (iree-O0 and
// iree-O2 on ResNet-50: 59 of 63), but as one LLVM module they share no
// machine code: one differing dispatch recompiles them all. Split into one
// module per dispatch and one for the host, each part is compiled on its own
// (in parallel) and cached by its content, as IREE compiles each executable
// separately from the host program.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_CODEGEN_MODULEPARTS_H
#define DISPATCHLAB_CORE_CODEGEN_MODULEPARTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace dispatchlab {

/// Splits `module` into parts, as bitcode: one per function of `dispatches`,
/// one per function of `entries` (the weight initializer's entry point,
/// which weight packing makes the biggest function of a CNN), and last the
/// host part, what stays of `module`: those functions' bodies deleted, and
/// what only they used. A part holds its function and private copies of the
/// internal constants and functions that function uses; internal variables
/// it shares with another part become external. Each dispatch is renamed
/// after its part's content (`dispatchlab_dispatch_<hash>`), so a dispatch
/// formed alike in two models has the same name and part bitcode in both;
/// two identical dispatches of one module become one. Entries keep their
/// names.
llvm::Expected<std::vector<std::string>>
splitIntoParts(llvm::Module &module, llvm::ArrayRef<std::string> dispatches,
               llvm::ArrayRef<std::string> entries);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_CODEGEN_MODULEPARTS_H
