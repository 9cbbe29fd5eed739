//===- MaterializeEncodingForHost.cpp - encodings to packed layouts -------===//
//
// Mirrors IREE's CPU encoding materialization (CPUMaterializeDeviceEncoding
// with the x86 tile choice of CPUEncodingExternalModels): a matmul operand's
// encoding becomes a linalg.pack layout tiled for the host's vectors, the
// contraction a linalg.mmt4d on those tiles, and unset_encoding a
// linalg.unpack. An encoding this cannot lay out (no single M, N and K loop,
// integer or dynamic) is dropped, as MaterializeEncodingIntoNop does. The
// late route runs it before dispatch creation (MaterializeHomogeneousEncodings
// with one CPU target), the fusion route first in codegen.
//
//===----------------------------------------------------------------------===//

#include "compat/EncodingCompatDialect.h"
#include "heuristics/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/MathExtras.h"

namespace dispatchlab {
#define GEN_PASS_DEF_MATERIALIZEENCODINGFORHOSTPASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

namespace {
/// How an encoded operand is packed: linalg.pack's attributes.
struct PackLayout {
  SmallVector<int64_t> innerDimsPos;
  SmallVector<int64_t> innerTiles;
  SmallVector<int64_t> outerDimsPerm;
  /// Whether the contraction has a batch loop (batch_mmt4d).
  bool batched = false;
};

/// The loops of an encoding's contraction, if it has one M, N and K loop,
/// at most one batch loop, static sizes and float operands: what mmt4d
/// computes.
std::optional<linalg::ContractionDimensions>
getMmt4dDims(encoding::EncodingAttr encoding) {
  ArrayAttr mapsAttr = encoding.getUserIndexingMaps();
  ArrayAttr sizes = encoding.getIterationSizes();
  if (encoding.getOpType() != encoding::EncodingOpType::matmul || !mapsAttr ||
      mapsAttr.size() != 3 || !sizes ||
      llvm::any_of(encoding.getElementTypes(), [](Attribute type) {
        return !isa<FloatType>(cast<TypeAttr>(type).getValue());
      }))
    return std::nullopt;
  SmallVector<AffineMap> maps =
      llvm::map_to_vector(mapsAttr, [](Attribute map) {
        return cast<AffineMapAttr>(map).getValue();
      });
  if (llvm::any_of(sizes, [](Attribute size) {
        return cast<IntegerAttr>(size).getInt() <= 0;
      }))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(maps);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 || dims->batch.size() > 1)
    return std::nullopt;
  return *dims;
}

/// IREE's x86 f32 tiles: M0 x N0 x K0 = one vector's lanes each way by 1
/// (16x16x1 with AVX-512, 8x8x1 with AVX2), narrowed to the next power of
/// two of a smaller M or N.
int64_t getInnerTile(int64_t extent, int64_t vectorWidth) {
  return std::min<int64_t>(vectorWidth, llvm::PowerOf2Ceil(extent));
}

/// The packed layout of `type`, if its encoding is one mmt4d computes on.
/// The LHS goes [B, M1, K1, M0, K0], the RHS [B, N1, K1, N0, K0], the result
/// [B, M1, N1, M0, N0]: mmt4d's operands.
std::optional<PackLayout> getPackLayout(Type type, int64_t vectorWidth) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  auto encoding =
      tensor ? dyn_cast_if_present<encoding::EncodingAttr>(tensor.getEncoding())
             : nullptr;
  if (!encoding || !tensor.hasStaticShape())
    return std::nullopt;
  std::optional<linalg::ContractionDimensions> dims = getMmt4dDims(encoding);
  if (!dims)
    return std::nullopt;
  int64_t index = encoding.getOperandIndex().getInt();
  AffineMap map =
      cast<AffineMapAttr>(encoding.getUserIndexingMaps()[index]).getValue();
  unsigned m = dims->m.front(), n = dims->n.front(), k = dims->k.front();
  std::pair<unsigned, unsigned> tiled =
      index == 0 ? std::make_pair(m, k)
                 : (index == 1 ? std::make_pair(n, k) : std::make_pair(m, n));
  SmallVector<unsigned> order(dims->batch.begin(), dims->batch.end());
  order.append({tiled.first, tiled.second});
  if (map.getNumResults() != order.size())
    return std::nullopt;

