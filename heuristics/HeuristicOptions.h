//===- HeuristicOptions.h - every knob of dispatch formation ----*- C++ -*-===//
//
// One struct holds every heuristic knob a sweep can vary, each defined once
// in HeuristicKnobs.def. Its canonical text form (`toString`) is stable:
// keys sorted, every default resolved, so it can be hashed and stored as
// provenance. This library needs no MLIR library: the coordinator expands
// and hashes variants with it.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_HEURISTICS_HEURISTICOPTIONS_H
#define DISPATCHLAB_HEURISTICS_HEURISTICOPTIONS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <utility>

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
  /// IREE's ElementwiseOpFusion control function (fuseElementwiseOpsControlFn).
  Iree,
  /// Seed 003's elementwise-fusion history: IREE's whole FusionOfTensorOps
  /// (control function and reshape folding) before PR #8723 (f0f64ca23), the
  /// PR's first version (fuses lower-dimensional producers, recomputing
  /// them) and the one that landed.
  Pr8723Base,
  Pr8723V1,
  Pr8723V2,
  /// Upstream `linalg::populateElementwiseOpsFusionPatterns` accepting every
  /// pair upstream deems legal.
  Upstream,
  /// No elementwise fusion at all.
  Off,
};

/// The modes that run IREE's 2022 pass (FusionOfTensorOpsPr8723) in place of
/// today's fusion and reshape propagation.
inline bool isPr8723Mode(ElementwiseFusionMode mode) {
  return mode == ElementwiseFusionMode::Pr8723Base ||
         mode == ElementwiseFusionMode::Pr8723V1 ||
         mode == ElementwiseFusionMode::Pr8723V2;
}

/// Whose rules group ops into dispatches.
enum class DispatchFormation {
  /// IREE's FormDispatchRegions at the spec's commit.
  Iree,
  /// IREE's DispatchLinalgOnTensors of mid-2022, the formation behind seed
  /// 003's PR #8723 tables.
  Pr8723,
};

/// How much of the DispatchCreation pipeline runs.
enum class PipelineMode {
  /// Preprocessing, formation, cloning, leftover wrapping and copy dispatches.
  Full,
  /// IREE's GlobalOptimization steps that change dispatch counts, then Full.
  Iree,
  /// FormDispatchRegions + CloneProducersIntoDispatchRegions on the IR as
  /// written (what IREE's own lit tests exercise).
  Formation,
};

/// Which of IREE's data-tiling routes runs (encodings on contractions).
enum class DataTilingMode {
  /// No encodings (IREE's default).
  None,
  /// IREE's experimental DT-fusion route of DispatchCreation
  /// (--iree-dispatch-creation-experimental-data-tiling): encodings are set
  /// inside the dispatches formed without them, then hoisted out.
  Fusion,
  /// IREE's late route of GlobalOptimization (--iree-global-opt-data-tiling):
  /// encodings are set before dispatch creation and materialized for the
  /// host there, so dispatches are formed on packs, mmt4ds and unpacks.
  Late,
};

/// Which contractions IREE's DemoteContractionInputs demotes
/// (--iree-global-opt-demote-contraction-inputs-operations).
enum class DemoteContractionOps {
  /// Named matmul-like ops and 2-D convolutions.
  All,
  /// 2-D convolutions only.
  Conv,
  /// Named matmul-like ops only.
  Matmul,
  /// None (IREE's default).
  None,
};

/// The type DemoteContractionInputs truncates to
/// (--iree-global-opt-demote-contraction-inputs-type; IREE's flag has no
/// initializer, so f16, its first value, is the default).
enum class DemoteContractionType { F16, BF16 };

/// The spellings of each enum knob's values, in the order help lists them.
template <typename Enum>
using KnobNames = llvm::ArrayRef<std::pair<llvm::StringLiteral, Enum>>;
KnobNames<TruncateOrdering> getKnobNames(TruncateOrdering);
KnobNames<ElementwiseFusionMode> getKnobNames(ElementwiseFusionMode);
KnobNames<DispatchFormation> getKnobNames(DispatchFormation);
KnobNames<PipelineMode> getKnobNames(PipelineMode);
KnobNames<DataTilingMode> getKnobNames(DataTilingMode);
KnobNames<DemoteContractionOps> getKnobNames(DemoteContractionOps);
KnobNames<DemoteContractionType> getKnobNames(DemoteContractionType);

/// What a knob's flag shows: its key, the values it takes, its help.
struct KnobDescription {
  llvm::StringLiteral key;
  std::string values;
  llvm::StringLiteral help;
};

struct HeuristicOptions {
  /// The preset the options started from (for display; the knobs below are
  /// what counts).
  std::string preset = "iree-O0";

#define HEURISTIC_KNOB(FIELD, KEY, TYPE, DEFAULT, HELP) TYPE FIELD = DEFAULT;
#include "heuristics/HeuristicKnobs.def"

  /// Options of a named preset: `iree-O0` (IREE defaults), `iree-O2`
  /// (aggressive fusion on), `no-fusion` (each root its own dispatch, no
  /// elementwise fusion: the reference variant).
  static mlir::FailureOr<HeuristicOptions> fromPreset(llvm::StringRef name);

  /// The options of `preset` (iree-O0 when empty) with `overrides` (key,
  /// value) set in order; the error names the preset or the knob.
  static llvm::Expected<HeuristicOptions>
  resolve(llvm::StringRef preset,
          llvm::ArrayRef<std::pair<std::string, std::string>> overrides);

  /// Names accepted by `fromPreset`.
  static llvm::ArrayRef<llvm::StringRef> presetNames();

  /// Every knob, in HeuristicKnobs.def's order.
  static llvm::ArrayRef<KnobDescription> describeKnobs();

  /// Sets one knob from its key and text value (empty: true for a bool).
  /// Errors name the key and the accepted values.
  llvm::Error set(llvm::StringRef key, llvm::StringRef value);

  /// Sets every `key=value` of a pass option string ("a=1 b=false").
  llvm::Error setAll(llvm::StringRef assignments);

  /// setAll for Pass::initializeOptions of a pass whose options are knobs:
  /// an error goes to `errorHandler`.
  mlir::LogicalResult
  parsePassOptions(llvm::StringRef text,
                   llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)>
                       errorHandler);

  /// Canonical `key=value` lines, sorted by key, every knob present.
  std::string toString() const;

  bool operator==(const HeuristicOptions &other) const {
    return toString() == other.toString();
  }
};

llvm::StringRef stringify(TruncateOrdering v);
llvm::StringRef stringify(ElementwiseFusionMode v);
llvm::StringRef stringify(DispatchFormation v);
llvm::StringRef stringify(PipelineMode v);
llvm::StringRef stringify(DataTilingMode v);
llvm::StringRef stringify(DemoteContractionOps v);
llvm::StringRef stringify(DemoteContractionType v);

} // namespace dispatchlab

#endif // DISPATCHLAB_HEURISTICS_HEURISTICOPTIONS_H
