//===- CompareCommand.cpp - `dispatchlab compare` -------------------------===//

#include "tools/dispatchlab/commands/CompareCommand.h"

#include "tools/dispatchlab/commands/ImportCommand.h"
#include "tools/dispatchlab/commands/MeasurementOptions.h"

#include "core/runtime/ComparisonReportFormat.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/WithColor.h"

namespace cl = llvm::cl;

namespace dispatchlab {

cl::SubCommand &getCompareSubcommand() {
  static cl::SubCommand command(
      "compare", "Time variants of one model against each other in "
                 "interleaved rounds and report paired ratios to the first");
  return command;
}

namespace {
constexpr const char *kCommand = "dispatchlab compare";

cl::OptionCategory compareCategory("Comparing");

cl::opt<std::string> modelPath(cl::Positional,
                               cl::desc("MODEL.mlir|MODEL.onnx"), cl::Required,
                               cl::sub(getCompareSubcommand()));
cl::list<std::string> variantFlags(
    "variant",
    cl::desc("A variant: a preset, or NAME=PRESET[,KNOB=VALUE...]; the first "
             "is the baseline"),
    cl::value_desc("NAME=PRESET,KNOB=VALUE"), cl::cat(compareCategory),
    cl::sub(getCompareSubcommand()));
/// The flags' defaults are CompareOptions' own, so they are defined once.
const CompareOptions kDefaults{};

cl::list<std::string> variantNames(
    "variant-name",
    cl::desc("The names of the --variant flags, in their order, instead of "
             "the names they give: for names holding ',' or '=' (sweeps' "
             "axis variants)"),
    cl::value_desc("NAME"), cl::cat(compareCategory),
    cl::sub(getCompareSubcommand()));
cl::opt<bool> selfCheck(
    "aa",
    cl::desc("Also time the baseline against a second copy of itself: the "
             "host's noise floor, and 'within noise' verdicts"),
    cl::init(kDefaults.selfCheck), cl::cat(compareCategory),
    cl::sub(getCompareSubcommand()));
cl::opt<Schedule> schedule(
    "schedule", cl::desc("How the variants' calls are ordered"),
    cl::values(clEnumValN(Schedule::Interleaved, "interleaved",
                          "in rounds calling every variant once, in a "
                          "shuffled order: paired ratios (default)"),
               clEnumValN(Schedule::Sequential, "sequential",
                          "each variant's samples after the other's, as "
                          "separate RUN jobs: unpaired statistics")),
    cl::init(kDefaults.schedule), cl::cat(compareCategory),
    cl::sub(getCompareSubcommand()));
cl::opt<bool> injectDrift(
    "inject-drift",
    cl::desc("Start CPU-bound threads on the measured CPU half way through "
             "(after --min-rounds/2 rounds, or before the second half of the "
             "sequential blocks): shows what drift does to each schedule"),
    cl::init(kDefaults.injectDrift), cl::cat(compareCategory),
    cl::sub(getCompareSubcommand()));
cl::opt<unsigned> minRounds("min-rounds",
                            cl::desc("Rounds before the first stop (>= 6)"),
                            cl::init(kDefaults.minRounds),
                            cl::cat(compareCategory),
                            cl::sub(getCompareSubcommand()));
cl::opt<unsigned> maxRounds("max-rounds", cl::desc("Rounds at most"),
                            cl::init(kDefaults.maxRounds),
                            cl::cat(compareCategory),
                            cl::sub(getCompareSubcommand()));
cl::opt<double> targetCiPercent(
    "target-ci-percent",
    cl::desc("Stop once every ratio's 95% interval is within +-this percent"),
    cl::init(kDefaults.targetCiPercent), cl::cat(compareCategory),
    cl::sub(getCompareSubcommand()));
cl::opt<double> budgetSeconds("budget-seconds",
                              cl::desc("Stop adding rounds after this long"),
                              cl::init(kDefaults.budgetSeconds),
                              cl::cat(compareCategory),
                              cl::sub(getCompareSubcommand()));
cl::opt<double> minEffectPercent(
    "min-effect-percent",
    cl::desc("Differences under this many percent are 'within noise' (the "
             "A/A interval widens the band when --aa is given)"),
    cl::init(kDefaults.minEffect * 100), cl::cat(compareCategory),
    cl::sub(getCompareSubcommand()));
cl::opt<uint64_t> orderSeed("order-seed",
                            cl::desc("Seed of each round's shuffled order"),
                            cl::init(kDefaults.orderSeed),
                            cl::cat(compareCategory),
                            cl::sub(getCompareSubcommand()));
cl::opt<unsigned> copies(
    "copies",
    cl::desc("Link each variant's object this many times and time every copy "
             "in each round: one link is one draw of where the code lands, "
             "and the ratio is then judged across the draws (1, or at least "
             "4)"),
    cl::init(kDefaults.copies), cl::cat(compareCategory),
    cl::sub(getCompareSubcommand()));
cl::opt<double> minSampleMs(
    "min-sample-ms",
    cl::desc("Batch calls until one sample of the fastest variant lasts this "
             "many milliseconds"),
    cl::init(kDefaults.minSampleSeconds * 1000), cl::cat(compareCategory),
    cl::sub(getCompareSubcommand()));
cl::opt<double>
    maxLoad("max-load",
            cl::desc("Refuse to measure above this one-minute load average "
                     "(negative: no limit)"),
            cl::init(kDefaults.maxLoad), cl::cat(compareCategory),
            cl::sub(getCompareSubcommand()));

llvm::raw_ostream &error() {
  return llvm::WithColor::error(llvm::errs(), kCommand);
}

/// NAME=PRESET[,KNOB=VALUE...], or a bare preset naming itself.
llvm::Expected<ComparedVariantOptions> parseVariant(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, ',');
  auto [name, preset] = parts.front().split('=');
  if (!parts.front().contains('='))
    preset = name;
  std::vector<std::pair<std::string, std::string>> overrides;
  for (llvm::StringRef part : llvm::drop_begin(parts)) {
    auto [key, value] = part.split('=');
    overrides.emplace_back(key.trim().str(), value.trim().str());
  }
  llvm::Expected<HeuristicOptions> options =
      HeuristicOptions::resolve(preset.trim(), overrides);
  if (!options)
    return llvm::createStringError("--variant '" + text.str() +
                                   "': " + llvm::toString(options.takeError()));
  return ComparedVariantOptions{name.trim().str(), std::move(*options)};
}

/// The options of every flag; nothing after saying why.
std::optional<CompareOptions> readOptions() {
  CompareOptions options;
  if (!variantNames.empty() && variantNames.size() != variantFlags.size()) {
    error() << variantNames.size() << " --variant-name flag(s) for "
            << variantFlags.size() << " --variant flag(s)\n";
    return std::nullopt;
  }
  for (auto [index, flag] : llvm::enumerate(variantFlags)) {
    llvm::Expected<ComparedVariantOptions> variant = parseVariant(flag);
    if (!variant) {
      error() << llvm::toString(variant.takeError()) << "\n";
      return std::nullopt;
    }
    if (!variantNames.empty())
      variant->name = variantNames[index];
    for (const ComparedVariantOptions &earlier : options.variants)
      if (earlier.name == variant->name) {
        error() << "two variants are named '" << variant->name << "'\n";
        return std::nullopt;
      }
    options.variants.push_back(std::move(*variant));
  }
  if (options.variants.size() + selfCheck < 2) {
    error() << "nothing to compare: give two --variant flags, or one and "
               "--aa\n";
    return std::nullopt;
  }
  if (minRounds < 6 || maxRounds < minRounds || !(targetCiPercent > 0) ||
      !(budgetSeconds >= 0) || !(minEffectPercent >= 0) ||
      !(minSampleMs >= 0)) {
    error() << "--min-rounds must be at least 6 and at most --max-rounds, "
               "--target-ci-percent positive, --budget-seconds, "
               "--min-effect-percent and --min-sample-ms not negative\n";
    return std::nullopt;
  }
  if (!readMeasurementFlags(kCommand, options.run))
    return std::nullopt;
  options.selfCheck = selfCheck;
  options.schedule = schedule;
  options.injectDrift = injectDrift;
  options.minRounds = minRounds;
  options.maxRounds = maxRounds;
  options.targetCiPercent = targetCiPercent;
  options.budgetSeconds = budgetSeconds;
  options.orderSeed = orderSeed;
  options.copies = copies;
  options.minEffect = minEffectPercent / 100;
  options.maxLoad = maxLoad;
  options.minSampleSeconds = minSampleMs / 1000;
  return options;
}
} // namespace

int runCompareCommand() {
  std::optional<CompareOptions> options = readOptions();
  if (!options)
    return 2;
  mlir::FailureOr<OnnxImportOptions> import = getImportOptions(kCommand);
  if (mlir::failed(import))
    return 2;
  std::optional<std::string> kind = readEmitKind(kCommand);
  if (!kind)
    return 2;
  options->run.modelPath = modelPath;
  options->run.import = std::move(*import);

  llvm::Expected<ComparisonReport> report = compareVariants(*options);
  if (!report) {
    std::string message = llvm::toString(report.takeError());
    if (!message.empty())
      error() << modelPath << ": " << message << "\n";
    return 1;
  }
  if (*kind == "table")
    printTable(*options, *report, llvm::outs());
  else
    llvm::outs() << llvm::formatv("{0:2}", toJson(*options, *report)) << "\n";
  return 0;
}

} // namespace dispatchlab