  PackLayout layout;
  layout.batched = !dims->batch.empty();
  MLIRContext *context = type.getContext();
  for (unsigned dim : order) {
    std::optional<unsigned> position =
        map.getResultPosition(getAffineDimExpr(dim, context));
    if (!position)
      return std::nullopt;
    layout.outerDimsPerm.push_back(*position);
  }
  for (unsigned dim : {tiled.first, tiled.second}) {
    layout.innerDimsPos.push_back(
        *map.getResultPosition(getAffineDimExpr(dim, context)));
    int64_t extent =
        cast<IntegerAttr>(encoding.getIterationSizes()[dim]).getInt();
    layout.innerTiles.push_back(dim == k ? 1
                                         : getInnerTile(extent, vectorWidth));
  }
  return layout;
}

/// `type` as the host lays it out: packed, or without its encoding.
Type getMaterializedType(Type type, int64_t vectorWidth) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.getEncoding())
    return type;
  std::optional<PackLayout> layout = getPackLayout(type, vectorWidth);
  if (!layout)
    return tensor.dropEncoding();
  return linalg::PackOp::inferPackedType(
      tensor.dropEncoding(), layout->innerTiles, layout->innerDimsPos,
      layout->outerDimsPerm);
}

SmallVector<OpFoldResult> getTileSizes(Builder &builder,
                                       const PackLayout &layout) {
  return llvm::map_to_vector(layout.innerTiles, [&](int64_t size) {
    return OpFoldResult(builder.getIndexAttr(size));
  });
}

/// set_encoding becomes a pack, zero-padded where a tile overhangs.
void materializeSet(RewriterBase &rewriter, encoding::SetEncodingOp op,
                    const PackLayout &layout) {
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  Value source = op.getSource();
  auto sourceType = cast<RankedTensorType>(source.getType());
  SmallVector<OpFoldResult> tiles = getTileSizes(rewriter, layout);
  Value dest = linalg::PackOp::createDestinationTensor(
      rewriter, loc, source, tiles, layout.innerDimsPos, layout.outerDimsPerm);
  std::optional<Value> padding;
  if (llvm::any_of(llvm::zip(layout.innerDimsPos, layout.innerTiles),
                   [&](auto dimAndTile) {
                     auto [dim, tile] = dimAndTile;
                     return sourceType.getDimSize(dim) % tile != 0;
                   }))
    padding = arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(sourceType.getElementType()));
  rewriter.replaceOpWithNewOp<linalg::PackOp>(op, source, dest,
                                              layout.innerDimsPos, tiles,
                                              padding, layout.outerDimsPerm);
}

/// unset_encoding becomes an unpack into a tensor of the plain shape.
void materializeUnset(RewriterBase &rewriter, encoding::UnsetEncodingOp op,
                      const PackLayout &layout) {
  rewriter.setInsertionPoint(op);
  auto resultType = cast<RankedTensorType>(op.getResult().getType());
  Value dest =
      tensor::EmptyOp::create(rewriter, op.getLoc(), resultType.getShape(),
                              resultType.getElementType());
  rewriter.replaceOpWithNewOp<linalg::UnPackOp>(
      op, op.getSource(), dest, layout.innerDimsPos,
      getTileSizes(rewriter, layout), layout.outerDimsPerm);
}

