//===- main.cpp - the dispatchlab command ---------------------------------===//
//
// One binary with git-style subcommands. Each subcommand lives in its own
// `*Command.cpp` and is listed once in `kSubcommands` below.
//
//===----------------------------------------------------------------------===//

#include "core/CompileCommand.h"
#include "core/Provenance.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

namespace {
struct Subcommand {
  llvm::cl::SubCommand &(*get)();
  int (*run)();
};

const Subcommand kSubcommands[] = {
    {dispatchlab::getCompileSubcommand, dispatchlab::runCompileCommand},
};
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    dispatchlab::Provenance provenance = dispatchlab::Provenance::current();
    os << "dispatchlab " << provenance.dispatchlabCommit << " (LLVM "
       << provenance.llvmVersion << ", host " << provenance.hostCpu << ")\n";
  });
  dispatchlab::registerCompileOptions();
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "dispatchlab: how an ML compiler cuts a model into dispatches\n\n"
      "  dispatchlab compile MODEL.mlir [options]\n");

  for (const Subcommand &subcommand : kSubcommands)
    if (subcommand.get())
      return subcommand.run();

  llvm::errs() << "dispatchlab: missing subcommand (try 'dispatchlab --help')\n";
  return 2;
}
