//===- SweepExpander.h - a sweep spec as jobs with content keys -*- C++ -*-===//
//
// Turns a valid spec into its jobs: every model crossed with every variant
// (the explicit ones, then the cartesian product of the axes; the COMPARE
// variants together as one job per model), each with
// options resolved to the canonical HeuristicOptions text and a content key
// that names the result it produces.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_COORDINATOR_SWEEPEXPANDER_H
#define DISPATCHLAB_COORDINATOR_SWEEPEXPANDER_H

#include "proto/sweep.pb.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace dispatchlab {

/// What results are computed under besides the job itself: a result is only
/// reused by the same build and, for run jobs, on the same class of CPU.
struct KeyContext {
  std::string dispatchlabCommit;
  std::string llvmVersion;
  /// The CPU class (LLVM host CPU name) run jobs are measured on unless the
  /// spec names one: the coordinator's.
  std::string cpuClass;

  /// This process and host.
  static KeyContext current();
};

struct ModelContent {
  std::string name;
  std::string extension;
  std::string content;
};

struct ResolvedVariant {
  std::string name;
  sweep::JobKind kind;
  std::string preset;
  /// HeuristicOptions::toString().
  std::string options;
};

struct ExpandedJob {
  std::string modelName;
  std::string modelHash;
  ResolvedVariant variant;
  sweep::Measurement measurement;
  std::string contentKey;
  /// Only workers of this class may run the job; empty: any worker.
  std::string cpuClass;
};

/// Lower-case hex SHA-256.
std::string sha256Hex(llvm::StringRef bytes);

/// The measurement with every unset field at its default.
sweep::Measurement withDefaults(const sweep::Measurement &measurement);

/// Canonical text of a measurement (what keys hash).
std::string toString(const sweep::Measurement &measurement);

/// The spec's variants in order: explicit ones, then one per point of the
/// axes' product, named "knob=value,knob=value". Fails when a knob does not
/// resolve or two variants have the same kind and options (they would be one
/// job).
llvm::Expected<std::vector<ResolvedVariant>>
resolveVariants(const sweep::SweepSpec &spec);

/// The CPU class a job must run on: the spec's or else the context's for run
/// jobs, whose latency depends on the CPU; empty (any) for other kinds.
std::string jobCpuClass(sweep::JobKind kind,
                        const sweep::Measurement &measurement,
                        const KeyContext &context);

/// The variants of kind COMPARE, in spec order except that the baseline
/// (`spec.baseline`, default the first) is first; an unknown baseline is an
/// error naming the variants.
llvm::Expected<std::vector<ResolvedVariant>>
comparedVariants(const sweep::SweepSpec &spec,
                 llvm::ArrayRef<ResolvedVariant> variants);

/// The one job of a model timing `compared` (baseline first) against each
/// other: named "compare: A | B", its options formatComparedVariants'.
ResolvedVariant comparisonJob(llvm::ArrayRef<ResolvedVariant> compared);

/// Hash of everything that determines a job's result (the CPU class only
/// where jobCpuClass names one).
std::string contentKey(llvm::StringRef modelHash,
                       const ResolvedVariant &variant,
                       const sweep::Measurement &measurement,
                       const KeyContext &context);

/// Every job of `spec`, models in spec order, each crossed with every
/// variant, except that a model's COMPARE variants are one job (last). `models`
/// holds the content of `spec.models()`, same order.
llvm::Expected<std::vector<ExpandedJob>>
expandSweep(const sweep::SweepSpec &spec, llvm::ArrayRef<ModelContent> models,
            const KeyContext &context);

} // namespace dispatchlab

#endif // DISPATCHLAB_COORDINATOR_SWEEPEXPANDER_H
