//===- RunCommand.cpp - `dispatchlab run` ---------------------------------===//
//
// The flags of `dispatchlab run` into RunOptions, one runModel call, the
// report printed, and the verdict of its output checks.
//
//===----------------------------------------------------------------------===//

#include "tools/dispatchlab/commands/RunCommand.h"

#include "tools/dispatchlab/commands/CompileCommand.h"
#include "tools/dispatchlab/commands/ImportCommand.h"
#include "tools/dispatchlab/commands/MeasurementOptions.h"

#include "core/runtime/RunReportFormat.h"
#include "core/runtime/RunSession.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace dispatchlab {

cl::SubCommand &getRunSubcommand() {
  static cl::SubCommand command(
      "run", "Compile every dispatch for the host CPU, run the model and "
             "time it, checking outputs against the no-fusion variant");
  return command;
}

namespace {
constexpr const char *kCommand = "dispatchlab run";

cl::OptionCategory runCategory("Running");

cl::opt<std::string> modelPath(cl::Positional,
                               cl::desc("MODEL.mlir|MODEL.onnx"), cl::Required,
                               cl::sub(getRunSubcommand()));
cl::list<std::string>
    inputFiles("input",
               cl::desc("Values of a model input (argument name, or argN)"),
               cl::value_desc("NAME=FILE.npy"), cl::cat(runCategory),
               cl::sub(getRunSubcommand()));
cl::list<std::string> expectedFiles(
    "expected-output",
    cl::desc("Check output NAME (resultN) against FILE.npy as well, with "
             "the same tolerance"),
    cl::value_desc("NAME=FILE.npy"), cl::cat(runCategory),
    cl::sub(getRunSubcommand()));
cl::opt<unsigned>
    repetitions("repetitions",
                cl::desc("Latency samples after the warm-up, one model call "
                         "each (Google Benchmark repetitions)"),
                cl::init(10), cl::cat(runCategory),
                cl::sub(getRunSubcommand()));
cl::opt<double>
    tolerance("tolerance",
              cl::desc("Largest accepted max|out - ref| / max|ref| per output "
                       "(a floor: a model computing in f16 or bf16 gets the "
                       "larger bound its roundings allow)"),
              cl::init(1e-4), cl::cat(runCategory),
              cl::sub(getRunSubcommand()));
cl::opt<std::string> outputDir("output-dir",
                               cl::desc("Write each output as NAME.npy here"),
                               cl::value_desc("DIR"), cl::cat(runCategory),
                               cl::sub(getRunSubcommand()));
cl::opt<std::string> codegenMode(
    "codegen",
    cl::desc("tiled (tile, fuse and vectorize each dispatch) or loops "
             "(scalar loops per op; what the reference always uses)"),
    cl::init("tiled"), cl::cat(runCategory), cl::sub(getRunSubcommand()));
cl::opt<bool> profileDispatches(
    "profile-dispatches",
    cl::desc("Also time each dispatch call: a second build of the model with "
             "a clock read around every dispatch call, called --repetitions "
             "times after a warm-up (latency stays uninstrumented)"),
    cl::init(false), cl::cat(runCategory), cl::sub(getRunSubcommand()));

llvm::raw_ostream &error() {
  return llvm::WithColor::error(llvm::errs(), kCommand);
}

/// Splits NAME=FILE.npy flags and reads the files.
std::optional<std::map<std::string, HostArray>>
readNamedArrays(const cl::list<std::string> &flags, llvm::StringRef flag) {
  std::map<std::string, HostArray> arrays;
  for (const std::string &text : flags) {
    auto [name, path] = llvm::StringRef(text).split('=');
    if (name.empty() || path.empty()) {
      error() << "--" << flag << " expects NAME=FILE.npy, got '" << text
              << "'\n";
      return std::nullopt;
    }
    llvm::Expected<HostArray> array = readNpy(path);
    if (!array) {
      error() << llvm::toString(array.takeError()) << "\n";
      return std::nullopt;
    }
    arrays[name.str()] = std::move(*array);
  }
  return arrays;
}

/// The flags that need more than their parser's check; exit 2 otherwise.
std::optional<CodegenMode> validateFlags() {
  if (codegenMode != "tiled" && codegenMode != "loops") {
    error() << "unknown --codegen '" << codegenMode
            << "' (expected tiled or loops)\n";
    return std::nullopt;
  }
  if (repetitions == 0) {
    error() << "--repetitions must be at least 1\n";
    return std::nullopt;
  }
  return codegenMode == "tiled" ? CodegenMode::Tiled : CodegenMode::Loops;
}

/// Writes each output as NAME.npy into --output-dir.
bool writeOutputs(const RunReport &report) {
  if (std::error_code ec = llvm::sys::fs::create_directories(outputDir)) {
    error() << outputDir << ": " << ec.message() << "\n";
    return false;
  }
  for (auto [index, output] : llvm::enumerate(report.variant.model.outputs)) {
    llvm::SmallString<128> path(outputDir);
    llvm::sys::path::append(path, output.name + ".npy");
    if (llvm::Error failure = writeNpy(path, report.outputs[index])) {
      error() << llvm::toString(std::move(failure)) << "\n";
      return false;
    }
  }
  return true;
}

/// 0 when every check passed, else 1 after saying by how much one failed.
int reportVerdict(const RunReport &report) {
  for (const OutputCheck &check : report.checks) {
    if (check.passed())
      continue;
    if (check.difference.nonFinite > 0)
      error() << llvm::formatv(
          "output {0} has {1} NaN or infinite value(s) here or in {2}\n",
          check.name, check.difference.nonFinite, check.against);
    else
      error() << llvm::formatv(
          "output {0} differs from {1} by {2:e2} relative (max |a-b| = "
          "{3:e2}, max |ref| = {4:e2}; tolerance {5:e2})\n",
          check.name, check.against, check.difference.relative,
          check.difference.maxAbsDiff, check.difference.maxAbsReference,
          check.tolerance);
    return 1;
  }
  return 0;
}

/// The run's failure on stderr: exit 2 for an option naming what the model
/// lacks, 1 otherwise.
int reportFailure(llvm::Error failure) {
  int code = 1;
  llvm::handleAllErrors(std::move(failure), [&](const llvm::StringError &e) {
    if (e.convertToErrorCode() == std::errc::invalid_argument)
      code = 2;
    if (!e.getMessage().empty())
      error() << e.getMessage() << "\n";
  });
  return code;
}
} // namespace

