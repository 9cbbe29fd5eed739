//===- Passes.td - IREE's GlobalOptimization steps ----------*- tablegen -*-===//
//
// The GlobalOptimization passes of IREE that change what DispatchCreation
// sees, each written after IREE's pass of the same name
// (compiler/src/iree/compiler/GlobalOptimization/). They run on IR outside
// dispatches only, so they know nothing of the dispatch dialect.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_GLOBALOPT_PASSES_TD
#define DISPATCHLAB_GLOBALOPT_PASSES_TD

include "mlir/Pass/PassBase.td"

def RaiseSpecialOpsPass
    : InterfacePass<"dispatchlab-raise-special-ops",
                    "mlir::FunctionOpInterface"> {
  let summary = "Raise generics and slice chains back to the ops they spell";
  let description = [{
    Mirrors IREE's RaiseSpecialOps, each family in its own file
    (RaisePatterns.h). First, per generic: a `tensor.extract` at loop indices
    or zeros becomes an input, and a copy fixing some input positions becomes
    a rank-reducing `tensor.extract_slice`. Then, as patterns: an extending
    cast generic folds into the named contraction or convolution it feeds;
    matmul and batch_matmul of an inner-transposed RHS take their transpose-B
    maps; an input-less generic yielding an outside value becomes
    `linalg.fill`; a numerically stabilized softmax chain (max, sub, exp,
    sum, divide or multiply by the reciprocal) becomes `linalg.softmax`;
    rotate-half (slices, negate, concat or two inserts) becomes one generic;
    an `insert_slice` into a splat constant becomes `tensor.pad`.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
}

def DetachElementwiseFromNamedOpsPass
    : InterfacePass<"dispatchlab-detach-elementwise-from-named-ops",
                    "mlir::FunctionOpInterface"> {
  let summary = "Give contractions and convolutions a zero-fill init and "
                "add their former init in a separate elementwise op";
  let description = [{
    Mirrors IREE's DetachElementwiseFromNamedOps: a contraction or
    convolution whose init is computed by a Linalg op other than a fill, or
    is a non-splat constant, accumulates into a fill of zero instead, and an
    elementwise generic adds the former init to its result. Splat-constant
    inits of any Linalg op become empty + fill. Inits that are function
    arguments or fills stay.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def EraseUnusedLinalgOperandsPass
    : InterfacePass<"dispatchlab-erase-unused-linalg-operands",
                    "mlir::FunctionOpInterface"> {
  let summary = "Drop the unused operands and results of linalg.generic ops";
  let description = [{
    Mirrors IREE's EraseUnusedLinalgOperands, which is upstream's
    `populateEraseUnusedOperandsAndResultsPatterns`: inputs the body never
    reads, duplicated inputs and results nobody uses (with their inits) are
    removed.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def SimplifyPackUnpackPass
    : InterfacePass<"dispatchlab-simplify-pack-unpack",
                    "mlir::FunctionOpInterface"> {
  let summary = "Rewrite packs and unpacks that move no element as reshapes";
  let description = [{
    Mirrors IREE's SimplifyPackUnpack (late data-tiling route), which is
    upstream's `populateSimplifyPackAndUnpackPatterns`: a pack without
    padding or outer transpose whose tiling only splits off unit dims
    becomes a tensor.expand_shape, such an unpack a tensor.collapse_shape.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def DataLayoutPropagationPass
    : InterfacePass<"dispatchlab-data-layout-propagation",
                    "mlir::FunctionOpInterface"> {
  let summary = "Move packs above collapse_shapes and unpacks below "
                "expand_shapes";
  let description = [{
    Mirrors IREE's DataLayoutPropagation (late data-tiling route): upstream's
    `populateDataLayoutPropagationPatterns` with IREE's control function,
    which allows only two moves. A pack of a tensor.collapse_shape's result
    becomes a pack of its source followed by a collapse of the packed
    tensor; an unpack read by a tensor.expand_shape becomes an expand of
    the packed tensor followed by the unpack. Packs and unpacks next to any
    other op stay.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def DecomposeConcatPass
    : InterfacePass<"dispatchlab-decompose-concat",
                    "mlir::FunctionOpInterface"> {
  let summary = "Decompose tensor.concat along an inner dim into "
                "tensor.empty + tensor.insert_slice";
  let description = [{
    Mirrors IREE's DecomposeConcat: a concat along a dim other than 0 is
    decomposed with upstream's `decomposeOperation` (empty, then one
    insert_slice per input), so each slice can fuse into its producer's
    dispatch; concats along dim 0 stay (IREE turns them into in-place
    tensor updates). With `outer-dim-concat` (IREE's
    `--iree-opt-outer-dim-concat`, on from O1), a concat along a dim after
    the outermost non-unit dim is first transposed to run along that dim,
    with linalg.transpose ops on its inputs and result.
  }];
  let options = [
    Option<"outerDimConcat", "outer-dim-concat", "bool", "false",
           "Transpose inner-dim concats to the outermost non-unit dim first">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PropagateLinalgTransposePass
    : InterfacePass<"dispatchlab-propagate-linalg-transpose",
                    "mlir::FunctionOpInterface"> {
  let summary = "Move linalg.transpose ops into the generics and "
                "contractions next to them";
  let description = [{
    Mirrors IREE's PropagateLinalgTranspose (as of IREE b48a5955), in its
    four phases: transpose-like generics become `linalg.transpose`;
    transposes sink into matmul and batch_matmul transpose variants and
    in-order reduction maps, and through extract_slice, expand_shape and
    unary elementwise inputs; they bubble up through collapse_shape, unary
    elementwise inits and (after expand_shapes are propagated up through
    generics) fuse into the init of their producing generic; finally they
    sink again, fusing into the input maps of consuming generics, and
    adjacent transposes compose. Named contractions other than
    matmul/batch_matmul only take part with
    `aggressive-transpose-propagation` (they
    are generalized), convolutions only with `propagate-through-conv`.
    Not modelled: IREE's attention-V bubbling (LinalgExt ops) and its
    sinking through tensor.pad (off by default in IREE).
  }];
  let options = [
    Option<"aggressivePropagation", "aggressive-transpose-propagation",
           "bool",
           "false",
           "IREE's enable-aggressive-propagation "
           "(--iree-opt-aggressively-propagate-transposes, on from O3): "
           "generalize named contractions to fuse transposes into them, "
           "propagate reshapes through named ops">,
    Option<"propagateThroughConv", "propagate-through-conv", "bool",
           "false",
           "IREE's enable-aggressive-propagation-through-conv: "
           "convolutions take part (generalized)">,
    Option<"edgeReshapePropagation", "edge-reshape-propagation", "bool",
           "false",
           "IREE's enable-edge-reshape-propagation: move transposes "
           "through reshapes even when the reshape keeps no two Linalg or "
           "tensor ops apart">,
    Option<"testSinkingOnly", "test-sinking-only", "bool", "false",
           "IREE's test-sinking-only: skip the bubbling phase (for tests)">,
    Option<"testBubblingOnly", "test-bubbling-only", "bool", "false",
           "IREE's test-bubbling-only: skip both sinking phases (for tests)">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def DemoteContractionInputsPass
    : InterfacePass<"dispatchlab-demote-contraction-inputs",
                    "mlir::FunctionOpInterface"> {
  let summary = "Truncate the f32 inputs of named matmuls and convolutions "
                "to f16 or bf16";
  let description = [{
    Mirrors IREE's DemoteContractionInputs (its options `type` and
    `operation`, the pipeline's
    --iree-global-opt-demote-contraction-inputs-type/-operations): a named
    contraction or 2-D convolution of IREE's list whose operands are all
    f32 tensors reads its inputs through a truncf generic each and keeps
    its f32 init. `operation` selects matmul-like ops, convolutions, both
    or none. Unlike IREE's rewrite, a convolution keeps strides and
    dilations other than ones (IREE's drops them).
  }];
  let options = [
    Option<"demoteType", "type", "::dispatchlab::DemoteContractionType",
           "::dispatchlab::DemoteContractionType::F16",
           "The narrow type of the inputs",
           [{::llvm::cl::values(
             clEnumValN(::dispatchlab::DemoteContractionType::F16, "f16",
                        "Demote to f16."),
             clEnumValN(::dispatchlab::DemoteContractionType::BF16, "bf16",
                        "Demote to bf16."))}]>,
    Option<"demoteOperation", "operation",
           "::dispatchlab::DemoteContractionOps",
           "::dispatchlab::DemoteContractionOps::All",
           "Which contractions to demote",
           [{::llvm::cl::values(
             clEnumValN(::dispatchlab::DemoteContractionOps::All, "all",
                        "Demote all contraction ops."),
             clEnumValN(::dispatchlab::DemoteContractionOps::Conv, "conv",
                        "Only demote convolution ops."),
             clEnumValN(::dispatchlab::DemoteContractionOps::Matmul,
                        "matmul", "Only demote matmul ops."),
             clEnumValN(::dispatchlab::DemoteContractionOps::None, "none",
                        "Demote no contraction ops."))}]>
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FuseDequantizationMatmulPass
    : InterfacePass<"dispatchlab-fuse-dequantization-matmul",
                    "mlir::FunctionOpInterface"> {
  let summary = "Reassociate a grouped dequantization and its matmul into "
                "an integer matmul";
  let description = [{
    Mirrors IREE's FuseDequantizationMatmul (opt-in in IREE, as here): a
    contraction generic with two reduction loops (group, element) reading
    weights dequantized per group ((extui/uitofp(q) - zp) * s) quantizes its
    activation per group to i16 and computes the product in i32, the
    dequantization reassociated after it: six generics instead of two, the
    activation's quantization an approximation.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ConvertBatchMatmulToMatmulPass
    : InterfacePass<"dispatchlab-convert-batch-matmul-to-matmul",
                    "mlir::FunctionOpInterface"> {
  let summary = "Turn a batch_matmul of a batch-broadcast weight into "
                "collapse_shape + matmul + expand_shape";
  let description = [{
    Mirrors IREE's ConvertBatchMatmulToMatmul (IREE b48a5955): when the RHS
    of a batch_matmul is a 2-D weight broadcast along dim 0
    (linalg.broadcast or its generic form), the LHS and the init are
    collapsed to [batch * M, K] and [batch * M, N], a linalg.matmul (or its
    transpose_b form) reads the weight itself, and its result is expanded
    back. LHS maps other than (b, m, k), broadcasts along other dims or
    fused with a transpose stay. A batch_matmul whose RHS is not such a
    broadcast (e.g. a unit-batch expand_shape of the weight) stays too.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ConvertStridedContractionToContractionPass
    : InterfacePass<"dispatchlab-convert-strided-contraction-to-contraction",
                    "mlir::FunctionOpInterface"> {
  let summary = "Move the strides of a contraction's first input into a "
                "strided extract_slice";
  let description = [{
    Mirrors IREE's ConvertStridedContractionToContraction (IREE b48a5955):
    a two-input multiply-add generic with a reduction loop whose second
    input and result maps are projected permutations, and whose first
    input reads `dim * cst` in some positions, reads a strided
    extract_slice of that input instead, with `dim` there (e.g. a strided
    1x1 convolution after generalization and unit-dim folding becomes a
    plain contraction). Other non-permutation expressions stay.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def HoistIntoGlobalsPass
    : Pass<"dispatchlab-hoist-into-globals", "mlir::ModuleOp"> {
  let summary = "Move work that depends only on weights and constants into "
                "each host's initializer";
  let description = [{
    Mirrors IREE's HoistIntoGlobals with its ConstExprAnalysis and
    ConstExprHoistingPolicy (Dialect/Util). Roots are constants and the
    arguments tagged as weights (`dispatchlab.parameter`,
    `dispatchlab.parameter_result`, `dispatchlab.packed`: IREE's immutable
    globals); an op is a constant expression when it is effect-free, has
    results of integer, index or float element types, and reads only
    constant expressions. Of those, the values that escape (read by an op
    that is not hoisted, or returned) are hoisted, except roots, non-leaf ops
    (tensor.empty, fill, reshapes, extract_slice, broadcasts, generics
    without tensor inputs, extending casts, sub-byte integers, set_encoding)
    and values more than `max-size-increase-threshold` bytes larger than
    the roots they come from. Where IREE stores each in a util.global that a
    util.initializer computes, here the host's weights are its arguments:
    the hoisted trees are cloned into one private `util.func
    @<host>_initializer` (tagged `dispatchlab.initializer_of`, each argument
    with the host argument it binds to) returning the hoisted values, and
    the host reads each through a new argument tagged `dispatchlab.packed`
    with its result index, as codegen's weight packing does. DispatchCreation
    runs on func.func only, so the initializer forms no dispatch (IREE's
    const-eval computes its initializers at compile time); `run` computes
    it once before the timed calls.
  }];
  let options = [
    Option<"maxSizeIncreaseThreshold", "max-size-increase-threshold",
           "int64_t", "1024 * 1024",
           "Bytes a hoisted value may exceed the roots it is computed from "
           "by (IREE's --iree-opt-const-expr-max-size-increase-threshold)">
  ];
  let dependentDialects = ["::dispatchlab::util::UtilDialect"];
}

#endif // DISPATCHLAB_GLOBALOPT_PASSES_TD
