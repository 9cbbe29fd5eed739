//===- DemoteContractionInputs.cpp - f32 contraction inputs to f16/bf16 ---===//
//
// Mirrors IREE's GlobalOptimization DemoteContractionInputs (as of IREE
// b48a5955; --iree-global-opt-demote-contraction-inputs-type and
// -operations). A named matmul-like op or 2-D convolution whose operands
// are all f32 tensors reads its LHS and RHS through an elementwise truncf
// generic each, to f16 or bf16, and keeps its f32 init: the op is rebuilt
// with the narrow inputs (its body extends them again). `operation` picks
// which ops: all, conv, matmul or none. Only named ops take part: IREE's
// list, matmul and batch_matmul without user-defined maps, their
// transpose_a/b forms, matvec, vecmat, batch_matvec, batch_vecmat, and
// conv_2d, conv_2d_nchw_fchw, nhwc_hwcf, nhwc_fhwc, ngchw_fgchw,
// ngchw_gfchw. In IREE's pipeline the pass runs after
// GeneralizeLinalgNamedOps, which generalizes every convolution, so there
// only the matmuls can still match.
//
// One difference: a rebuilt convolution keeps strides and dilations that
// are not all ones. IREE's rewrite copies the pruned attribute list, which
// leaves out a convolution's inherent attributes, so a strided or dilated
// convolution would come out with unit strides and dilations.
//
//===----------------------------------------------------------------------===//

#include "globalopt/Passes.h"
#include "globalopt/PrunedAttributes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab::globalopt {
#define GEN_PASS_DEF_DEMOTECONTRACTIONINPUTSPASS
#include "globalopt/Passes.h.inc"
} // namespace dispatchlab::globalopt

using namespace mlir;
using dispatchlab::DemoteContractionOps;
using dispatchlab::DemoteContractionType;

namespace {

/// The attributes the rebuilt op keeps: its pruned ones (IREE's
/// getPrunedAttributeList) and, for a convolution, strides and dilations
/// other than all ones.
SmallVector<NamedAttribute> keptAttributes(Operation *op) {
  SmallVector<NamedAttribute> attrs =
      dispatchlab::globalopt::prunedAttributes(op);
  if (!isa<linalg::ConvolutionOpInterface>(op))
    return attrs;
  for (StringRef name : {"strides", "dilations"}) {
    auto values = op->getAttrOfType<DenseIntElementsAttr>(name);
    if (values && !llvm::all_of(values.getValues<int64_t>(),
                                [](int64_t v) { return v == 1; }))
      attrs.push_back(NamedAttribute(name, values));
  }
  return attrs;
}

/// `input` truncated elementwise to `type` (IREE's identity-map generic).
Value truncate(OpBuilder &builder, Location loc, Value input, Type type) {
  auto inputType = cast<RankedTensorType>(input.getType());
  auto narrowType = RankedTensorType::get(inputType.getShape(), type,
                                          inputType.getEncoding());
  SmallVector<AffineMap> maps(
      2, builder.getMultiDimIdentityMap(inputType.getRank()));
  SmallVector<utils::IteratorType> iterators(inputType.getRank(),
                                             utils::IteratorType::parallel);
  Value empty = tensor::EmptyOp::create(
      builder, loc, tensor::getMixedSizes(builder, loc, input), type);
  return linalg::GenericOp::create(
             builder, loc, TypeRange{narrowType}, ValueRange{input},
             ValueRange{empty}, maps, iterators,
             [&](OpBuilder &b, Location nested, ValueRange args) {
               Value narrow = arith::TruncFOp::create(b, nested, type, args[0]);
               linalg::YieldOp::create(b, nested, narrow);
             })
      .getResult(0);
}

/// IREE's DemoteContractionInputsPattern.
struct DemoteInputs : OpInterfaceRewritePattern<linalg::LinalgOp> {
  DemoteInputs(MLIRContext *context, Type narrowType,
               DemoteContractionOps operation)
      : OpInterfaceRewritePattern(context), narrowType(narrowType),
        operation(operation) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (operation == DemoteContractionOps::None)
      return failure();
    if (!isa<linalg::ContractionOpInterface, linalg::ConvolutionOpInterface>(
            op.getOperation()))
      return failure();
    Type f32 = rewriter.getF32Type();
    if (!llvm::all_of(op->getOperands(), [&](Value operand) {
          auto type = dyn_cast<RankedTensorType>(operand.getType());
          return type && type.getElementType() == f32;
        }))
      return rewriter.notifyMatchFailure(op, "not all operands f32 tensors");

