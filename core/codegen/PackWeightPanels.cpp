//===- PackWeightPanels.cpp - weights in the order tiles read them --------===//
//
// A matmul or convolution tile reads a column panel of its weights: all of
// the reduction dims, 32 columns of the output's innermost dim. In a
// row-major weight that panel is rows of 128 bytes, a row apart (2 KB for
// 512 columns): strided reads the hardware prefetchers do not follow
// across pages, so a weight read once per call (ResNet50's 9.4 MB stage-4
// filters) comes from DRAM a line at a time. IREE's data tiling packs a
// matmul's weights into tiles (linalg.pack to the mmt4d layout), hoisted
// into the initializer; this pass does the same for the column panels
// TileAndFuseDispatches chose: weight [d0, ..., N] becomes [N/T, d0, ...,
// T], packed once by the initializer, and each tile reads its panel as one
// contiguous block.
//
//===----------------------------------------------------------------------===//

#include "core/codegen/DataTiledOps.h"
#include "core/codegen/ParameterInitializer.h"
#include "core/codegen/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace dispatchlab {
#define GEN_PASS_DEF_PACKWEIGHTPANELSPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

/// The panel width every read of dispatch argument `argument` uses, if each
/// is a slice taken in a tile loop's body that is whole in every dim but the
/// last, and in the last `width` wide at the loop's induction variable
/// stepping by `width` from 0: one column panel per tile.
std::optional<int64_t> getPanelWidth(BlockArgument argument) {
  auto type = dyn_cast<RankedTensorType>(argument.getType());
  // A vector's panels are contiguous already (a bias, however reshaped).
  if (!type || !type.hasStaticShape() ||
      llvm::count_if(type.getShape(), [](int64_t dim) { return dim != 1; }) <
          2 ||
      argument.use_empty())
    return std::nullopt;
  int64_t rank = type.getRank();
  std::optional<int64_t> width;
  for (Operation *user : argument.getUsers()) {
    auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
    auto loop = slice ? dyn_cast<scf::ForallOp>(slice->getParentOp()) : nullptr;
    if (!loop || !slice.hasUnitStride())
      return std::nullopt;
    SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
    for (int64_t dim = 0; dim + 1 < rank; ++dim)
      if (!isConstantIntValue(offsets[dim], 0) ||
          getConstantIntValue(sizes[dim]) != type.getDimSize(dim))
        return std::nullopt;
    std::optional<int64_t> size = getConstantIntValue(sizes.back());
    auto offset = dyn_cast_if_present<Value>(offsets.back());
    std::optional<unsigned> iv;
    for (auto [index, value] : llvm::enumerate(loop.getInductionVars()))
      if (value == offset)
        iv = index;
    int64_t extent = type.getDimSize(rank - 1);
    if (!size || !iv || *size >= extent || extent % *size != 0 ||
        (width && *width != *size) ||
        !isConstantIntValue(loop.getMixedLowerBound()[*iv], 0) ||
        getConstantIntValue(loop.getMixedStep()[*iv]) != *size)
      return std::nullopt;
    width = size;
  }
  return width;
}

