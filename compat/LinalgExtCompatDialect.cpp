//===- LinalgExtCompatDialect.cpp - IREE's iree_linalg_ext ops ------------===//
//
// Verifiers check what the fusion rules rely on (operand counts, ranks, map
// shapes); the loop queries follow the semantics IREE documents for each op.
//
//===----------------------------------------------------------------------===//

#include "compat/LinalgExtCompatDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace dispatchlab::linalg_ext;

#include "compat/LinalgExtCompatDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "compat/LinalgExtCompatAttrs.cpp.inc"

#include "compat/LinalgExtCompatInterfaces.cpp.inc"

void LinalgExtDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "compat/LinalgExtCompatAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "compat/LinalgExtCompatOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

static int64_t getRank(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped ? shaped.getRank() : 0;
}

static ArrayRef<int64_t> getShape(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped ? shaped.getShape() : ArrayRef<int64_t>();
}

static LogicalResult verifyBlockArgCount(Operation *op, Region &region,
                                         unsigned expected) {
  unsigned actual = region.front().getNumArguments();
  if (actual != expected)
    return op->emitOpError("expected ")
           << expected << " region arguments, found " << actual;
  return success();
}

// One map per operand, all over the same loops, each with one result per
// dim of its operand (none for a scalar).
static LogicalResult verifyIndexingMaps(Operation *op, ArrayAttr maps,
                                        std::optional<unsigned> numLoops) {
  if (maps.size() != op->getNumOperands())
    return op->emitOpError("expected ")
           << op->getNumOperands() << " indexing maps, found " << maps.size();
  for (auto [index, attr] : llvm::enumerate(maps)) {
    AffineMap map = cast<AffineMapAttr>(attr).getValue();
    if (!numLoops)
      numLoops = map.getNumDims();
    if (map.getNumDims() != *numLoops)
      return op->emitOpError("indexing map #")
             << index << " has " << map.getNumDims() << " dims, expected "
             << *numLoops;
    int64_t rank = getRank(op->getOperand(index).getType());
    if (map.getNumResults() != rank)
      return op->emitOpError("indexing map #")
             << index << " has " << map.getNumResults()
             << " results for an operand of rank " << rank;
  }
  return success();
}

// Scatter and gather: `indexed` (original/source) is addressed by
// `dimension_map.size()` indices per batch entry; `slices` (updates/output)
// is batch dims followed by the dims `indexed` keeps.
static int64_t getBatchRank(ArrayRef<int64_t> dimensionMap, Type indexed,
                            Type slices) {
  int64_t keptRank = getRank(indexed) - dimensionMap.size();
  return getRank(slices) - keptRank;
}

// `indices` is the batch dims, plus a trailing index-depth dim unless the
// depth is 1.
static LogicalResult verifyIndexedAccess(Operation *op,
                                         ArrayRef<int64_t> dimensionMap,
                                         Type indicesType, Type indexed,
                                         Type slices) {
  if (dimensionMap.empty())
    return op->emitOpError("dimension_map must not be empty");
  int64_t rank = getRank(indexed);
  for (int64_t dim : dimensionMap)
    if (dim < 0 || dim >= rank)
      return op->emitOpError("dimension_map entry ")
             << dim << " is out of range for rank " << rank;
  int64_t depth = dimensionMap.size();
  int64_t batchRank = getBatchRank(dimensionMap, indexed, slices);
  if (depth > rank || batchRank < 0)
    return op->emitOpError("expected rank ")
           << getRank(slices) << " slices of a rank " << rank
           << " tensor indexed " << depth << " deep";
  auto indices = cast<RankedTensorType>(indicesType);
  bool withDepthDim = indices.getRank() == batchRank + 1;
  if (!withDepthDim && !(indices.getRank() == batchRank && depth == 1))
    return op->emitOpError("expected indices of rank ")
           << batchRank + 1 << " (or " << batchRank
           << " for an index depth of 1), found " << indices.getRank();
  int64_t lastDim = indices.getShape().empty() ? 1 : indices.getShape().back();
  if (withDepthDim && !ShapedType::isDynamic(lastDim) && lastDim != depth)
    return op->emitOpError("index depth ")
           << lastDim << " differs from the dimension_map size " << depth;
  return success();
}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

LogicalResult ScatterOp::verify() {
  if (failed(
          verifyIndexedAccess(*this, getDimensionMap(), getIndices().getType(),
                              getOriginal().getType(), getUpdates().getType())))
    return failure();
  return verifyBlockArgCount(*this, getRegion(), 2);
}

LogicalResult GatherOp::verify() {
  return verifyIndexedAccess(*this, getDimensionMap(), getIndices().getType(),
                             getSource().getType(), getOutput().getType());
}

