//===- ConvertStridedContractionToContraction.cpp - strides to a slice ----===//
//
// Mirrors IREE's GlobalOptimization ConvertStridedContractionToContraction
// (as of IREE b48a5955). A contraction-like generic (two inputs, one init,
// a reduction loop, a multiply-add body, extensions allowed) whose first
// input reads `dim * cst` in some positions, while the second input and the
// result are projected permutations, reads a strided extract_slice of that
// input instead, with `dim` in those positions. A strided 1x1 convolution,
// generalized and with its unit filter loops folded, so becomes a plain
// contraction on the subsampled input. Other expressions (`d1 * 2 + d4`)
// stay as they are.
//
//===----------------------------------------------------------------------===//

#include "globalopt/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace dispatchlab::globalopt {
#define GEN_PASS_DEF_CONVERTSTRIDEDCONTRACTIONTOCONTRACTIONPASS
#include "globalopt/Passes.h.inc"
} // namespace dispatchlab::globalopt

using namespace mlir;

namespace {

/// IREE's body test: a multiply feeding an add of the same kind (mulf/addf
/// or muli/addi), through upstream's isContractionBody.
bool isMultiplyAdd(Operation *first, Operation *second) {
  return (isa<arith::MulFOp>(first) && isa<arith::AddFOp>(second)) ||
         (isa<arith::MulIOp>(first) && isa<arith::AddIOp>(second));
}

/// The first input's map with each `dim * cst` result replaced by `dim`,
/// the stride of each such result position, and the slice shape (the
/// static loop range at those positions, the input's size elsewhere).
struct StridedRead {
  AffineMap map;
  llvm::SmallDenseMap<unsigned, int64_t> strides;
  SmallVector<int64_t> sliceShape;
};

/// IREE's scan of the input map: dim and constant results stay, `dim * cst`
/// becomes a stride when the loop's size is static and non-zero, other
/// binary expressions stay; any other expression kind fails.
FailureOr<StridedRead> readStrides(linalg::GenericOp op, AffineMap inputMap,
                                   RankedTensorType inputType) {
  SmallVector<int64_t> loopRanges = op.getStaticLoopRanges();
  StridedRead read;
  read.sliceShape.assign(inputType.getShape().begin(),
                         inputType.getShape().end());
  SmallVector<AffineExpr> exprs;
  for (auto [pos, expr] : llvm::enumerate(inputMap.getResults())) {
    if (isa<AffineDimExpr, AffineConstantExpr>(expr)) {
      exprs.push_back(expr);
      continue;
    }
    auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
    if (!binary)
      return failure();
    auto stride = dyn_cast<AffineConstantExpr>(binary.getRHS());
    auto dim = dyn_cast<AffineDimExpr>(binary.getLHS());
    if (!stride || !dim || binary.getKind() != AffineExprKind::Mul) {
      exprs.push_back(expr);
      continue;
    }
    int64_t size = loopRanges[dim.getPosition()];
    if (ShapedType::isDynamic(size) || size == 0)
      return failure();
    read.strides.insert({static_cast<unsigned>(pos), stride.getValue()});
    read.sliceShape[pos] = size;
    exprs.push_back(dim);
  }
  read.map = AffineMap::get(inputMap.getNumDims(), inputMap.getNumSymbols(),
                            exprs, op.getContext());
  return read;
}

/// The strided extract_slice of `input` that `read` describes, at offset 0.
Value createStridedSlice(OpBuilder &builder, Location loc, Value input,
                         const StridedRead &read) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  SmallVector<OpFoldResult> offsets(rank, builder.getIndexAttr(0));
  SmallVector<OpFoldResult> steps(rank, builder.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes;
  for (int64_t i = 0; i < rank; ++i) {
    if (read.strides.contains(i))
      steps[i] = builder.getIndexAttr(read.strides.at(i));
    if (ShapedType::isDynamic(read.sliceShape[i]))
      sizes.push_back(builder.createOrFold<tensor::DimOp>(loc, input, i));
    else
      sizes.push_back(builder.getIndexAttr(read.sliceShape[i]));
  }
  auto sliceType =
      RankedTensorType::get(read.sliceShape, inputType.getElementType());
  return tensor::ExtractSliceOp::create(builder, loc, sliceType, input, offsets,
                                        sizes, steps);
}

/// IREE's ConvertStridedContractionToContraction pattern.
struct ConvertStridedContraction : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
        op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0)
      return failure();
    if (!linalg::detail::isContractionBody(*op.getBlock(), isMultiplyAdd))
      return failure();
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    unsigned inputPos = op.getDpsInputOperand(0)->getOperandNumber();
    unsigned filterPos = op.getDpsInputOperand(1)->getOperandNumber();
    unsigned initPos = op.getDpsInitOperand(0)->getOperandNumber();
    // Only the first input may read through strides.
    if (!maps[filterPos].isProjectedPermutation() ||
        !maps[initPos].isProjectedPermutation() ||
        maps[inputPos].isProjectedPermutation())
      return failure();
    Value input = op.getDpsInputs()[0];
    auto inputType = dyn_cast<RankedTensorType>(input.getType());
    if (!inputType)
      return failure();
    FailureOr<StridedRead> read = readStrides(op, maps[inputPos], inputType);
    if (failed(read) || read->strides.empty())
      return rewriter.notifyMatchFailure(op, "no `dim * cst` to slice");

    maps[inputPos] = read->map;
    Value slice = createStridedSlice(rewriter, op.getLoc(), input, *read);
    rewriter.modifyOpInPlace(op, [&] {
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      op->setOperand(inputPos, slice);
    });
    return success();
  }
};

struct ConvertStridedContractionToContractionPass
    : dispatchlab::globalopt::impl::
          ConvertStridedContractionToContractionPassBase<
              ConvertStridedContractionToContractionPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ConvertStridedContraction>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