int runRunCommand() {
  RunOptions options;
  FailureOr<HeuristicOptions> heuristics = resolveHeuristicOptions(kCommand);
  if (failed(heuristics))
    return 2;
  FailureOr<OnnxImportOptions> import = getImportOptions(kCommand);
  if (failed(import))
    return 2;
  std::optional<std::string> kind = readEmitKind(kCommand);
  std::optional<CodegenMode> mode = validateFlags();
  if (!kind || !mode || !readMeasurementFlags(kCommand, options))
    return 2;
  std::optional<std::map<std::string, HostArray>> files =
      readNamedArrays(inputFiles, "input");
  std::optional<std::map<std::string, HostArray>> expected =
      readNamedArrays(expectedFiles, "expected-output");
  if (!files || !expected)
    return 1;

  options.modelPath = modelPath;
  options.heuristics = std::move(*heuristics);
  options.import = std::move(*import);
  options.codegen.mode = *mode;
  options.inputs = std::move(*files);
  options.expectedOutputs = std::move(*expected);
  options.repetitions = repetitions;
  options.tolerance = tolerance;
  options.profileDispatches = profileDispatches;
  auto warn = [](const llvm::Twine &message) {
    llvm::WithColor::warning(llvm::errs(), kCommand) << message << "\n";
  };
  options.warn = warn;

  llvm::Expected<RunReport> report = runModel(options);
  if (!report)
    return reportFailure(report.takeError());
  if (!outputDir.empty() && !writeOutputs(*report))
    return 1;
  if (*kind == "table")
    printTable(options, *report, llvm::outs());
  else
    llvm::outs() << llvm::formatv("{0:2}", toJson(options, *report)) << "\n";
  // The report first, then the verdict, also when both go to one pipe.
  llvm::outs().flush();
  return reportVerdict(*report);
}

} // namespace dispatchlab