LogicalResult SortOp::verify() {
  if (getOutputs().empty())
    return emitOpError("expected at least one output");
  int64_t rank = getRank(getOutputs().front().getType());
  for (Value output : getOutputs())
    if (getRank(output.getType()) != rank)
      return emitOpError("expected all outputs to have rank ") << rank;
  if (getDimension() < 0 || getDimension() >= rank)
    return emitOpError("dimension ")
           << getDimension() << " is out of range for rank " << rank;
  return verifyBlockArgCount(*this, getRegion(), 2 * getOutputs().size());
}

LogicalResult TopkOp::verify() {
  int64_t rank = getValues().getType().getRank();
  if (getDimension() < 0 || getDimension() >= rank)
    return emitOpError("dimension ")
           << getDimension() << " is out of range for rank " << rank;
  if (getOutputValues().getType().getRank() != rank ||
      getOutputIndices().getType().getRank() != rank)
    return emitOpError("expected outputs of rank ") << rank;
  return verifyBlockArgCount(*this, getRegion(), 2);
}

LogicalResult FftOp::verify() {
  if (getReal().getType() != getImag().getType())
    return emitOpError("expected real and imag of the same type");
  if (!getStage().getType().isIntOrIndex())
    return emitOpError("expected an integer or index stage");
  return success();
}

LogicalResult CustomOp::verify() {
  if (failed(verifyIndexingMaps(*this, getIndexingMaps(),
                                getIteratorTypes().size())))
    return failure();
  return verifyBlockArgCount(*this, getRegion(), getNumOperands());
}

LogicalResult AttentionOp::verify() {
  if (failed(verifyIndexingMaps(*this, getIndexingMaps(), std::nullopt)))
    return failure();
  return verifyBlockArgCount(*this, getRegion(), 1);
}

LogicalResult OnlineAttentionOp::verify() {
  if (failed(verifyIndexingMaps(*this, getIndexingMaps(), std::nullopt)))
    return failure();
  return verifyBlockArgCount(*this, getRegion(), 1);
}

//===----------------------------------------------------------------------===//
// Loop structure (IREE's LinalgFusionOpInterface)
//===----------------------------------------------------------------------===//

static SmallVector<AffineMap> getMaps(ArrayAttr maps) {
  return llvm::map_to_vector(maps.getAsValueRange<AffineMapAttr>(),
                             [](AffineMap map) { return map; });
}

