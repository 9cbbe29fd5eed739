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
// contiguous block. An op split into full tiles and a remainder (BERT's
// 30522-word vocabulary: 953 panels of 32 and 26 columns, the 26 split
// again into 16 and 10) reads a last panel zero-padded to T, each
// remainder its columns of it.
//
//===----------------------------------------------------------------------===//

#include "core/codegen/DataTiledOps.h"
#include "core/codegen/ParameterInitializer.h"
#include "core/codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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

/// A slice of a dispatch argument that reads column panels of it: columns
/// [base + offset, base + offset + size), offset a tile loop's induction
/// variable (one whole panel per tile) or, for a split-off remainder
/// narrower than a panel, 0.
struct PanelSlice {
  tensor::ExtractSliceOp slice;
  int64_t base;
};

/// How a dispatch argument is read, if by column panels only.
struct PanelReads {
  int64_t width = 0;
  SmallVector<PanelSlice> panels;
  /// Remainders of a split (TileAndFuseDispatches' getSplitPoint): each
  /// reads columns within one panel.
  SmallVector<PanelSlice> remainders;
  /// The split parts' slices between the argument and the panel reads.
  SmallVector<tensor::ExtractSliceOp> splits;
};

/// Whether `slice` takes its source whole in every dim but the last, at
/// unit strides.
bool isColumnRange(tensor::ExtractSliceOp slice) {
  RankedTensorType type = slice.getSourceType();
  if (!slice.hasUnitStride() ||
      slice.getResultType().getRank() != type.getRank())
    return false;
  for (int64_t dim = 0; dim + 1 < type.getRank(); ++dim)
    if (!isConstantIntValue(slice.getMixedOffsets()[dim], 0) ||
        getConstantIntValue(slice.getMixedSizes()[dim]) != type.getDimSize(dim))
      return false;
  return true;
}

/// The width of the panel `slice` reads if it is one tile's: in a tile
/// loop's body, at the loop's induction variable stepping by that width
/// from 0.
std::optional<int64_t> getTilePanelWidth(tensor::ExtractSliceOp slice) {
  auto loop = dyn_cast<scf::ForallOp>(slice->getParentOp());
  auto offset = dyn_cast<Value>(slice.getMixedOffsets().back());
  std::optional<int64_t> size =
      getConstantIntValue(slice.getMixedSizes().back());
  if (!loop || !offset || !size)
    return std::nullopt;
  for (auto [index, value] : llvm::enumerate(loop.getInductionVars()))
    if (value == offset &&
        isConstantIntValue(loop.getMixedLowerBound()[index], 0) &&
        getConstantIntValue(loop.getMixedStep()[index]) == *size)
      return size;
  return std::nullopt;
}

/// Adds the reads of `source`, columns [base, ...) of a dispatch argument,
/// to `reads`; fails if one is not a column panel.
LogicalResult collectPanelReads(Value source, int64_t base, PanelReads &reads) {
  int64_t extent = cast<RankedTensorType>(source.getType()).getShape().back();
  for (Operation *user : source.getUsers()) {
    auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
    if (!slice || !isColumnRange(slice))
      return failure();
    if (std::optional<int64_t> width = getTilePanelWidth(slice)) {
      if (*width >= extent || extent % *width != 0 || base % *width != 0 ||
          (reads.width && reads.width != *width))
        return failure();
      reads.width = *width;
      reads.panels.push_back({slice, base});
      continue;
    }
    // A part of a split op: its own tile loop's panels, or a remainder.
    std::optional<int64_t> offset =
        getConstantIntValue(slice.getMixedOffsets().back());
    if (!isa<func::FuncOp>(slice->getParentOp()) || !offset)
      return failure();
    PanelReads part = reads;
    if (succeeded(collectPanelReads(slice.getResult(), base + *offset, part))) {
      reads = std::move(part);
      reads.splits.push_back(slice);
    } else {
      reads.remainders.push_back({slice, base + *offset});
    }
  }
  return success();
}

/// How dispatch argument `argument` is read, if by column panels of one
/// width only (a remainder within one panel).
std::optional<PanelReads> getPanelReads(BlockArgument argument) {
  auto type = dyn_cast<RankedTensorType>(argument.getType());
  // A vector's panels are contiguous already (a bias, however reshaped).
  if (!type || !type.hasStaticShape() ||
      llvm::count_if(type.getShape(), [](int64_t dim) { return dim != 1; }) <
          2 ||
      argument.use_empty())
    return std::nullopt;
  PanelReads reads;
  if (failed(collectPanelReads(argument, 0, reads)) || !reads.width)
    return std::nullopt;
  for (PanelSlice remainder : reads.remainders)
    if (remainder.base % reads.width +
            remainder.slice.getResultType().getShape().back() >
        reads.width)
      return std::nullopt;
  return reads;
}

