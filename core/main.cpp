//===- main.cpp - the dispatchlab command
//-----------------------------------===//
//
// One binary with git-style subcommands.
//
//===----------------------------------------------------------------------===//

#include "core/CompileCommand.h"
#include "core/Provenance.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"


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

  if (dispatchlab::getCompileSubcommand())
    return dispatchlab::runCompileCommand();

  llvm::errs()
      << "dispatchlab: missing subcommand (try 'dispatchlab --help')\n";
  return 2;
}
