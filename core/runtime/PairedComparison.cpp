//===- PairedComparison.cpp - variants of one model timed in rounds -------===//

#include "core/runtime/PairedComparison.h"

#include "core/codegen/HostJit.h"
#include "core/support/HostMemory.h"
#include "core/support/HostPinning.h"
#include "core/support/Statistics.h"
#include "core/support/Timing.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>
#include <thread>

namespace dispatchlab {

namespace {
/// A variant's object linked once more (CompareOptions::copies): its code
/// at other addresses, with its own packed weights and outputs, sharing the
/// variant's other inputs.
struct LinkedCopy {
  CompiledModel model;
  /// The variant's arrays, but its own packed ones (into `packed`).
  std::vector<HostArray *> inputs;
  std::vector<HostArray> packed;
  std::vector<HostArray> outputs;
  std::optional<PreparedCall> call;
};

/// One variant compiled, its inputs made and its call prepared.
struct Contender {
  RunReport report;
  /// Its inputs' arrays: the baseline's where it takes the same input (one
  /// copy of the weights for all variants), else its own in report.inputs.
  std::vector<HostArray *> inputs;
  /// The variant whose compiled code was linked again for it (the A/A copy).
  std::optional<std::string> relinkedFrom;
  std::optional<PreparedCall> call;
  /// Its links beyond the first, when timed.
  std::vector<LinkedCopy> copies;
};

/// What one timed call of a round runs: a variant's first link (copy 0)
/// or one of its copies.
struct Slot {
  size_t variant = 0, copy = 0;
};

PreparedCall &callOf(std::vector<Contender> &contenders, Slot slot) {
  Contender &contender = contenders[slot.variant];
  return slot.copy ? *contender.copies[slot.copy - 1].call : *contender.call;
}

/// Rounds between two looks at the intervals: each look sorts every
/// variant's ratios.
constexpr unsigned kRoundsBetweenChecks = 10;

constexpr llvm::StringLiteral kSelfCheckSuffix = " (A/A)";

/// The unpaired interval sorts every pair of samples: bounded so that it
/// stays a few megabytes.
constexpr unsigned kMostSequentialSamples = 1000;

std::string identityOf(const CompileStats &stats) {
  std::string identity = llvm::formatv("{0} dispatches, {1} transient bytes;",
                                       stats.dispatches, stats.transientBytes);
  for (const DispatchGroupStats &group : stats.groups)
    identity += llvm::formatv(" {0}:{1}:{2}", group.executableHash,
                              group.numOperands, group.numResults);
  return identity;
}

/// A failure of the first variant is the model's (its diagnostics name the
/// file); one of a later variant is that variant's options'.
llvm::Error variantError(const ComparedVariantOptions &variant,
                         llvm::Error error, bool first) {
  std::string message = llvm::toString(std::move(error));
  if (message.empty() && first)
    return llvm::createStringError("");
  return llvm::createStringError(
      "variant '" + variant.name + "'" +
      (message.empty() ? " failed to compile" : ": " + message));
}

/// Whether the input at `index` of `model` is the one `baseline` takes
/// there, so that one array serves both.
bool sameInput(const CompiledModel &model, const CompiledModel &baseline,
               size_t index) {
  if (index >= baseline.inputs.size())
    return false;
  const TensorSignature &input = model.inputs[index];
  const TensorSignature &other = baseline.inputs[index];
  return !input.packedResult && !other.packedResult &&
         input.name == other.name && input.type == other.type &&
         input.shape == other.shape;
}

/// Points `contender`'s inputs at the baseline's arrays and gives it its
/// own (zeroed, for its initializer to fill) packed ones. Variants of one
/// model take the same inputs and weights, made from the same seeds, so
/// this changes no value; one that does not gets all its own.
llvm::Error shareInputs(const RunOptions &run, const Contender &baseline,
                        const ParameterData *parameters, Contender &contender) {
  const CompiledModel &model = contender.report.variant.model;
  const CompiledModel &base = baseline.report.variant.model;
  ModelInputs &own = contender.report.inputs;
  bool shares = true;
  for (size_t i = 0; i < model.inputs.size(); ++i)
    shares &= model.inputs[i].packedResult || sameInput(model, base, i);
  if (!shares) {
    llvm::Expected<ModelInputs> inputs =
        makeInputs(model, run.inputs, parameters, run.seed);
    if (!inputs)
      return inputs.takeError();
    own = std::move(*inputs);
    for (HostArray &array : own.arrays)
      contender.inputs.push_back(&array);
    return llvm::Error::success();
  }
  // Empty arrays stand in for the shared ones, so that indices match.
  for (auto [index, input] : llvm::enumerate(model.inputs)) {
    bool packed = input.packedResult.has_value();
    own.arrays.push_back(packed ? HostArray(input.type, input.shape)
                                : HostArray());
    own.sources.push_back(packed ? InputSource::Packed
                                 : baseline.report.inputs.sources[index]);
  }
  for (size_t i = 0; i < model.inputs.size(); ++i)
    contender.inputs.push_back(sameInput(model, base, i) ? baseline.inputs[i]
                                                         : &own.arrays[i]);
  return llvm::Error::success();
}

/// The first variant compiled with its inputs made; a later one compiled,
/// sharing the first one's inputs.
llvm::Expected<Contender>
prepareContender(const CompareOptions &options,
                 const ComparedVariantOptions &variant,
                 const ParameterData *parameters, const Contender *baseline) {
  RunOptions run = options.run;
  run.heuristics = variant.heuristics;
  llvm::Expected<RunReport> report =
      baseline ? compileRun(run) : prepareRun(run, parameters);
  if (!report)
    return variantError(variant, report.takeError(), !baseline);
  Contender contender{std::move(*report), {}, std::nullopt, std::nullopt};
  if (!baseline) {
    for (HostArray &array : contender.report.inputs.arrays)
      contender.inputs.push_back(&array);
    return contender;
  }
  auto start = std::chrono::steady_clock::now();
  if (llvm::Error error = shareInputs(run, *baseline, parameters, contender))
    return variantError(variant, std::move(error), false);
  contender.report.phases.inputs = secondsSince(start);
  return contender;
}

/// The baseline's A/A copy: its object linked again, at other addresses,
/// as compiling it again would give (the same object, from the cache or
/// not), without the MLIR pipeline and LLVM.
llvm::Expected<Contender> relinkContender(const RunOptions &run,
                                          const Contender &baseline,
                                          const ComparedVariantOptions &copy,
                                          const ComparedVariantOptions &from) {
  auto start = std::chrono::steady_clock::now();
  CompiledModel model = baseline.report.variant.model;
  llvm::Expected<std::unique_ptr<HostJit>> engine = model.engine->relink();
  if (!engine)
    return variantError(copy, engine.takeError(), false);
  model.engine = std::move(*engine);
  Contender contender;
  contender.report.variant.model = std::move(model);
  contender.report.variant.stats = baseline.report.variant.stats;
  contender.report.phases.compile = secondsSince(start);
  contender.relinkedFrom = from.name;
  start = std::chrono::steady_clock::now();
  if (llvm::Error error = shareInputs(run, baseline, nullptr, contender))
    return variantError(copy, std::move(error), false);
  contender.report.phases.inputs = secondsSince(start);
  return contender;
}

/// Links each timed variant's object `copies - 1` more times.
llvm::Error linkCopies(unsigned copies, std::vector<Contender> &contenders,
                       std::vector<ComparedVariant> &variants) {
  for (auto [contender, variant] : llvm::zip(contenders, variants)) {
    if (variant.identicalTo)
      continue;
    auto start = std::chrono::steady_clock::now();
    const CompiledModel &model = contender.report.variant.model;
    // Reserved: each copy's inputs point into its own `packed`.
    contender.copies.reserve(copies - 1);
    for (unsigned copy = 1; copy < copies; ++copy) {
      llvm::Expected<std::unique_ptr<HostJit>> engine = model.engine->relink();
      if (!engine)
        return llvm::createStringError(
            "variant '" + variant.name +
            "': linking a copy failed: " + llvm::toString(engine.takeError()));
      LinkedCopy &linked = contender.copies.emplace_back();
      linked.model = model;
      linked.model.engine = std::move(*engine);
      linked.inputs = contender.inputs;
      linked.packed.reserve(model.inputs.size());
      for (auto [index, input] : llvm::enumerate(model.inputs))
        if (input.packedResult)
          linked.inputs[index] =
              &linked.packed.emplace_back(input.type, input.shape);
    }
    variant.compileSeconds += secondsSince(start);
  }
  return llvm::Error::success();
}

/// Prepares `call` (running the initializer) and calls it until
/// `warmupSeconds` of its calls have passed (once at least).
llvm::Error warmUpCall(const CompiledModel &model,
                       llvm::ArrayRef<HostArray *> inputs,
                       std::vector<HostArray> &outputs,
                       std::optional<PreparedCall> &call,
                       llvm::StringRef variant, double warmupSeconds) {
  llvm::Expected<PreparedCall> prepared =
      PreparedCall::create(model, inputs, outputs);
  if (!prepared)
    return llvm::createStringError(
        "variant '" + variant +
        "': calling the model failed: " + llvm::toString(prepared.takeError()));
  call.emplace(std::move(*prepared));
  auto start = std::chrono::steady_clock::now();
  do
    (*call)();
  while (secondsSince(start) < warmupSeconds);
  return llvm::Error::success();
}

/// Warms up every timed variant and each of its copies.
llvm::Error warmUp(std::vector<Contender> &contenders,
                   llvm::ArrayRef<ComparedVariant> variants,
                   double warmupSeconds) {
  for (auto [contender, variant] : llvm::zip(contenders, variants)) {
    if (variant.identicalTo)
      continue;
    if (llvm::Error error =
            warmUpCall(contender.report.variant.model, contender.inputs,
                       contender.report.outputs, contender.call, variant.name,
                       warmupSeconds))
      return error;
    for (LinkedCopy &copy : contender.copies)
      if (llvm::Error error =
              warmUpCall(copy.model, copy.inputs, copy.outputs, copy.call,
                         variant.name, warmupSeconds))
        return error;
  }
  return llvm::Error::success();
}

/// Calls per sample so that the fastest variant's sample lasts
/// `minSampleSeconds` (CompareOptions).
unsigned chooseCallsPerSample(std::vector<Contender> &contenders,
                              llvm::ArrayRef<size_t> timed,
                              double minSampleSeconds) {
  double fastest = INFINITY;
  for (size_t index : timed)
    for (int i = 0; i < 5; ++i) {
      auto start = std::chrono::steady_clock::now();
      (*contenders[index].call)();
      fastest = std::min(fastest, secondsSince(start));
    }
  double calls = std::ceil(minSampleSeconds / std::max(fastest, 1e-9));
  return unsigned(std::clamp(calls, 1.0, 10000.0));
}

/// The calls to time this round, every copy of every timed variant, in a
/// fresh shuffled order.
std::vector<Slot> roundOrder(llvm::ArrayRef<size_t> timed, unsigned copies,
                             std::mt19937_64 &engine) {
  std::vector<Slot> order;
  for (size_t variant : timed)
    for (size_t copy = 0; copy < copies; ++copy)
      order.push_back({variant, copy});
  std::shuffle(order.begin(), order.end(), engine);
  return order;
}

/// Recomputes every timed variant's ratio; true when all are within the
/// target half-width.
bool updateRatios(std::vector<ComparedVariant> &variants,
                  llvm::ArrayRef<size_t> timed, double targetPercent) {
  bool narrow = true;
  const ComparedVariant &baseline = variants.front();
  for (size_t index : timed) {
    if (index == 0)
      continue;
    ComparedVariant &variant = variants[index];
    variant.ratio =
        baseline.copySamplesSeconds.empty()
            ? comparePaired(baseline.samplesSeconds, variant.samplesSeconds)
            : compareCopies(baseline.copySamplesSeconds,
                            variant.copySamplesSeconds);
    narrow &=
        variant.ratio && variant.ratio->halfWidthPercent() <= targetPercent;
  }
  return narrow;
}

/// CPU-bound threads sharing the measured CPUs from start() until they are
/// destroyed: drift injected on purpose (CompareOptions::injectDrift).
/// Several of them, so that the measured thread's share of its CPU drops
/// severalfold even on a host whose other load already takes part of it.
class Competitor {
public:
  Competitor(bool enabled, std::vector<int> cpus)
      : enabled(enabled), cpus(std::move(cpus)) {}
  Competitor(const Competitor &) = delete;
  ~Competitor() {
    done = true;
    for (std::thread &thread : threads)
      thread.join();
  }
  void start() {
    if (!enabled || !threads.empty())
      return;
    for (int i = 0; i < kCompetitorThreads; ++i)
      threads.emplace_back([this] {
        // Unpinned, it would run on another core and inject nothing.
        if (llvm::Error error = pinToCpus(cpus, /*wholeProcess=*/false))
          llvm::consumeError(std::move(error));
        volatile uint64_t spins = 0;
        while (!done.load(std::memory_order_relaxed))
          spins = spins + 1;
      });
  }

private:
  static constexpr int kCompetitorThreads = 3;
  bool enabled;
  std::vector<int> cpus;
  std::atomic<bool> done = false;
  std::vector<std::thread> threads;
};

/// One sample of a variant: the mean of `calls` consecutive calls.
double timeSample(PreparedCall &call, unsigned calls) {
  auto start = std::chrono::steady_clock::now();
  for (unsigned i = 0; i < calls; ++i)
    call();
  return secondsSince(start) / calls;
}

/// The unpaired comparison separate jobs get: ratio of medians, the
/// interval inverting the U test, and its p-value.
std::optional<PairedRatio> compareUnpaired(llvm::ArrayRef<double> baseline,
                                           llvm::ArrayRef<double> variant) {
  LatencyComparison comparison = compareLatency(baseline, variant);
  std::optional<double> a = median(baseline), b = median(variant);
  if (!comparison.interval || !comparison.test || !a || !b || !(*a > 0))
    return std::nullopt;
  return PairedRatio{int64_t(variant.size()), *b / *a, comparison.interval->low,
                     comparison.interval->high, comparison.test->pValue};
}

/// Each variant timed alone, one after the other, as separate RUN jobs
/// are: what the paired rounds are compared against.
void measureSequentially(const CompareOptions &options,
                         std::vector<Contender> &contenders,
                         ComparisonReport &report,
                         llvm::ArrayRef<size_t> timed) {
  double share = options.budgetSeconds / double(timed.size());
  unsigned most = std::min(options.maxRounds, kMostSequentialSamples);
  auto start = std::chrono::steady_clock::now();
  report.stop = RoundsStop::MaxRounds;
  Competitor competitor(options.injectDrift, report.pinnedCpus);
  for (size_t index : timed) {
    if (index == timed[timed.size() / 2])
      competitor.start();
    std::vector<double> &samples = report.variants[index].samplesSeconds;
    auto blockStart = std::chrono::steady_clock::now();
    while (samples.size() < most && (samples.size() < options.minRounds ||
                                     secondsSince(blockStart) < share))
      samples.push_back(
          timeSample(*contenders[index].call, report.callsPerSample));
    if (samples.size() < most)
      report.stop = RoundsStop::Budget;
  }
  report.rounds = int64_t(report.variants.front().samplesSeconds.size());
  report.roundsSeconds = secondsSince(start);
  for (size_t index : llvm::drop_begin(timed))
    report.variants[index].ratio =
        compareUnpaired(report.variants.front().samplesSeconds,
                        report.variants[index].samplesSeconds);
}

/// Calls the timed variants round after round until a stop applies.
void measureRounds(const CompareOptions &options,
                   std::vector<Contender> &contenders, ComparisonReport &report,
                   llvm::ArrayRef<size_t> timed) {
  std::mt19937_64 engine(options.orderSeed);
  auto start = std::chrono::steady_clock::now();
  Competitor competitor(options.injectDrift, report.pinnedCpus);
  for (unsigned round = 1;; ++round) {
    if (round > options.minRounds / 2)
      competitor.start();
    for (Slot slot : roundOrder(timed, report.copies, engine)) {
      ComparedVariant &variant = report.variants[slot.variant];
      double sample =
          timeSample(callOf(contenders, slot), report.callsPerSample);
      if (report.copies == 1)
        variant.samplesSeconds.push_back(sample);
      else
        variant.copySamplesSeconds[slot.copy].push_back(sample);
    }
    report.rounds = round;
    report.roundsSeconds = secondsSince(start);
    bool look = round >= options.minRounds && round % kRoundsBetweenChecks == 0;
    if (look && updateRatios(report.variants, timed, options.targetCiPercent)) {
      report.stop = RoundsStop::Target;
      return;
    }
    // The budget never cuts below the minimum: too few rounds give no
    // interval at all.
    bool spent = report.roundsSeconds >= options.budgetSeconds;
    if (round >= options.minRounds && (round >= options.maxRounds || spent)) {
      updateRatios(report.variants, timed, options.targetCiPercent);
      report.stop = spent ? RoundsStop::Budget : RoundsStop::MaxRounds;
      return;
    }
  }
}

/// The largest relative difference of `outputs` from the baseline's.
double outputDifference(const std::vector<HostArray> &outputs,
                        const std::vector<HostArray> &baseline) {
  double worst = 0;
  for (auto [actual, expected] : llvm::zip(outputs, baseline))
    worst = std::max(worst, compareArrays(actual, expected).relative);
  return outputs.size() == baseline.size() ? worst : INFINITY;
}

/// Where `contender`'s compile time went and what memory it holds.
void recordCosts(const Contender &contender, ComparedVariant &variant) {
  variant.relinkedFrom = contender.relinkedFrom;
  variant.compileSeconds = contender.report.phases.compile;
  if (!contender.relinkedFrom) {
    const CompiledVariant &compiled = contender.report.variant;
    variant.importSeconds = compiled.importSeconds;
    variant.formationSeconds =
        compiled.preprocessingSeconds + compiled.formationSeconds;
    variant.codegenSeconds = compiled.model.codegenSeconds;
    variant.jitSeconds = compiled.model.jitSeconds;
  }
  variant.inputsSeconds = contender.report.phases.inputs;
  for (const HostArray &array : contender.report.inputs.arrays)
    variant.inputBytes += int64_t(array.data.size());
}

/// Names, options and identities. The A/A copy runs the baseline's code
/// (linked again) but is timed all the same: that is what it is for.
std::vector<ComparedVariant>
describeVariants(const CompareOptions &options,
                 llvm::ArrayRef<Contender> contenders) {
  std::vector<ComparedVariant> variants;
  for (auto [variantOptions, contender] :
       llvm::zip(options.variants, contenders)) {
    ComparedVariant variant;
    variant.name = variantOptions.name;
    variant.options = variantOptions.heuristics.toString();
    variant.dispatchesIdentity = identityOf(contender.report.variant.stats);
    variant.dispatches = contender.report.variant.stats.dispatches;
    variant.codeCache = codeCacheUse(contender.report);
    recordCosts(contender, variant);
    auto earlier = llvm::find_if(variants, [&](const ComparedVariant &other) {
      return other.dispatchesIdentity == variant.dispatchesIdentity;
    });
    if (earlier != variants.end() && !isSelfCheck(variant))
      variant.identicalTo = earlier->name;
    variants.push_back(std::move(variant));
  }
  return variants;
}

/// Pins, checks the load, warms up, times the rounds and summarizes.
llvm::Expected<ComparisonReport> measureAll(const CompareOptions &options,
                                            std::vector<Contender> &contenders,
                                            ComparisonReport report) {
  retainFreedMemory();
  llvm::Expected<std::vector<int>> pinned =
      pinForThreads(options.run.codegen.threads);
  if (!pinned)
    return llvm::createStringError("pinning failed: " +
                                   llvm::toString(pinned.takeError()));
  report.pinnedCpus = std::move(*pinned);
  int cpu = report.pinnedCpus.empty() ? 0 : report.pinnedCpus.front();
  report.before = readHostConditions(cpu);
  if (llvm::Error error = checkHostLoad(report.before, options.maxLoad))
    return std::move(error);
  std::vector<size_t> timed;
  for (size_t i = 0; i < report.variants.size(); ++i)
    if (!report.variants[i].identicalTo)
      timed.push_back(i);
  if (report.copies > 1)
    for (size_t index : timed)
      report.variants[index].copySamplesSeconds.resize(report.copies);
  if (llvm::Error error =
          warmUp(contenders, report.variants, options.run.warmupSeconds))
    return std::move(error);
  report.callsPerSample =
      chooseCallsPerSample(contenders, timed, options.minSampleSeconds);
  if (options.schedule == Schedule::Sequential)
    measureSequentially(options, contenders, report, timed);
  else
    measureRounds(options, contenders, report, timed);
  report.after = readHostConditions(cpu);
  const std::vector<HostArray> &baseline = contenders.front().report.outputs;
  for (size_t index : timed) {
    ComparedVariant &variant = report.variants[index];
    if (report.copies > 1)
      variant.samplesSeconds = geomeanPerRound(variant.copySamplesSeconds);
    variant.stats = summarizeLatencies(variant.samplesSeconds);
    variant.outputDifference =
        outputDifference(contenders[index].report.outputs, baseline);
    for (const LinkedCopy &copy : contenders[index].copies)
      variant.outputDifference = std::max(
          variant.outputDifference, outputDifference(copy.outputs, baseline));
  }
  return report;
}
} // namespace

llvm::StringRef stringify(Schedule schedule) {
  return schedule == Schedule::Interleaved ? "interleaved" : "sequential";
}

std::string methodOf(Schedule schedule, unsigned copies) {
  if (schedule == Schedule::Sequential)
    return "each variant timed alone, one after the other: Mann-Whitney U "
           "test, the interval inverting it, ratio of medians";
  if (copies == 1)
    return "paired rounds in shuffled order: Wilcoxon signed-rank test on "
           "the log ratios, sign-test interval of the median ratio";
  return llvm::formatv(
      "paired rounds in shuffled order, each variant linked {0} times: per "
      "copy the median over rounds of its time over the baseline copies' "
      "geometric mean, then Mann-Whitney U test across copies, the "
      "interval inverting it, Hodges-Lehmann ratio",
      copies);
}

llvm::StringRef stringify(RoundsStop stop) {
  switch (stop) {
  case RoundsStop::Target:
    return "target";
  case RoundsStop::Budget:
    return "budget";
  case RoundsStop::MaxRounds:
    return "max-rounds";
  }
  llvm_unreachable("unknown stop");
}

bool isSelfCheck(const ComparedVariant &variant) {
  return llvm::StringRef(variant.name).ends_with(kSelfCheckSuffix);
}

std::optional<PairedRatio> noiseFloor(const ComparisonReport &report) {
  for (const ComparedVariant &variant : report.variants)
    if (isSelfCheck(variant))
      return variant.ratio;
  return std::nullopt;
}

llvm::StringRef verdict(const ComparedVariant &variant,
                        const std::optional<PairedRatio> &floor,
                        double minEffect) {
  if (variant.identicalTo)
    return "identical";
  if (!variant.ratio)
    return "baseline";
  return judgeRatio(
      *variant.ratio,
      noiseBand(minEffect, isSelfCheck(variant) ? std::nullopt : floor));
}

llvm::Expected<ComparisonReport>
compareVariants(const CompareOptions &options) {
  if (options.variants.empty())
    return llvm::createStringError("no variant to compare");
  if (options.copies == 0 ||
      (options.copies > 1 && (options.copies < kMinCopies ||
                              options.schedule != Schedule::Interleaved)))
    return llvm::createStringError(llvm::formatv(
        "{0} copies: give 1, or at least {1} with the interleaved schedule",
        options.copies, kMinCopies));
  llvm::Expected<std::optional<ParameterData>> parameters =
      openWeights(options.run);
  if (!parameters)
    return parameters.takeError();
  const ParameterData *weights = *parameters ? &**parameters : nullptr;
  std::vector<Contender> contenders;
  CompareOptions expanded = options;
  if (options.selfCheck)
    expanded.variants.insert(
        expanded.variants.begin() + 1,
        {options.variants.front().name + kSelfCheckSuffix.str(),
         options.variants.front().heuristics});
  // Reserved: later contenders point into the first one's inputs.
  contenders.reserve(expanded.variants.size());
  for (auto [index, variant] : llvm::enumerate(expanded.variants)) {
    const Contender *baseline = index ? &contenders.front() : nullptr;
    llvm::Expected<Contender> contender =
        options.selfCheck && index == 1
            ? relinkContender(options.run, *baseline, variant,
                              expanded.variants.front())
            : prepareContender(expanded, variant, weights, baseline);
    if (!contender)
      return contender.takeError();
    contenders.push_back(std::move(*contender));
  }

  ComparisonReport report;
  report.orderSeed = options.orderSeed;
  report.copies = options.copies;
  report.variants = describeVariants(expanded, contenders);
  if (llvm::Error error =
          linkCopies(options.copies, contenders, report.variants))
    return std::move(error);
  report.compiles = llvm::count_if(
      contenders, [](const Contender &c) { return !c.relinkedFrom; });
  return measureAll(expanded, contenders, std::move(report));
}

} // namespace dispatchlab
