//===- PairedComparison.h - variants of one model timed in rounds -*- C++ -*-//
//
// The way to ask "is B faster than A": one process compiles every variant
// of a model, pins itself, and measures in rounds. Each round calls every
// variant once, in an order shuffled per round from a recorded seed, so
// that drift on the host (a competitor, a frequency change) lands on all
// variants of a round alike and the per-round ratio cancels it. Rounds are
// added until every ratio's 95% interval is narrow enough or the time
// budget is spent. A variant whose dispatches are byte-identical to an
// earlier one's is not measured again; an A/A pair (the baseline against
// itself) measures the noise floor of the host.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_RUNTIME_PAIREDCOMPARISON_H
#define DISPATCHLAB_CORE_RUNTIME_PAIREDCOMPARISON_H

#include "core/runtime/RunSession.h"
#include "core/support/HostConditions.h"
#include "core/support/PairedStatistics.h"

#include <optional>
#include <string>
#include <vector>

namespace dispatchlab {

struct ComparedVariantOptions {
  std::string name;
  HeuristicOptions heuristics;
};

/// How the variants' calls are ordered: in rounds, each round calling every
/// variant once (the comparison), or each variant's samples in one block
/// after the other's, as separate RUN jobs measure them (what it is tested
/// against).
enum class Schedule { Interleaved, Sequential };
llvm::StringRef stringify(Schedule schedule);
/// The statistics a schedule's ratios come from, in words, with `copies`
/// links of each variant (CompareOptions::copies).
std::string methodOf(Schedule schedule, unsigned copies);

struct CompareOptions {
  /// Model, inputs, weights, codegen and warm-up; its heuristics are unused.
  RunOptions run;
  /// The first is the baseline every ratio is taken against.
  std::vector<ComparedVariantOptions> variants;
  /// Also time the baseline against itself (a variant named "NAME (A/A)").
  bool selfCheck = false;
  Schedule schedule = Schedule::Interleaved;
  /// Start CPU-bound threads on the measured CPUs half way through: after
  /// minRounds / 2 rounds, or before the second half of the sequential
  /// blocks. What the schedules are tested with.
  bool injectDrift = false;
  unsigned minRounds = kDefaultMinRounds;
  unsigned maxRounds = 5000;
  /// Stop once every interval's half-width is at most this, in percent.
  double targetCiPercent = 1;
  /// Stop adding rounds after this many seconds of rounds.
  double budgetSeconds = 10;
  uint64_t orderSeed = 1;
  /// Links of each timed variant's object, each timed in every round: one
  /// link is one draw of where the code lands, which moves a short call by
  /// a few percent on some hosts (docs/compare.md). Above 1 (4 at least:
  /// fewer give no 95% interval), the ratio is judged across the copies.
  unsigned copies = 1;
  /// Differences smaller than this fraction are "within noise" (verdict).
  double minEffect = 0.01;
  /// Refuse to measure above this one-minute load average (negative: never).
  double maxLoad = -1;
  /// Calls are batched until one sample of the fastest variant lasts this
  /// long: a call of a few hundred nanoseconds is otherwise mostly the
  /// clock's own cost, and a sample shorter than a scheduler slice misses a
  /// competitor on its CPU more often than not.
  double minSampleSeconds = 20e-6;
};

/// Why the rounds stopped.
enum class RoundsStop { Target, Budget, MaxRounds };
llvm::StringRef stringify(RoundsStop stop);

struct ComparedVariant {
  std::string name;
  /// HeuristicOptions::toString.
  std::string options;
  /// What identifies its compiled dispatches (their executables' hashes in
  /// call order, with their operand and result counts).
  std::string dispatchesIdentity;
  int64_t dispatches = 0;
  /// An earlier variant with identical dispatches: this one is not timed.
  std::optional<std::string> identicalTo;
  /// Seconds of one call per round (the mean of the round's calls; with
  /// several copies, the geometric mean of theirs), in round order; empty
  /// when identical.
  std::vector<double> samplesSeconds;
  /// With several copies (CompareOptions::copies), each copy's samples in
  /// round order; empty otherwise.
  std::vector<std::vector<double>> copySamplesSeconds;
  LatencyStats stats;
  /// Against the baseline's samples of the same rounds (not the baseline's
  /// own, nor an identical variant's); with several copies, across copies
  /// (compareCopies).
  std::optional<PairedRatio> ratio;
  /// max|out - baseline out| / max|baseline out| over the outputs.
  double outputDifference = 0;
  /// Whether its compiled code came from --cache-dir.
  CacheUse codeCache = CacheUse::Off;
  /// The variant whose compiled code was linked again for this one instead
  /// of compiling it (the A/A copy: the baseline).
  std::optional<std::string> relinkedFrom;
  /// Wall seconds compiling it (or linking it again) and linking its
  /// copies, and making its inputs (only its packed ones when it shares the
  /// baseline's).
  double compileSeconds = 0;
  /// Of compileSeconds: importing, forming dispatches, the MLIR codegen
  /// pipeline and LLVM (with linking); 0 when linked again.
  double importSeconds = 0, formationSeconds = 0, codegenSeconds = 0,
         jitSeconds = 0;
  double inputsSeconds = 0;
  /// Bytes of the input arrays it holds itself: all for the baseline, its
  /// packed weights for a later variant, which shares the baseline's others.
  int64_t inputBytes = 0;
};

struct ComparisonReport {
  std::vector<ComparedVariant> variants;
  /// Variants compiled through MLIR and LLVM (or the object cache); the
  /// A/A copy is linked again instead.
  int64_t compiles = 0;
  int64_t rounds = 0;
  /// Each sample times this many consecutive calls of one variant and
  /// records their mean: enough that the fastest variant's sample is not
  /// dominated by reading the clock.
  unsigned callsPerSample = 1;
  /// Links of each timed variant (CompareOptions::copies).
  unsigned copies = 1;
  uint64_t orderSeed = 0;
  RoundsStop stop = RoundsStop::MaxRounds;
  double roundsSeconds = 0;
  std::vector<int> pinnedCpus;
  HostConditions before, after;
};

/// Compiles and measures `options.variants`; an error names the variant.
llvm::Expected<ComparisonReport> compareVariants(const CompareOptions &options);

/// Whether `variant` is the baseline's A/A copy.
bool isSelfCheck(const ComparedVariant &variant);

/// The A/A variant's ratio when the report has one.
std::optional<PairedRatio> noiseFloor(const ComparisonReport &report);

/// The verdict on `variant`'s ratio. A difference counts only beyond a
/// band around 1: `minEffect` (a fraction; LNT, likewise, ignores changes
/// under 1%), widened to the reach of the A/A interval `floor` when one was
/// timed. "faster"/"slower": p < 0.05 and the whole interval beyond the
/// band; "within noise": the median inside the band; else "no significant
/// difference". "identical" for an untimed variant, "baseline" for the
/// first. The A/A copy is judged by `minEffect` alone, not by the floor it
/// defines: "faster" or "slower" there says the host cannot resolve
/// differences of that size.
llvm::StringRef verdict(const ComparedVariant &variant,
                        const std::optional<PairedRatio> &floor,
                        double minEffect);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_RUNTIME_PAIREDCOMPARISON_H