/// [d0, ..., N] -> [ceil(N/width), d0, ..., width], built by `builder`; a
/// last panel past N is zero-filled.
Value packPanels(OpBuilder &builder, Location loc, Value weight,
                 int64_t width) {
  auto type = cast<RankedTensorType>(weight.getType());
  int64_t rank = type.getRank();
  int64_t columns = llvm::alignTo(type.getShape().back(), width);
  if (columns != type.getShape().back()) {
    SmallVector<int64_t> paddedShape(type.getShape());
    paddedShape.back() = columns;
    Value zero = arith::ConstantOp::create(
        builder, loc, builder.getZeroAttr(type.getElementType()));
    Value empty = tensor::EmptyOp::create(builder, loc, paddedShape,
                                          type.getElementType());
    Value padded =
        linalg::FillOp::create(builder, loc, zero, empty).getResult(0);
    SmallVector<OpFoldResult> offsets(rank, builder.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(rank, builder.getIndexAttr(1));
    weight = tensor::InsertSliceOp::create(
        builder, loc, weight, padded, offsets,
        tensor::getMixedSizes(builder, loc, weight), strides);
    type = cast<RankedTensorType>(weight.getType());
  }
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

/// The read of panel `panel` of packed argument `packed` that replaces
/// `slice`: its columns from the panel's column `column`.
void readPanel(tensor::ExtractSliceOp slice, Value packed, OpFoldResult panel,
               int64_t column = 0) {
  auto packedType = cast<RankedTensorType>(packed.getType());
  OpBuilder builder(slice);
  SmallVector<OpFoldResult> offsets(packedType.getRank(),
                                    builder.getIndexAttr(0));
  offsets.front() = panel;
  offsets.back() = builder.getIndexAttr(column);
  SmallVector<OpFoldResult> sizes = llvm::map_to_vector(
      packedType.getShape(),
      [&](int64_t size) -> OpFoldResult { return builder.getIndexAttr(size); });
  sizes.front() = builder.getIndexAttr(1);
  sizes.back() = slice.getMixedSizes().back();
  SmallVector<OpFoldResult> strides(packedType.getRank(),
                                    builder.getIndexAttr(1));
  auto read =
      tensor::ExtractSliceOp::create(builder, slice.getLoc(), slice.getType(),
                                     packed, offsets, sizes, strides);
  slice.replaceAllUsesWith(read.getResult());
  slice.erase();
}

/// Makes dispatch argument `argument` the packed layout and each tile read
/// its panel of it.
void readPanels(BlockArgument argument, RankedTensorType packedType,
                const PanelReads &reads) {
  argument.setType(packedType);
  auto function = cast<func::FuncOp>(argument.getOwner()->getParentOp());
  function.setFunctionType(FunctionType::get(
      function.getContext(), function.front().getArgumentTypes(),
      function.getResultTypes()));
  function.setArgAttr(argument.getArgNumber(), kWeightPanelsAttr,
                      UnitAttr::get(function.getContext()));
  int64_t width = reads.width;
  for (PanelSlice read : reads.panels) {
    OpBuilder builder(read.slice);
    AffineExpr column = builder.getAffineDimExpr(0) + read.base;
    Value panel = affine::AffineApplyOp::create(
        builder, read.slice.getLoc(), column.floorDiv(width),
        ValueRange{cast<Value>(read.slice.getMixedOffsets().back())});
    readPanel(read.slice, argument, panel);
  }
  for (PanelSlice read : reads.remainders)
    readPanel(read.slice, argument,
              OpBuilder(read.slice).getIndexAttr(read.base / width),
              read.base % width);
  for (tensor::ExtractSliceOp split : llvm::reverse(reads.splits))
    split.erase();
}

/// A dispatch argument read by column panels, and the call binding it.
struct PanelRead {
  func::CallOp call;
  BlockArgument argument;
  PanelReads reads;
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
            if (!getParameterView(weight) && !getPackedResult(weight))
              continue;
            if (std::optional<PanelReads> panels = getPanelReads(argument))
              reads[weight].push_back({call, argument, std::move(*panels)});
            else
              unpackable.insert(weight);
          }
        });

    ParameterInitializer initializer(module, host);
    for (auto &[weight, panelReads] : reads) {
      int64_t width = panelReads.front().reads.width;
      if (llvm::any_of(panelReads, [&](const PanelRead &read) {
            return read.reads.width != width;
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
                   read.reads);
    }
  }
};

} // namespace
} // namespace dispatchlab
