//===- CompileCommand.cpp - `dispatchlab compile` -------------------------===//
//
// Reads a model, runs dispatch creation under one heuristic variant and
// prints what it formed: stats JSON, dispatch IR, a Graphviz graph or a table.
//
//===----------------------------------------------------------------------===//

#include "tools/dispatchlab/commands/CompileCommand.h"

#include "core/analysis/CompileStats.h"
#include "core/analysis/DispatchTable.h"
#include "core/analysis/DotGraph.h"
#include "core/analysis/StatsJson.h"
#include "core/pipeline/DispatchCreationPipeline.h"
#include "core/pipeline/ModelLoader.h"
#include "core/pipeline/Registration.h"
#include "heuristics/HeuristicOptions.h"
#include "proto/ProtoJson.h"
#include "tools/dispatchlab/commands/ImportCommand.h"
#include "tools/dispatchlab/commands/RunCommand.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

#include <memory>

using namespace mlir;
namespace cl = llvm::cl;

namespace dispatchlab {

cl::SubCommand &getCompileSubcommand() {
  static cl::SubCommand command(
      "compile", "Form dispatches for a model under one heuristic variant");
  return command;
}

namespace {
cl::OptionCategory heuristicCategory("Heuristic knobs (defaults: the preset)");
cl::OptionCategory outputCategory("Output");

cl::opt<std::string> modelPath(cl::Positional,
                               cl::desc("MODEL.mlir|MODEL.onnx"), cl::Required,
                               cl::sub(getCompileSubcommand()));

cl::opt<std::string> preset(
    "preset",
    cl::desc("Starting point for every knob: iree-O0 (IREE's defaults), "
             "iree-O2 (aggressive fusion), no-fusion (one dispatch per root, "
             "no elementwise fusion: the reference variant)"),
    cl::init("iree-O0"), cl::cat(heuristicCategory),
    cl::sub(getCompileSubcommand()), cl::sub(getRunSubcommand()));

/// Every knob is a string flag parsed by HeuristicOptions::set, so the CLI,
/// sweep specs and stored provenance share one parser and one spelling:
/// one flag per line of heuristics/HeuristicKnobs.def.
std::vector<std::unique_ptr<cl::opt<std::string>>> &getKnobOptions() {
  static std::vector<std::unique_ptr<cl::opt<std::string>>> options = [] {
    std::vector<std::unique_ptr<cl::opt<std::string>>> result;
    for (const KnobDescription &knob : HeuristicOptions::describeKnobs())
      result.push_back(std::make_unique<cl::opt<std::string>>(
          llvm::StringRef(knob.key), cl::desc(knob.help),
          cl::value_desc(knob.values), cl::ValueOptional,
          cl::cat(heuristicCategory), cl::sub(getCompileSubcommand()),
          cl::sub(getRunSubcommand())));
    return result;
  }();
  return options;
}
cl::opt<bool> &getPrintOptions() {
  static cl::opt<bool> option(
      "print-options",
      cl::desc("Print the resolved options (every default filled in) and exit"),
      cl::cat(heuristicCategory), cl::sub(getCompileSubcommand()));
  return option;
}

cl::list<std::string> emitKinds(
    "emit",
    cl::desc("What to print: stats (JSON), dispatch-ir, dot, table; several "
             "allowed, comma-separated (default: table on a terminal, stats "
             "otherwise)"),
    cl::CommaSeparated, cl::cat(outputCategory),
    cl::sub(getCompileSubcommand()));

cl::opt<std::string> outputPath("o", cl::desc("Output file (default stdout)"),
                                cl::value_desc("FILE"), cl::init("-"),
                                cl::cat(outputCategory),
                                cl::sub(getCompileSubcommand()));
} // namespace

void registerCompileOptions() {
  // LLVM registers its own hidden `--print-options` for every subcommand;
  // ours (the resolved heuristic options) is what users of compile mean.
  for (cl::SubCommand *sub : cl::getRegisteredSubcommands())
    if (cl::Option *llvmOption =
            cl::getRegisteredOptions(*sub).lookup("print-options"))
      llvmOption->removeArgument();
  (void)getKnobOptions();
  (void)getPrintOptions();
}

FailureOr<HeuristicOptions> resolveHeuristicOptions(StringRef command) {
  FailureOr<HeuristicOptions> options = HeuristicOptions::fromPreset(preset);
  if (failed(options)) {
    llvm::WithColor::error(llvm::errs(), command)
        << "unknown preset '" << preset << "' (expected one of "
        << llvm::join(HeuristicOptions::presetNames(), ", ") << ")\n";
    return failure();
  }
  for (auto [knob, option] :
       llvm::zip(HeuristicOptions::describeKnobs(), getKnobOptions())) {
    if (option->getNumOccurrences() == 0)
      continue;
    if (llvm::Error error = options->set(knob.key, *option)) {
      llvm::WithColor::error(llvm::errs(), command)
          << llvm::toString(std::move(error)) << "\n";
      return failure();
    }
  }
  return options;
}

namespace {
/// The --emit kinds asked for, or the default for where stdout goes.
FailureOr<SmallVector<std::string>> resolveEmitKinds() {
  SmallVector<std::string> kinds(emitKinds.begin(), emitKinds.end());
  if (kinds.empty())
    kinds.push_back(outputPath == "-" &&
                            llvm::sys::Process::StandardOutIsDisplayed()
                        ? "table"
                        : "stats");
  for (const std::string &kind : kinds) {
    if (kind != "stats" && kind != "dispatch-ir" && kind != "dot" &&
        kind != "table") {
      llvm::WithColor::error(llvm::errs(), "dispatchlab compile")
          << "unknown --emit kind '" << kind
          << "' (expected stats, dispatch-ir, dot or table)\n";
      return failure();
    }
  }
  return kinds;
}

/// The model as IR, with a warning on every op of an unknown dialect.
OwningOpRef<ModuleOp> loadForCompile(MLIRContext &context,
                                     llvm::SourceMgr &sourceMgr,
                                     const OnnxImportOptions &importOptions) {
  OwningOpRef<ModuleOp> module =
      loadModel(modelPath, context, sourceMgr, importOptions);
  if (!module)
    return nullptr;
  module->walk([&](Operation *op) {
    if (!op->isRegistered())
      op->emitWarning() << "op '" << op->getName()
                        << "' is unknown to dispatchlab; it stays outside "
                           "dispatches";
  });
  return module;
}

void printCompileOutputs(ArrayRef<std::string> kinds, const CompileStats &stats,
                         ModuleOp module, llvm::raw_ostream &os) {
  for (const std::string &kind : kinds) {
    if (kind == "stats") {
      results::CompileStats record = toRecord(stats);
      *record.mutable_provenance() = currentProvenanceRecord();
      os << llvm::formatv("{0:2}", llvm::json::Value(protoToJson(record)))
         << "\n";
    } else if (kind == "dispatch-ir")
      os << module << "\n";
    else if (kind == "dot")
      printDispatchGraph(module, os);
    else
      printDispatchTable(stats, os);
  }
}
} // namespace

int runCompileCommand() {
  FailureOr<HeuristicOptions> options =
      resolveHeuristicOptions("dispatchlab compile");
  if (failed(options))
    return 2;
  if (getPrintOptions()) {
    llvm::outs() << "# preset: " << options->preset << "\n"
                 << options->toString();
    return 0;
  }
  FailureOr<SmallVector<std::string>> kinds = resolveEmitKinds();
  if (failed(kinds))
    return 2;

  DialectRegistry registry;
  registerDialects(registry);
  registerPasses();
  MLIRContext context(registry);
  // Ops of unknown dialects are kept (and left outside dispatches) rather
  // than rejected, so a model with one exotic op still gets analysed.
  context.allowUnregisteredDialects();
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  FailureOr<OnnxImportOptions> importOptions =
      getImportOptions("dispatchlab compile");
  if (failed(importOptions))
    return 2;
  OwningOpRef<ModuleOp> module =
      loadForCompile(context, sourceMgr, *importOptions);
  if (!module)
    return 1;
  FailureOr<DispatchCreationResult> result =
      runDispatchCreation(*module, *options);
  if (failed(result))
    return 1;

  CompileStats stats = computeCompileStats(*module);
  stats.model = modelPath;
  stats.options = options->toString();
  stats.genericBefore = result->genericBefore;
  stats.genericAfter = result->genericAfter;

  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputPath, &error);
  if (!output) {
    llvm::WithColor::error(llvm::errs(), "dispatchlab compile")
        << error << "\n";
    return 1;
  }
  printCompileOutputs(*kinds, stats, *module, output->os());
  output->keep();
  return 0;
}

} // namespace dispatchlab