    bool matmuls = operation == DemoteContractionOps::All ||
                   operation == DemoteContractionOps::Matmul;
    bool convs = operation == DemoteContractionOps::All ||
                 operation == DemoteContractionOps::Conv;
    Operation *raw = op.getOperation();
    if (matmuls && isPureMatmul(raw))
      return rebuild<linalg::MatmulOp>(op, rewriter);
    if (matmuls && isa<linalg::MatvecOp>(raw))
      return rebuild<linalg::MatvecOp>(op, rewriter);
    if (matmuls && isa<linalg::VecmatOp>(raw))
      return rebuild<linalg::VecmatOp>(op, rewriter);
    if (matmuls && isPureBatchMatmul(raw))
      return rebuild<linalg::BatchMatmulOp>(op, rewriter);
    if (matmuls && isa<linalg::BatchMatvecOp>(raw))
      return rebuild<linalg::BatchMatvecOp>(op, rewriter);
    if (matmuls && isa<linalg::BatchVecmatOp>(raw))
      return rebuild<linalg::BatchVecmatOp>(op, rewriter);
    if (matmuls && isa<linalg::MatmulTransposeAOp>(raw))
      return rebuild<linalg::MatmulTransposeAOp>(op, rewriter);
    if (matmuls && isa<linalg::MatmulTransposeBOp>(raw))
      return rebuild<linalg::MatmulTransposeBOp>(op, rewriter);
    if (matmuls && isa<linalg::BatchMatmulTransposeAOp>(raw))
      return rebuild<linalg::BatchMatmulTransposeAOp>(op, rewriter);
    if (matmuls && isa<linalg::BatchMatmulTransposeBOp>(raw))
      return rebuild<linalg::BatchMatmulTransposeBOp>(op, rewriter);
    if (convs && isa<linalg::Conv2DOp>(raw))
      return rebuild<linalg::Conv2DOp>(op, rewriter);
    if (convs && isa<linalg::Conv2DNchwFchwOp>(raw))
      return rebuild<linalg::Conv2DNchwFchwOp>(op, rewriter);
    if (convs && isa<linalg::Conv2DNhwcHwcfOp>(raw))
      return rebuild<linalg::Conv2DNhwcHwcfOp>(op, rewriter);
    if (convs && isa<linalg::Conv2DNhwcFhwcOp>(raw))
      return rebuild<linalg::Conv2DNhwcFhwcOp>(op, rewriter);
    if (convs && isa<linalg::Conv2DNgchwFgchwOp>(raw))
      return rebuild<linalg::Conv2DNgchwFgchwOp>(op, rewriter);
    if (convs && isa<linalg::Conv2DNgchwGfchwOp>(raw))
      return rebuild<linalg::Conv2DNgchwGfchwOp>(op, rewriter);
    return rewriter.notifyMatchFailure(op, "not an op of IREE's list");
  }

private:
  /// LinalgExt's isPureMatmul / isPureBatchMatmul: the plain op with its
  /// default maps.
  static bool isPureMatmul(Operation *op) {
    auto matmul = dyn_cast<linalg::MatmulOp>(op);
    return matmul &&
           linalg::MatmulOp::isDefaultIndexingMaps(matmul.getIndexingMaps());
  }
  static bool isPureBatchMatmul(Operation *op) {
    auto matmul = dyn_cast<linalg::BatchMatmulOp>(op);
    return matmul && linalg::BatchMatmulOp::isDefaultIndexingMaps(
                         matmul.getIndexingMaps());
  }

  /// `op` as an OpTy (its builder sets the variant's maps) on truncated
  /// inputs and its own inits.
  template <typename OpTy>
  LogicalResult rebuild(linalg::LinalgOp op, PatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    SmallVector<Value> inputs =
        llvm::map_to_vector(op.getDpsInputs(), [&](Value input) {
          return truncate(rewriter, loc, input, narrowType);
        });
    rewriter.replaceOpWithNewOp<OpTy>(op, inputs, op.getDpsInits(),
                                      keptAttributes(op));
    return success();
  }

  Type narrowType;
  DemoteContractionOps operation;
};

struct DemoteContractionInputsPass
    : dispatchlab::globalopt::impl::DemoteContractionInputsPassBase<
          DemoteContractionInputsPass> {
  using DemoteContractionInputsPassBase::DemoteContractionInputsPassBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    Type narrowType = demoteType == DemoteContractionType::BF16
                          ? Type(BFloat16Type::get(context))
                          : Type(Float16Type::get(context));
    RewritePatternSet patterns(context);
    patterns.add<DemoteInputs>(context, narrowType, demoteOperation);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
