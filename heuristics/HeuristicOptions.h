//===- HeuristicOptions.h - every knob of dispatch formation ----*- C++ -*-===//
//
// One struct holds every heuristic knob a sweep can vary. Its canonical text
// form (`toString`) is stable: keys sorted, every default resolved, so it can
// be hashed and stored as provenance.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_HEURISTICS_HEURISTICOPTIONS_H
#define DISPATCHLAB_HEURISTICS_HEURISTICOPTIONS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace dispatchlab {

/// When a bit-truncating generic may join the group of the op consuming it.
enum class TruncateOrdering {
  /// IREE: only in the final producer pass, after consumer fusion had a chance
  /// to put the truncate with the op computing the wide value.
  Deferred,
  /// Truncates are ordinary producers in every producer pass.
  Eager,
};

/// Which control function drives elementwise op fusion before formation.
enum class ElementwiseFusionMode {
  /// IREE's ElementwiseOpFusion control function (spec section 6.1).
  Iree,
  /// Upstream `linalg::populateElementwiseOpsFusionPatterns` accepting every
  /// pair upstream deems legal.
  Upstream,
  /// No elementwise fusion at all.
  Off,
};

/// How much of the DispatchCreation pipeline runs.
enum class PipelineMode {
  /// Preprocessing, formation, cloning, leftover wrapping and copy dispatches.
  Full,
  /// FormDispatchRegions + CloneProducersIntoDispatchRegions on the IR as
  /// written (what IREE's own lit tests exercise).
  Formation,
};

struct HeuristicOptions {
  /// The preset the options started from (for display; the knobs below are
  /// what counts).
  std::string preset = "iree-O0";
  PipelineMode pipeline = PipelineMode::Full;

  // FormDispatchRegions knobs.
  bool aggressiveFusion = false;
  bool fuseMultiUse = true;
  TruncateOrdering truncateOrdering = TruncateOrdering::Deferred;
  bool fusePadWithConsumers = false;
  bool fusePadWithProducers = false;
  bool dispatchFusion = true;
  unsigned maxOperands = 16;
  int64_t inlineConstantBytes = 256;

  // Preprocessing knobs.
  bool padHandling = false;
  bool horizontalContractions = false;
  bool earlyTruncFusion = false;
  ElementwiseFusionMode elementwiseFusion = ElementwiseFusionMode::Iree;

  /// Options of a named preset: `iree-O0` (IREE defaults), `iree-O2`
  /// (aggressive fusion on), `no-fusion` (each root its own dispatch, no
  /// elementwise fusion: the reference variant).
  static mlir::FailureOr<HeuristicOptions> fromPreset(llvm::StringRef name);

  /// Names accepted by `fromPreset`.
  static llvm::ArrayRef<llvm::StringRef> presetNames();

  /// Sets one knob from its flag name (without dashes) and text value.
  /// Errors name the key and the accepted values.
  mlir::LogicalResult set(llvm::StringRef key, llvm::StringRef value,
                          std::string &error);

  /// Canonical `key=value` lines, sorted by key, every knob present.
  std::string toString() const;

  /// Text of the FormDispatchRegions pass options for these knobs.
  std::string formationPassOptions() const;

  bool operator==(const HeuristicOptions &other) const {
    return toString() == other.toString();
  }
};

llvm::StringRef stringify(TruncateOrdering v);
llvm::StringRef stringify(ElementwiseFusionMode v);
llvm::StringRef stringify(PipelineMode v);

} // namespace dispatchlab

#endif // DISPATCHLAB_HEURISTICS_HEURISTICOPTIONS_H
