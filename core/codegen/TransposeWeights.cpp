//===- TransposeWeights.cpp - weight operands in tile-friendly layouts ----===//

#include "core/codegen/DataTiledOps.h"
#include "core/codegen/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace dispatchlab {
#define GEN_PASS_DEF_TRANSPOSEWEIGHTSPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

/// For a contraction or convolution generic whose weight-like input has the
/// output's innermost dim (n) but a reduction dim innermost (a PyTorch
/// filter [f, kh, kw, c], a transposed matmul rhs), a linalg.transpose of
/// that input moving n innermost, read by the op instead. Each register
/// tile then reads rows of 32 contiguous n for its outer products rather
/// than transposing a 32x16 tile in registers per reduction step (3.5x
/// slower on a ResNet 1x1 convolution). The transpose runs outside the
/// tile loops, the way IREE packs a matmul operand for its tiles (data
/// tiling); for a weight, HoistParameterPacking then moves it out of the
/// dispatch into the initializer. An input the dispatch also returns is
/// left alone: it is written tile by tile from the tile loop, and a
/// transposed copy would need it whole first. So is a reduction of one
/// input (a LayerNorm's mean, a softmax's max): it has no weight, and a
/// copy of its activations on every call cost BERT's softmax dispatches
/// more than reading rows along their contiguous columns.
void transposeWeights(RewriterBase &rewriter, func::FuncOp function) {
  Operation *terminator = function.front().getTerminator();
  auto isReturned = [&](Value value) {
    return llvm::any_of(value.getUsers(), [&](Operation *user) {
      if (auto insert = dyn_cast<tensor::InsertSliceOp>(user))
        return insert.getSource() == value &&
               llvm::is_contained(insert->getUsers(), terminator);
      return user == terminator;
    });
  };
  function.walk([&](linalg::GenericOp op) {
    if (op.getNumReductionLoops() == 0 || op.hasDynamicShape() ||
        op.getNumDpsInits() != 1 || op.getNumDpsInputs() < 2)
      return;
    auto n = dyn_cast<AffineDimExpr>(
        op.getMatchingIndexingMap(op.getDpsInitOperand(0)).getResults().back());
    if (!n)
      return;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      auto type = dyn_cast<RankedTensorType>(input->get().getType());
      std::optional<unsigned> position = map.getResultPosition(n);
      if (!type || !map.isProjectedPermutation() || !position ||
          isReturned(input->get()))
        continue;
      auto innermost = cast<AffineDimExpr>(map.getResults().back());
      if (op.getIteratorTypesArray()[innermost.getPosition()] !=
          utils::IteratorType::reduction)
        continue;
      SmallVector<int64_t> permutation;
      for (unsigned dim = 0; dim < map.getNumResults(); ++dim)
        if (dim != *position)
          permutation.push_back(dim);
      permutation.push_back(*position);
      rewriter.setInsertionPoint(op);
      Value init = tensor::EmptyOp::create(
          rewriter, op.getLoc(), applyPermutation(type.getShape(), permutation),
          type.getElementType());
      auto transpose = linalg::TransposeOp::create(
          rewriter, op.getLoc(), input->get(), init, permutation);
      transpose->setAttr(kWeightTransposeAttr, rewriter.getUnitAttr());
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      maps[input->getOperandNumber()] = map.getSubMap(llvm::map_to_vector(
          permutation, [](int64_t dim) { return unsigned(dim); }));
      rewriter.modifyOpInPlace(op, [&] {
        input->set(transpose->getResult(0));
        op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      });
    }
  });
}

struct TransposeWeightsPass
    : impl::TransposeWeightsPassBase<TransposeWeightsPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    // A data-tiled dispatch reads weights in their packed layout already.
    if (!function->hasAttr(kDispatchFunctionAttr) || function.isExternal() ||
        containsDataTiledOps(function))
      return;
    IRRewriter rewriter(&getContext());
    transposeWeights(rewriter, function);
  }
};

} // namespace
} // namespace dispatchlab