/// [d0, ..., N] -> [N/width, d0, ..., width], built by `builder`.
Value packPanels(OpBuilder &builder, Location loc, Value weight,
                 int64_t width) {
  auto type = cast<RankedTensorType>(weight.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> expanded(type.getShape());
  expanded.back() /= width;
  expanded.push_back(width);
  SmallVector<ReassociationIndices> groups;
  for (int64_t dim = 0; dim + 1 < rank; ++dim)
    groups.push_back({dim});
  groups.push_back({rank - 1, rank});
  Value split = tensor::ExpandShapeOp::create(
      builder, loc, RankedTensorType::get(expanded, type.getElementType()),
      weight, groups);
  SmallVector<int64_t> permutation = {rank - 1};
  for (int64_t dim = 0; dim + 1 < rank; ++dim)
    permutation.push_back(dim);
  permutation.push_back(rank);
  SmallVector<int64_t> packedShape = llvm::map_to_vector(
      permutation, [&](int64_t dim) { return expanded[dim]; });
  Value init =
      tensor::EmptyOp::create(builder, loc, packedShape, type.getElementType());
  auto transpose =
      linalg::TransposeOp::create(builder, loc, split, init, permutation);
  return transpose->getResult(0);
}

/// Makes dispatch argument `argument` the packed layout and each tile read
/// its panel of it.
void readPanels(BlockArgument argument, RankedTensorType packedType,
                int64_t width) {
  argument.setType(packedType);
  auto function = cast<func::FuncOp>(argument.getOwner()->getParentOp());
  function.setFunctionType(FunctionType::get(
      function.getContext(), function.front().getArgumentTypes(),
      function.getResultTypes()));
  for (Operation *user : llvm::make_early_inc_range(argument.getUsers())) {
    auto slice = cast<tensor::ExtractSliceOp>(user);
    OpBuilder builder(slice);
    Location loc = slice.getLoc();
    AffineExpr column = builder.getAffineDimExpr(0);
    Value panel = affine::AffineApplyOp::create(
        builder, loc, column.floorDiv(width),
        ValueRange{cast<Value>(slice.getMixedOffsets().back())});
    SmallVector<OpFoldResult> offsets(packedType.getRank(),
                                      builder.getIndexAttr(0));
    offsets.front() = panel;
    SmallVector<OpFoldResult> sizes = llvm::map_to_vector(
        packedType.getShape(), [&](int64_t size) -> OpFoldResult {
          return builder.getIndexAttr(size);
        });
    sizes.front() = builder.getIndexAttr(1);
    SmallVector<OpFoldResult> strides(packedType.getRank(),
                                      builder.getIndexAttr(1));
    auto read = tensor::ExtractSliceOp::create(
        builder, loc, slice.getType(), argument, offsets, sizes, strides);
    slice.replaceAllUsesWith(read.getResult());
    slice.erase();
  }
}

/// A dispatch argument read by column panels, and the call binding it.
struct PanelRead {
  func::CallOp call;
  BlockArgument argument;
  int64_t width;
};

struct PackWeightPanelsPass
    : impl::PackWeightPanelsPassBase<PackWeightPanelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp host = getHostFunction(module);
    if (!host)
      return;
    // Per weight the host passes, every dispatch argument it binds.
    llvm::MapVector<Value, SmallVector<PanelRead>> reads;
    llvm::DenseSet<Value> unpackable;
    forEachSoleDispatchCall(
        module, host, [&](func::CallOp call, func::FuncOp callee) {
          // Data-tiled dispatches read packed layouts of their own.
          if (containsDataTiledOps(callee))
            return;
          for (BlockArgument argument : callee.getArguments()) {
            Value weight = call.getOperand(argument.getArgNumber());
            if (!getReshapedParameter(weight) && !getPackedResult(weight))
              continue;
            if (std::optional<int64_t> width = getPanelWidth(argument))
              reads[weight].push_back({call, argument, *width});
            else
              unpackable.insert(weight);
          }
        });

    ParameterInitializer initializer(module, host);
    for (auto &[weight, panelReads] : reads) {
      int64_t width = panelReads.front().width;
      if (llvm::any_of(panelReads, [&](const PanelRead &read) {
            return read.width != width;
          }))
        continue;
      Value packed;
      if (std::optional<unsigned> result = getPackedResult(weight)) {
        // Already a layout the initializer computes, for these reads only:
        // it packs that layout further, and the host argument changes type.
        bool readElsewhere =
            unpackable.contains(weight) ||
            llvm::any_of(weight.getUsers(), [&](Operation *user) {
              return llvm::none_of(panelReads, [&](const PanelRead &read) {
                return read.call == user;
              });
            });
        if (readElsewhere)
          continue;
        OpBuilder builder = initializer.getBuilder();
        Value layout = initializer.getResult(*result);
        initializer.replaceResult(
            *result, packPanels(builder, layout.getLoc(), layout, width));
        packed = weight;
      } else {
        // A weight as the model gives it: the initializer packs it into a
        // new layout, passed to these reads instead.
        OpBuilder builder = initializer.getBuilder();
        Value source = initializer.getWeight(weight);
        packed = initializer.addResult(
            packPanels(builder, source.getLoc(), source, width));
        for (PanelRead &read : panelReads)
          read.call->setOperand(read.argument.getArgNumber(), packed);
      }
      for (PanelRead &read : panelReads)
        readPanels(read.argument, cast<RankedTensorType>(packed.getType()),
                   width);
    }
  }
};

} // namespace
} // namespace dispatchlab