// Loop sizes read off the operands' static dims; a loop two operands give
// different sizes stays dynamic.
static SmallVector<int64_t> inferStaticLoopRanges(ValueRange operands,
                                                  ArrayRef<AffineMap> maps,
                                                  unsigned numLoops) {
  SmallVector<int64_t> ranges(numLoops, ShapedType::kDynamic);
  SmallVector<bool> conflicting(numLoops, false);
  for (auto [operand, map] : llvm::zip(operands, maps)) {
    for (auto [size, expr] :
         llvm::zip(getShape(operand.getType()), map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (!dim || ShapedType::isDynamic(size) || conflicting[dim.getPosition()])
        continue;
      int64_t &range = ranges[dim.getPosition()];
      if (ShapedType::isDynamic(range)) {
        range = size;
      } else if (range != size) {
        range = ShapedType::kDynamic;
        conflicting[dim.getPosition()] = true;
      }
    }
  }
  return ranges;
}

// Scatter iterates over `updates`; with non-unique indices two batch
// entries may hit one slot, so the batch loops are reductions.
SmallVector<utils::IteratorType> ScatterOp::getLoopIteratorTypes() {
  int64_t rank = getUpdates().getType().getRank();
  SmallVector<utils::IteratorType> types(rank, utils::IteratorType::parallel);
  if (!getUniqueIndices()) {
    int64_t batchRank = getBatchRank(getDimensionMap(), getOriginal().getType(),
                                     getUpdates().getType());
    for (int64_t i = 0; i < std::min(batchRank, rank); ++i)
      types[i] = utils::IteratorType::reduction;
  }
  return types;
}

SmallVector<int64_t> ScatterOp::getStaticLoopRanges() {
  return llvm::to_vector(getUpdates().getType().getShape());
}

// The batch dims of a mask are the leading loops.
static AffineMap getLeadingLoopsMap(MLIRContext *ctx, unsigned numLoops,
                                    unsigned numLeading) {
  SmallVector<AffineExpr> results;
  for (unsigned i = 0; i < std::min(numLoops, numLeading); ++i)
    results.push_back(getAffineDimExpr(i, ctx));
  return AffineMap::get(numLoops, 0, results, ctx);
}

// `original` is written at data-dependent positions: no map.
SmallVector<AffineMap> ScatterOp::getIndexingMapsForOperands() {
  Builder b(getContext());
  unsigned rank = getUpdates().getType().getRank();
  SmallVector<AffineMap> maps = {
      b.getMultiDimIdentityMap(rank),
      b.getMultiDimIdentityMap(getIndices().getType().getRank())};
  if (getMask())
    maps.push_back(getLeadingLoopsMap(getContext(), rank,
                                      getBatchRank(getDimensionMap(),
                                                   getOriginal().getType(),
                                                   getUpdates().getType())));
  maps.push_back(AffineMap());
  return maps;
}

SmallVector<AffineMap> ScatterOp::getIndexingMapsForResults() {
  return {AffineMap()};
}

SmallVector<utils::IteratorType> GatherOp::getLoopIteratorTypes() {
  return SmallVector<utils::IteratorType>(getOutput().getType().getRank(),
                                          utils::IteratorType::parallel);
}

SmallVector<int64_t> GatherOp::getStaticLoopRanges() {
  return llvm::to_vector(getOutput().getType().getShape());
}

// `source` is read at data-dependent positions: no map.
SmallVector<AffineMap> GatherOp::getIndexingMapsForOperands() {
  Builder b(getContext());
  unsigned rank = getOutput().getType().getRank();
  SmallVector<AffineMap> maps = {
      AffineMap(), b.getMultiDimIdentityMap(getIndices().getType().getRank())};
  if (getMask())
    maps.push_back(getLeadingLoopsMap(getContext(), rank,
                                      getBatchRank(getDimensionMap(),
                                                   getSource().getType(),
                                                   getOutput().getType())));
  maps.push_back(b.getMultiDimIdentityMap(rank));
  return maps;
}

SmallVector<AffineMap> GatherOp::getIndexingMapsForResults() {
  Builder b(getContext());
  return {b.getMultiDimIdentityMap(getOutput().getType().getRank())};
}

SmallVector<utils::IteratorType> CustomOp::getLoopIteratorTypes() {
  return llvm::map_to_vector(
      getIteratorTypes().getAsRange<IteratorTypeAttr>(),
      [](IteratorTypeAttr attr) { return attr.getValue(); });
}

SmallVector<int64_t> CustomOp::getStaticLoopRanges() {
  return inferStaticLoopRanges(getOperands(), getMaps(getIndexingMaps()),
                               getIteratorTypes().size());
}

SmallVector<AffineMap> CustomOp::getIndexingMapsForOperands() {
  return getMaps(getIndexingMaps());
}

SmallVector<AffineMap> CustomOp::getIndexingMapsForResults() {
  SmallVector<AffineMap> maps = getMaps(getIndexingMaps());
  return SmallVector<AffineMap>(llvm::drop_begin(maps, getInputs().size()));
}

// Attention's reductions are K1 and K2: the key's loops that do not index
// the output. Every other loop is parallel.
static SmallVector<utils::IteratorType>
getAttentionIteratorTypes(ArrayAttr mapsAttr, unsigned outputIndex) {
  SmallVector<AffineMap> maps = getMaps(mapsAttr);
  AffineMap key = maps[1], output = maps[outputIndex];
  SmallVector<utils::IteratorType> types(output.getNumDims(),
                                         utils::IteratorType::parallel);
  for (AffineExpr expr : key.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (dim && !output.isFunctionOfDim(dim.getPosition()))
      types[dim.getPosition()] = utils::IteratorType::reduction;
  }
  return types;
}

// As IREE, attention's loop sizes come from the query and the value alone.
static SmallVector<int64_t> getAttentionLoopRanges(Operation *op,
                                                   ArrayAttr mapsAttr) {
  SmallVector<AffineMap> maps = getMaps(mapsAttr);
  Value query = op->getOperand(0), value = op->getOperand(2);
  return inferStaticLoopRanges({query, value}, {maps[0], maps[2]},
                               maps[0].getNumDims());
}

SmallVector<utils::IteratorType> AttentionOp::getLoopIteratorTypes() {
  return getAttentionIteratorTypes(getIndexingMaps(), getNumOperands() - 1);
}

SmallVector<int64_t> AttentionOp::getStaticLoopRanges() {
  return getAttentionLoopRanges(*this, getIndexingMaps());
}

SmallVector<AffineMap> AttentionOp::getIndexingMapsForOperands() {
  return getMaps(getIndexingMaps());
}

SmallVector<AffineMap> AttentionOp::getIndexingMapsForResults() {
  return {getMaps(getIndexingMaps()).back()};
}

SmallVector<utils::IteratorType> OnlineAttentionOp::getLoopIteratorTypes() {
  return getAttentionIteratorTypes(getIndexingMaps(), getNumOperands() - 3);
}

SmallVector<int64_t> OnlineAttentionOp::getStaticLoopRanges() {
  return getAttentionLoopRanges(*this, getIndexingMaps());
}

SmallVector<AffineMap> OnlineAttentionOp::getIndexingMapsForOperands() {
  return getMaps(getIndexingMaps());
}

SmallVector<AffineMap> OnlineAttentionOp::getIndexingMapsForResults() {
  SmallVector<AffineMap> maps = getMaps(getIndexingMaps());
  return SmallVector<AffineMap>(llvm::drop_begin(maps, maps.size() - 3));
}

#define GET_OP_CLASSES
#include "compat/LinalgExtCompatOps.cpp.inc"
