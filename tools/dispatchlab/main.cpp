//===- main.cpp - the dispatchlab command ---------------------------------===//
//
// One binary with git-style subcommands. Each subcommand lives in its own
// `*Command.cpp` and is listed once in `kSubcommands` below.
//
//===----------------------------------------------------------------------===//

#include "core/support/Provenance.h"
#include "tools/dispatchlab/commands/CompareCommand.h"
#include "tools/dispatchlab/commands/CompileCommand.h"
#include "tools/dispatchlab/commands/CoordinatorCommand.h"
#include "tools/dispatchlab/commands/DiffCommand.h"
#include "tools/dispatchlab/commands/ImportCommand.h"
#include "tools/dispatchlab/commands/JobsCommand.h"
#include "tools/dispatchlab/commands/QueryCommand.h"
#include "tools/dispatchlab/commands/ReportCommand.h"
#include "tools/dispatchlab/commands/ReproduceCommand.h"
#include "tools/dispatchlab/commands/RunCommand.h"
#include "tools/dispatchlab/commands/ShowCommand.h"
#include "tools/dispatchlab/commands/SweepCommand.h"
#include "tools/dispatchlab/commands/SweepsCommand.h"
#include "tools/dispatchlab/commands/WorkerCommand.h"

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
    {dispatchlab::getSweepSubcommand, dispatchlab::runSweepCommand},
    {dispatchlab::getCoordinatorSubcommand, dispatchlab::runCoordinatorCommand},
    {dispatchlab::getWorkerSubcommand, dispatchlab::runWorkerCommand},
    {dispatchlab::getImportSubcommand, dispatchlab::runImportCommand},
    {dispatchlab::getQuerySubcommand, dispatchlab::runQueryCommand},
    {dispatchlab::getReportSubcommand, dispatchlab::runReportCommand},
    {dispatchlab::getShowSubcommand, dispatchlab::runShowCommand},
    {dispatchlab::getJobsSubcommand, dispatchlab::runJobsCommand},
    {dispatchlab::getSweepsSubcommand, dispatchlab::runSweepsCommand},
    {dispatchlab::getDiffSubcommand, dispatchlab::runDiffCommand},
    {dispatchlab::getReproduceSubcommand, dispatchlab::runReproduceCommand},
    {dispatchlab::getRunSubcommand, dispatchlab::runRunCommand},
    {dispatchlab::getCompareSubcommand, dispatchlab::runCompareCommand},
};
/// LLVM's own options (backend flags, several hundred) sit in the top-level
/// subcommand; hidden, `dispatchlab --help` lists only what is ours, as
/// mlir-opt's categories do, and `--help-hidden` still shows them all.
void hideLlvmOptions() {
  for (auto &[name, option] :
       llvm::cl::getRegisteredOptions(llvm::cl::SubCommand::getTopLevel()))
    if (!name.starts_with("help") && name != "version")
      option->setHiddenFlag(llvm::cl::Hidden);
}

const char kOverview[] =
    "dispatchlab: how an ML compiler cuts a model into dispatches\n\n"
    "  dispatchlab compile MODEL.mlir|MODEL.onnx [options]\n"
    "  dispatchlab run MODEL.mlir|MODEL.onnx [options]\n"
    "  dispatchlab import MODEL.onnx -o MODEL.mlir\n"
    "  dispatchlab sweep SPEC.txtpb [--coordinator HOST:PORT]\n"
    "  dispatchlab coordinator [--listen HOST:PORT] [--db FILE]\n"
    "  dispatchlab worker --coordinator HOST:PORT [--slots N]\n"
    "  dispatchlab report|query|show|diff|reproduce|jobs|sweeps ... [--db "
    "FILE]\n";
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    dispatchlab::Provenance provenance = dispatchlab::Provenance::current();
    os << "dispatchlab " << provenance.dispatchlabCommit << " (LLVM "
       << provenance.llvmVersion << ", host " << provenance.hostCpu << ")\n";
  });
  dispatchlab::registerCompileOptions();
  hideLlvmOptions();
  // A bad flag is a usage error: exit 2, as for bad knob values.
  if (!llvm::cl::ParseCommandLineOptions(argc, argv, kOverview, &llvm::errs()))
    return 2;

  for (const Subcommand &subcommand : kSubcommands)
    if (subcommand.get())
      return subcommand.run();

  llvm::errs()
      << "dispatchlab: missing subcommand (try 'dispatchlab --help')\n";
  return 2;
}
