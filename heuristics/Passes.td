//===- Passes.td - dispatchlab heuristic passes -------------*- tablegen -*-===//

#ifndef DISPATCHLAB_HEURISTICS_PASSES_TD
#define DISPATCHLAB_HEURISTICS_PASSES_TD

include "mlir/Pass/PassBase.td"

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

    Its options are the knobs of HeuristicOptions (heuristics/
    HeuristicKnobs.def) with their spellings there: aggressive-fusion,
    fuse-multi-use, truncate-ordering, fuse-pad-with-consumers,
    fuse-pad-with-producers, dispatch-formation, dispatch-fusion, max-operands,
    inline-constant-bytes; createFormDispatchRegionsPass(options) takes them
    typed.
  }];
  let dependentDialects = ["::dispatchlab::dispatch::DispatchDialect"];
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

    Its options are the HeuristicOptions knobs it reads, spelled as in
    heuristics/HeuristicKnobs.def: aggressive-fusion (aggressive
    cloneability, LinalgExt-only cases upstream) and inline-constant-bytes.
  }];
  let dependentDialects = ["::dispatchlab::dispatch::DispatchDialect"];
}

//===----------------------------------------------------------------------===//
// DispatchCreation passes around FormDispatchRegions (IREE's Passes.cpp)
//===----------------------------------------------------------------------===//

