//===- MeasurementOptions.cpp - flags `run` and `compare` share -----------===//

#include "tools/dispatchlab/commands/MeasurementOptions.h"

#include "tools/dispatchlab/commands/CompareCommand.h"
#include "tools/dispatchlab/commands/RunCommand.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"

namespace cl = llvm::cl;

namespace dispatchlab {

namespace {
cl::OptionCategory measurementCategory("Measuring");

cl::opt<std::string> parameterMode(
    "parameters",
    cl::desc("Weights of an ONNX model: model (the initializers of the file; "
             "an error when stripped) or random (seeded like inputs)"),
    cl::init("model"), cl::cat(measurementCategory),
    cl::sub(getRunSubcommand()), cl::sub(getCompareSubcommand()));
cl::opt<uint64_t> seed("seed",
                       cl::desc("Seed of the pseudo-random inputs; input N "
                                "uses SEED+N"),
                       cl::init(0), cl::cat(measurementCategory),
                       cl::sub(getRunSubcommand()),
                       cl::sub(getCompareSubcommand()));
cl::opt<double> warmupSeconds(
    "warmup-seconds",
    cl::desc("Untimed calls before the samples: at least one, and until this "
             "many seconds have passed"),
    cl::init(0.1), cl::cat(measurementCategory), cl::sub(getRunSubcommand()),
    cl::sub(getCompareSubcommand()));
cl::opt<unsigned>
    threads("threads",
            cl::desc("Threads that the tiles of each dispatch are spread over "
                     "(dispatches run in order)"),
            cl::init(1), cl::cat(measurementCategory),
            cl::sub(getRunSubcommand()), cl::sub(getCompareSubcommand()));
cl::opt<std::string> cacheDir(
    "cache-dir",
    cl::desc("Keep the reference's outputs and the compiled code here, and "
             "reuse them when another variant or run has the same model, "
             "options and inputs (off when not given)"),
    cl::value_desc("DIR"), cl::cat(measurementCategory),
    cl::sub(getRunSubcommand()), cl::sub(getCompareSubcommand()));
cl::opt<uint64_t> cacheMaxMb(
    "cache-max-mb",
    cl::desc("Bound of --cache-dir: the least recently used entries go when "
             "it holds more (0: unbounded)"),
    cl::init(1024), cl::cat(measurementCategory), cl::sub(getRunSubcommand()),
    cl::sub(getCompareSubcommand()));
cl::opt<std::string>
    emitKind("emit",
             cl::desc("json (one object) or table (default on a terminal)"),
             cl::cat(measurementCategory), cl::sub(getRunSubcommand()),
             cl::sub(getCompareSubcommand()));

llvm::raw_ostream &error(llvm::StringRef command) {
  return llvm::WithColor::error(llvm::errs(), command);
}
} // namespace

bool readMeasurementFlags(llvm::StringRef command, RunOptions &options) {
  if (parameterMode != "model" && parameterMode != "random") {
    error(command) << "unknown --parameters '" << parameterMode
                   << "' (expected model or random)\n";
    return false;
  }
  if (!(warmupSeconds >= 0)) {
    error(command) << "--warmup-seconds must be a number >= 0, got "
                   << warmupSeconds.getValue() << "\n";
    return false;
  }
  if (threads == 0) {
    error(command) << "--threads must be at least 1\n";
    return false;
  }
  options.modelWeights = parameterMode == "model";
  options.seed = seed;
  options.warmupSeconds = warmupSeconds;
  options.codegen.threads = threads;
  options.cacheDirectory = cacheDir;
  options.cacheMaxBytes = cacheMaxMb * 1024 * 1024;
  return true;
}

std::optional<std::string> readEmitKind(llvm::StringRef command) {
  std::string kind = emitKind;
  if (kind.empty())
    kind = llvm::sys::Process::StandardOutIsDisplayed() ? "table" : "json";
  if (kind != "json" && kind != "table") {
    error(command) << "unknown --emit kind '" << kind
                   << "' (expected json or table)\n";
    return std::nullopt;
  }
  return kind;
}

} // namespace dispatchlab
