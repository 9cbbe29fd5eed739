//===- CompareCommand.h - `dispatchlab compare` -----------------*- C++ -*-===//
//
// Times variants of one model against each other in interleaved rounds in
// one process (core/runtime/PairedComparison.h) and prints paired ratios.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_COMPARECOMMAND_H
#define DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_COMPARECOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace dispatchlab {

llvm::cl::SubCommand &getCompareSubcommand();

int runCompareCommand();

} // namespace dispatchlab

#endif // DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_COMPARECOMMAND_H