/// The contraction becomes (batch_)mmt4d on the packed operands: the same
/// sum of products, over tiles.
void materializeContraction(RewriterBase &rewriter, linalg::LinalgOp op,
                            bool batched) {
  rewriter.setInsertionPoint(op);
  SmallVector<Value> inputs = op.getDpsInputs();
  SmallVector<Value> inits = op.getDpsInits();
  TypeRange results = op->getResultTypes();
  Operation *packed = batched
                          ? linalg::BatchMmt4DOp::create(rewriter, op.getLoc(),
                                                         results, inputs, inits)
                                .getOperation()
                          : linalg::Mmt4DOp::create(rewriter, op.getLoc(),
                                                    results, inputs, inits)
                                .getOperation();
  rewriter.replaceOp(op, packed->getResults());
}

/// The ops to rewrite, with the layouts their encodings ask for, read
/// before any type changes.
struct Materialization {
  /// Without a layout, the encoding is dropped.
  SmallVector<std::pair<encoding::SetEncodingOp, std::optional<PackLayout>>>
      sets;
  SmallVector<std::pair<encoding::UnsetEncodingOp, std::optional<PackLayout>>>
      unsets;
  SmallVector<std::pair<linalg::LinalgOp, bool>> contractions;
};

/// Reads what each encoded op asks for. A contraction is packed when its
/// result's encoding has a layout (its operands' then have one too: the
/// three encodings differ only in the operand index).
Materialization collect(Operation *root, int64_t vectorWidth) {
  Materialization plan;
  root->walk([&](Operation *op) {
    if (auto set = dyn_cast<encoding::SetEncodingOp>(op)) {
      plan.sets.emplace_back(
          set, getPackLayout(set.getResult().getType(), vectorWidth));
    } else if (auto unset = dyn_cast<encoding::UnsetEncodingOp>(op)) {
      plan.unsets.emplace_back(
          unset, getPackLayout(unset.getSource().getType(), vectorWidth));
    } else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      if (linalgOp.getNumDpsInputs() != 2 || linalgOp.getNumDpsInits() != 1 ||
          isa<linalg::FillOp>(op))
        return;
      if (std::optional<PackLayout> layout =
              getPackLayout(linalgOp.getDpsInits()[0].getType(), vectorWidth))
        plan.contractions.emplace_back(linalgOp, layout->batched);
    }
  });
  return plan;
}

/// Every value, block argument and function signature gets its
/// materialized type, in place: users keep their operands.
void retype(Operation *root, int64_t vectorWidth) {
  root->walk([&](Operation *op) {
    for (Value result : op->getResults())
      result.setType(getMaterializedType(result.getType(), vectorWidth));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          argument.setType(
              getMaterializedType(argument.getType(), vectorWidth));
  });
  root->walk([&](func::FuncOp function) {
    FunctionType type = function.getFunctionType();
    auto convert = [&](TypeRange types) {
      return llvm::map_to_vector(types, [&](Type type) {
        return getMaterializedType(type, vectorWidth);
      });
    };
    function.setType(FunctionType::get(function.getContext(),
                                       convert(type.getInputs()),
                                       convert(type.getResults())));
  });
}

struct MaterializeEncodingForHostPass
    : dispatchlab::impl::MaterializeEncodingForHostPassBase<
          MaterializeEncodingForHostPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    if (vectorWidth < 1) {
      root->emitError("vector-width must be positive, got ")
          << vectorWidth.getValue();
      return signalPassFailure();
    }
    Materialization plan = collect(root, vectorWidth);
    retype(root, vectorWidth);
    IRRewriter rewriter(&getContext());
    for (auto &[op, layout] : plan.sets)
      if (layout)
        materializeSet(rewriter, op, *layout);
      else
        rewriter.replaceOp(op, op.getSource());
    for (auto &[op, layout] : plan.unsets)
      if (layout)
        materializeUnset(rewriter, op, *layout);
      else
        rewriter.replaceOp(op, op.getSource());
    for (auto &[op, batched] : plan.contractions)
      materializeContraction(rewriter, op, batched);
  }
};
} // namespace
