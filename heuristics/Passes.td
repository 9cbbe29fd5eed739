//===- Passes.td - dispatchlab heuristic passes -------------*- tablegen -*-===//

#ifndef DISPATCHLAB_HEURISTICS_PASSES_TD
#define DISPATCHLAB_HEURISTICS_PASSES_TD

include "mlir/Pass/PassBase.td"

// Options shared by every pass whose decisions IREE gates on the same flags.
defvar FusionKnobs = [
  Option<"aggressiveFusion", "aggressive-fusion", "bool", "false",
         "IREE's aggressive fusion: producers through ins, every consumer, "
         "no raw loop-count or conv buffer-reuse rule">,
  Option<"fuseMultiUseProducers", "fuse-multi-use-producers", "bool", "true",
         "Allow producers with more than one use to join a group">,
  Option<"fusePadWithConsumers", "fuse-pad-with-consumers", "bool", "false",
         "Fuse tensor.pad into convolution consumers">,
  Option<"fusePadWithProducers", "fuse-pad-with-producers", "bool", "false",
         "Fuse a LinalgOp producer into its tensor.pad consumer">,
  Option<"deferTruncates", "defer-truncates", "bool", "true",
         "IREE's truncate ordering: truncates only join consumer groups in "
         "the last producer pass">,
  Option<"dispatchFusion", "dispatch-fusion", "bool", "true",
         "Fuse producers and consumers into root groups at all (off: one "
         "dispatch per root)">,
  Option<"maxOperands", "max-operands", "unsigned", "16",
         "Operand + result limit of one dispatch (kIreeMaxOperandCount)">,
  Option<"inlineConstantBytes", "inline-constant-bytes", "int64_t", "256",
         "Largest dense constant cloned into dispatches">
];

def FormDispatchRegionsPass
    : InterfacePass<"dispatchlab-form-dispatch-regions",
                    "mlir::FunctionOpInterface"> {
  let summary = "Group root ops with their producers and consumers into "
                "dispatch.region ops";
  let description = [{
    Mirrors IREE's DispatchCreation FormDispatchRegions: roots are chosen in a
    reverse sweep, grow upwards (producer fusion, truncates deferred), then
    downwards in program order (consumer fusion), then upwards again with
    truncates allowed; a fallback sweep does the same for left-over Linalg,
    pad and pack ops. Each group becomes one `dispatch.region`.
  }];
  let dependentDialects = ["::dispatchlab::dispatch::DispatchDialect"];
  let options = FusionKnobs;
}

def CloneProducersIntoDispatchRegionsPass
    : InterfacePass<"dispatchlab-clone-producers-into-dispatch-regions",
                    "mlir::FunctionOpInterface"> {
  let summary = "Clone cheap producers (fills, empties, small constants, "
                "bit-extends, slices) into the dispatches that use them";
  let description = [{
    Mirrors IREE's CloneProducersIntoDispatchRegions, including its
    wrapping of every `linalg.generic` still outside a dispatch into a
    dispatch of its own.
  }];
  let dependentDialects = ["::dispatchlab::dispatch::DispatchDialect"];
  let options = [
    Option<"aggressiveFusion", "aggressive-fusion", "bool", "false",
           "Aggressive cloneability (LinalgExt-only cases upstream)">,
    Option<"inlineConstantBytes", "inline-constant-bytes", "int64_t", "256",
           "Largest dense constant cloned into dispatches">
  ];
}

#endif // DISPATCHLAB_HEURISTICS_PASSES_TD