def TensorPadToTensorInsertSlicePass
    : InterfacePass<"dispatchlab-tensor-pad-to-tensor-insert-slice",
                    "mlir::FunctionOpInterface"> {
  let summary = "Rewrite constant-value tensor.pad outside dispatches into "
                "tensor.empty + linalg.fill + tensor.insert_slice";
  let description = [{
    Mirrors IREE's TensorPadToTensorInsertSlice. The fill becomes a splat
    (no dispatch) and the insert_slice can fuse into the producer's dispatch
    (isFusableWithConsumer's insert_slice rule).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"skipOneLinalgUseCase", "skip-one-linalg-use-case", "bool",
           "false",
           "Keep pads whose only use is a LinalgOp (IREE's "
           "fuse-padding-into-linalg-consumer-ops)">
  ];
}

def GeneralizeNamedOpsPass
    : InterfacePass<"dispatchlab-generalize-named-ops",
                    "mlir::FunctionOpInterface"> {
  let summary = "Convert tensor-level elementwise ops to linalg and "
                "generalize IREE's list of named Linalg ops";
  let description = [{
    Mirrors IREE's GlobalOptimization GeneralizeLinalgNamedOps plus upstream
    convert-elementwise-to-linalg. `linalg.fill` is never
    generalized; contractions only with `generalize-matmul`.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
  let options = [
    Option<"generalizeMatmul", "generalize-matmul", "bool", "false",
           "Also generalize contractions (--iree-opt-generalize-matmul)">,
    Option<"convertElementwise", "convert-elementwise", "bool", "true",
           "First rewrite elementwise ops on ranked tensors (arith, math) "
           "into linalg.generic, as convert-elementwise-to-linalg does">
  ];
}

def ElementwiseOpFusionPass
    : InterfacePass<"dispatchlab-elementwise-op-fusion",
                    "mlir::FunctionOpInterface"> {
  let summary = "Fuse producer/consumer linalg.generic pairs with upstream "
                "elementwise fusion under IREE's control function";
  let description = [{
    Mirrors IREE's DispatchCreation ElementwiseOpFusion. With
    `mode=upstream` every pair that upstream `areElementwiseOpsFusable`
    accepts is fused (only the dispatch-boundary check stays). The
    knob's `pr8723-*` values run dispatchlab-fusion-of-tensor-ops-pr8723.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect"];
  let options = [
    Option<"mode", "mode", "::dispatchlab::ElementwiseFusionMode",
           "::dispatchlab::ElementwiseFusionMode::Iree",
           "Control function (the elementwise-fusion knob)",
           [{::llvm::cl::values(
             clEnumValN(::dispatchlab::ElementwiseFusionMode::Iree, "iree",
                        "IREE's rules"),
             clEnumValN(::dispatchlab::ElementwiseFusionMode::Upstream,
                        "upstream", "everything upstream deems legal"))}]>,
    Option<"fuseMultiReduction", "fuse-multi-reduction", "bool", "true",
           "Fuse into consumers with more than one reduction loop">,
    Option<"fuseTruncateOps", "fuse-truncate-ops", "bool", "false",
           "Fuse bit-truncate producers into any consumer "
           "(--iree-dispatch-creation-enable-early-trunc-fusion)">,
    Option<"fuseBroadcastOps", "fuse-broadcast-ops", "bool", "false",
           "Fuse producers into pure broadcast consumers">,
    Option<"maxOperands", "max-operands", "unsigned", "16",
           "Reject a fusion whose distinct operand values reach this count">,
    Option<"intraDispatch", "intra-dispatch", "bool", "false",
           "Fuse only ops inside one dispatch.region (default: only ops "
           "outside dispatches)">
  ];
}

def FusionOfTensorOpsPr8723Pass
    : InterfacePass<"dispatchlab-fusion-of-tensor-ops-pr8723",
                    "mlir::FunctionOpInterface"> {
  let summary = "IREE's FusionOfTensorOps around PR #8723: elementwise fusion "
                "and reshape folding under that time's control functions";
  let description = [{
    Mirrors IREE's Flow FusionOfTensorOps before PR #8723 (seed 003's base)
    and after it (the PR's first version and the one that landed): each mode
    has its elementwise-fusion control function and its rules for folding
    reshapes into generics (by expansion, by linearizing unit dims into the
    indexing maps, by collapsing).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect"];
  let options = [
    Option<"mode", "mode", "::dispatchlab::ElementwiseFusionMode",
           "::dispatchlab::ElementwiseFusionMode::Pr8723V2",
           "Which version of the pass (the elementwise-fusion knob)",
           [{::llvm::cl::values(
             clEnumValN(::dispatchlab::ElementwiseFusionMode::Pr8723Base,
                        "pr8723-base", "IREE before PR #8723 (f0f64ca23)"),
             clEnumValN(::dispatchlab::ElementwiseFusionMode::Pr8723V1,
                        "pr8723-v1", "PR #8723, first version"),
             clEnumValN(::dispatchlab::ElementwiseFusionMode::Pr8723V2,
                        "pr8723-v2", "PR #8723 as landed"))}]>,
    Option<"maxOperands", "max-operands", "unsigned", "32",
           "Reject a fusion whose distinct operand values reach this count "
           "(IREE's binding limit of the time)">
  ];
}

def FuseMultiUseElementwiseProducerPass
    : InterfacePass<"dispatchlab-fuse-multi-use-elementwise-producer",
                    "mlir::FunctionOpInterface"> {
  let summary = "Fuse multi-use elementwise producers into a consumer that "
                "yields the producer's value for its other users";
  let description = [{
    Mirrors IREE's FuseMultiUseElementwiseProducer.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
  let options = [
    Option<"numIterations", "num-iterations", "unsigned", "2",
           "Rounds of fusion (IREE uses 32 in the intra-dispatch instance)">,
    Option<"intraDispatch", "intra-dispatch", "bool", "false",
           "Fuse only ops inside one dispatch.region (default: only ops "
           "outside dispatches)">
  ];
}

def FormScalarDispatchesPass
    : InterfacePass<"dispatchlab-form-scalar-dispatches",
                    "mlir::FunctionOpInterface"> {
  let summary = "Wrap scalar (at most one element) compute in dispatches";
  let description = [{
    Mirrors IREE's FormScalarDispatches. Created regions carry
    `dispatchlab.kind = "scalar"`.
  }];
  let dependentDialects = ["::dispatchlab::dispatch::DispatchDialect"];
}

def FormCopyDispatchesPass
    : InterfacePass<"dispatchlab-form-copy-dispatches",
                    "mlir::FunctionOpInterface"> {
  let summary = "Give every top-level non-contiguous slice its own "
                "dispatch (IREE's slow copy dispatches)";
  let description = [{
    Mirrors IREE's ConvertTensorToFlow slice handling: contiguous slices
    stay (DMA copies), the others become dispatch.region ops marked
    `dispatchlab.kind = "copy"`. Inserts go first and take their cloneable
    producers (an extract_slice among them) into their dispatch, as IREE's
    cloneProducersToRegion does; a producer left without a use is erased.
  }];
  let dependentDialects = ["::dispatchlab::dispatch::DispatchDialect"];
}

def TransposeGenericOpsPass
    : InterfacePass<"dispatchlab-transpose-generic-ops",
                    "mlir::FunctionOpInterface"> {
  let summary = "Interchange generics: parallel loops first in reductions, "
                "identity input maps on transposed elementwise reads";
  let description = [{
    Mirrors IREE's TransposeGenericOps.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def BubbleUpExpandShapesPass
    : InterfacePass<"dispatchlab-bubble-up-expand-shapes",
                    "mlir::FunctionOpInterface"> {
  let summary = "Move tensor.expand_shape ops up through linalg ops";
  let description = [{
    An upstream-pattern equivalent of IREE's BubbleUpExpandShapes.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect"];
  let options = [
    Option<"aggressiveReshapeMovement", "aggressive-reshape-movement",
           "bool", "false",
           "Also propagate reshapes across reduction ops">
  ];
}

def SinkReshapesPass
    : InterfacePass<"dispatchlab-sink-reshapes",
                    "mlir::FunctionOpInterface"> {
  let summary = "Move tensor.collapse_shape ops down into their consumers";
  let description = [{
    An upstream-pattern equivalent of IREE's SinkReshapes.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect"];
}

def FusionPreprocessingPass
    : InterfacePass<"dispatchlab-fusion-preprocessing",
                    "mlir::FunctionOpInterface"> {
  let summary = "Normalize IR before fusion: identity input maps on "
                "elementwise generics, nested fill + insert_slice folded, "
                "pads and slices folded into pack/unpack";
  let description = [{
    Mirrors IREE's DispatchCreation FusionPreprocessing.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FuseHorizontalContractionsPass
    : InterfacePass<"dispatchlab-fuse-horizontal-contractions",
                    "mlir::FunctionOpInterface"> {
  let summary = "Merge independent contractions that share their LHS into "
                "one multi-result linalg.generic";
  let description = [{
    Mirrors IREE's DispatchCreation FuseHorizontalContractions:
    the merged op is one root, so the contractions share one dispatch.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
  let options = [
    Option<"fusionLimit", "fusion-limit", "unsigned", "3",
           "Most contractions merged into one op">
  ];
}

def FormSplitReductionDispatchesPass
    : InterfacePass<"dispatchlab-form-split-reduction-dispatches",
                    "mlir::FunctionOpInterface"> {
  let summary = "Tile ops marked iree_linalg_ext.split_reduction into a "
                "partial-reduction scf.forall in a dispatch of its own";
  let description = [{
    Mirrors IREE's DispatchCreation FormSplitReductionDispatches: the
    attribute lists one split size per reduction loop; the op merging the
    partial results stays outside, for FormDispatchRegions.
  }];
  let dependentDialects = ["::dispatchlab::dispatch::DispatchDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FoldUnitExtentDimsPass
    : InterfacePass<"dispatchlab-fold-unit-extent-dims",
                    "mlir::FunctionOpInterface"> {
  let summary = "Drop unit-extent loops and dimensions of linalg.generic and "
                "tensor.pad ops outside dispatches";
  let description = [{
    Mirrors IREE's DispatchCreation FoldUnitExtentDimsForFuncPass (the
    pass GlobalOptimization runs right after GeneralizeLinalgNamedOps):
    upstream's unit-extent-dim folding patterns with IREE's control (ops
    inside a dispatch keep their dims; operands are rank-reduced with
    reassociative reshapes), applied with a walk, then upstream's
    clean-up patterns and init-to-input moving with a greedy driver.
    Not modelled: IREE's LinalgExt and util.global folding, and its two
    tensor patterns (unit dims of collapse_shape(expand_shape) and of
    tensor.extract).
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

//===----------------------------------------------------------------------===//
// The data-tiling fusion route (data-tiling=fusion, IREE's Passes.cpp order:
// after formation and cloning)
//===----------------------------------------------------------------------===//

def AnnotateDataTilingHintsPass
    : InterfacePass<"dispatchlab-annotate-data-tiling-hints",
                    "mlir::FunctionOpInterface"> {
  let summary = "Mark the contractions that will get data-tiling encodings";
  let description = [{
    Mirrors IREE's DispatchCreation AnnotateDataTilingHints (matmul op type
    only): a contraction with tensor operands, none of them encoded, at most
    one batch, M, N and K loop, an M or N loop and a K loop, and a body of
    the form yield(add(out, mul(cast(a), cast(b)))) gets the unit attribute
    `dispatchlab.data_tiling_hint`. A function that already has a hint is
    left alone.
  }];
}

def SetEncodingPass
    : InterfacePass<"dispatchlab-set-encoding", "mlir::FunctionOpInterface"> {
  let summary = "Put iree_encoding.set_encoding on the operands of each "
                "hinted contraction and unset_encoding on its result";
  let description = [{
    Mirrors IREE's DispatchCreation SetEncoding (its generic strategy), in
    place, so inside the contraction's dispatch: each input gets a
    set_encoding, the init too (a linalg.fill init becomes a fill of an
    encoded tensor.empty, IREE's FoldFillWithSetEncoding), the contraction
    is cloned on encoded types and its result goes through unset_encoding.
    The encoding is `#iree_encoding.encoding` with the operand index, op
    type matmul, the element types of the three operands, the op's
    indexing maps and its static loop ranges (`?` when dynamic).
  }];
  let dependentDialects = ["::dispatchlab::encoding::EncodingDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MaterializeEncodingForHostPass
    : Pass<"dispatchlab-materialize-encoding-for-host"> {
  let summary = "Lay encoded matmul operands out in the host's tiles: "
                "set_encoding to linalg.pack, the contraction to mmt4d, "
                "unset_encoding to linalg.unpack";
  let description = [{
    Mirrors IREE's CPU encoding materialization. A tensor encoded for
    operand i of a matmul-type contraction with one M, N and K loop, at most
    one batch loop, static sizes and float operands is laid out as mmt4d
    reads it: the LHS [B, M1, K1, M0, K0], the RHS [B, N1, K1, N0, K0], the
    result [B, M1, N1, M0, N0], with IREE's x86 tiles M0 = N0 =
    `vector-width` (16x16x1 with AVX-512, 8x8x1 with AVX2; a smaller M or N
    takes the next power of two of its extent) and K0 = 1. set_encoding
    becomes a linalg.pack (zero-padded where a tile overhangs), the
    contraction linalg.mmt4d (batch_mmt4d), unset_encoding a linalg.unpack;
    encoded empties and fills take the packed type. Any other encoding is
    dropped, as IREE's MaterializeEncodingIntoNop does: its set/unset_encoding
    forward their source. It runs on any op: on a function before dispatch
    creation in the late route (IREE's MaterializeHomogeneousEncodings for
    one CPU target), on the module first in codegen for the fusion route.
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", "16",
           "f32 lanes of the host's vectors: the M0 and N0 tile sizes">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def HoistEncodingOpsPass
    : InterfacePass<"dispatchlab-hoist-encoding-ops",
                    "mlir::FunctionOpInterface"> {
  let summary = "Move set_encoding ops out of their dispatch when what they "
                "encode comes from outside it";
  let description = [{
    Mirrors IREE's DispatchCreation HoistEncodingOps, without its bubbling
    through bit-extend and broadcast generics: a set_encoding in a dispatch
    whose operands are all defined outside it moves before the dispatch.
    One whose source is computed in the dispatch (seed 002: an
    extract_slice cloned in) stays, unless `encoding-hoist-slices` lets it
    take its producer chain along (IREE's TODO there and PR 21181: every op
    of the chain is a contiguous extract_slice or a constant), or
    `encoding-unhoisted-error` makes it the error IREE gave then.
  }];
  let options = [
    Option<"hoistSlices", "encoding-hoist-slices", "bool", "false",
           "Hoist the chain of extract_slices and constants producing a "
           "set_encoding's source along with it">,
    Option<"unhoistedError", "encoding-unhoisted-error", "bool", "false",
           "A set_encoding that cannot be hoisted is an error, as in IREE "
           "before PR 21181">
  ];
}

def FuseEncodingOpsIntoDispatchRegionsPass
    : InterfacePass<"dispatchlab-fuse-encoding-ops-into-dispatch-regions",
                    "mlir::FunctionOpInterface"> {
  let summary = "Move each set_encoding between dispatches into the "
                "dispatch computing what it encodes, if that one only maps "
                "elements";
  let description = [{
    Mirrors IREE's DispatchCreation FuseEncodingOpsIntoDispatchRegions.
    After common set_encodings are merged (CSE), a set_encoding outside
    dispatches whose source is a result of a dispatch moves into that
    dispatch when an op there computes the result and every op of the
    dispatch with a shaped result is a reshape, a tensor.empty or a Linalg
    op without reduction loops (IREE's isFusableWithSetEncoding). The
    dispatch then returns the encoded tensor; its unencoded result stays
    only while something else reads it. Any other set_encoding stays where
    it is.
  }];
}

#endif // DISPATCHLAB_HEURISTICS_PASSES_TD
