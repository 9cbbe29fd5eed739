//===- FactorRepeatedGathers.cpp - gathered rows into tables --------------===//
//
// A generic that extracts from a small source at a column computed from its
// innermost loop gathers every element. When another of its loops maps many
// iterations onto few source rows (an upsampling resize: 257 output rows
// from 17), the same gathered rows are gathered again for each of them.
// This gathers each source row once into a table the generic then reads
// with plain row loads: the separable form of a resize, derived from the
// extract's indices rather than from the interpolation it computes.
//
//===----------------------------------------------------------------------===//

#include "core/codegen/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace dispatchlab {
#define GEN_PASS_DEF_FACTORREPEATEDGATHERSPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace {

/// The loops a value of `op`'s body depends on, or nothing if it depends on
/// an element of an operand or on an op that is not a pure computation
/// without regions: then it cannot be recomputed in a table's body.
std::optional<llvm::SmallBitVector> getLoopDeps(linalg::GenericOp op,
                                                Value value) {
  llvm::SmallBitVector deps(op.getNumLoops());
  SmallVector<Value> worklist = {value};
  llvm::SmallPtrSet<Operation *, 16> seen;
  Block *body = op.getBody();
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    if (isa<BlockArgument>(current) &&
        cast<BlockArgument>(current).getOwner() == body)
      return std::nullopt;
    Operation *def = current.getDefiningOp();
    if (!def || def->getBlock() != body || !seen.insert(def).second)
      continue;
    if (auto index = dyn_cast<linalg::IndexOp>(def)) {
      deps.set(index.getDim());
      continue;
    }
    if (def->getNumRegions() != 0 || !isPure(def))
      return std::nullopt;
    llvm::append_range(worklist, def->getOperands());
  }
  return deps;
}

/// An extract to read from a table instead: its source dim `row` is indexed
/// by a value depending on loop `loop` alone, its innermost index (the
/// column) on the innermost loop alone, not as that loop's own index (a
/// contiguous read), and no other index on `loop`.
struct RepeatedGather {
  tensor::ExtractOp extract;
  unsigned row;
  unsigned loop;
  /// The loops the table has besides the row dim (those the other indices
  /// depend on), in loop order.
  llvm::SmallBitVector tableLoops;
};

/// Whether `extract` in `op`'s body gathers rows that `op`'s loop revisits:
/// at least twice as many iterations as the source has rows.
std::optional<RepeatedGather> matchRepeatedGather(linalg::GenericOp op,
                                                  tensor::ExtractOp extract) {
  auto source = extract.getTensor().getType();
  unsigned innermost = op.getNumLoops() - 1;
  unsigned rank = source.getRank();
  if (rank < 2 || !source.hasStaticShape() ||
      extract.getTensor().getParentBlock() == op.getBody())
    return std::nullopt;
  SmallVector<llvm::SmallBitVector> deps;
  for (Value index : extract.getIndices()) {
    std::optional<llvm::SmallBitVector> loops = getLoopDeps(op, index);
    if (!loops)
      return std::nullopt;
    deps.push_back(*loops);
  }
  auto column = extract.getIndices().back().getDefiningOp<linalg::IndexOp>();
  if (deps.back().count() != 1 || !deps.back().test(innermost) ||
      (column && column->getBlock() == op.getBody()))
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (unsigned row = 0; row + 1 < rank; ++row) {
    if (deps[row].count() != 1 || deps[row].test(innermost))
      continue;
    unsigned loop = deps[row].find_first();
    if (2 * source.getDimSize(row) > ranges[loop])
      continue;
    llvm::SmallBitVector others(op.getNumLoops());
    for (auto [dim, loops] : llvm::enumerate(deps))
      if (dim != row)
        others |= loops;
    if (!others.test(loop))
      return RepeatedGather{extract, row, loop, others};
  }
  return std::nullopt;
}

/// The loops of `op` the table of `gather` spans, in loop order: its table
/// loops, and `gather.loop`, whose place the source's rows take.
SmallVector<unsigned> getTableLoops(linalg::GenericOp op,
                                    RepeatedGather gather) {
  SmallVector<unsigned> loops;
  for (unsigned loop = 0; loop < op.getNumLoops(); ++loop)
    if (loop == gather.loop || gather.tableLoops.test(loop))
      loops.push_back(loop);
  return loops;
}

/// `value` of `op`'s body recomputed at `builder`, each loop index `d` of
/// `op` read as index `tableDim[d]` of the op being built.
Value cloneIndexValue(OpBuilder &builder, Value value, linalg::GenericOp op,
                      const DenseMap<unsigned, unsigned> &tableDim,
                      IRMapping &mapping) {
  if (Value cloned = mapping.lookupOrNull(value))
    return cloned;
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != op.getBody())
    return value;
  if (auto index = dyn_cast<linalg::IndexOp>(def)) {
    Value cloned = linalg::IndexOp::create(builder, index.getLoc(),
                                           tableDim.at(index.getDim()));
    mapping.map(value, cloned);
    return cloned;
  }
  for (Value operand : def->getOperands())
    cloneIndexValue(builder, operand, op, tableDim, mapping);
  builder.clone(*def, mapping);
  return mapping.lookup(value);
}

/// The table of `gather`: a generic over its table loops, with the
/// source's rows in place of `gather.loop`, yielding the extract at that
/// row.
Value buildTable(RewriterBase &rewriter, linalg::GenericOp op,
                 RepeatedGather gather) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  // The table dim of each loop of `op` the table keeps.
  DenseMap<unsigned, unsigned> tableDim;
  RankedTensorType source = gather.extract.getTensor().getType();
  SmallVector<int64_t> shape;
  for (auto [dim, loop] : llvm::enumerate(getTableLoops(op, gather))) {
    tableDim[loop] = dim;
    shape.push_back(loop == gather.loop ? source.getDimSize(gather.row)
                                        : ranges[loop]);
  }
  Location loc = gather.extract.getLoc();
  rewriter.setInsertionPoint(op);
  Value init =
      tensor::EmptyOp::create(rewriter, loc, shape, source.getElementType());
  SmallVector<AffineMap> maps = {
      rewriter.getMultiDimIdentityMap(shape.size())};
  SmallVector<utils::IteratorType> iterators(shape.size(),
                                             utils::IteratorType::parallel);
  auto table = linalg::GenericOp::create(
      rewriter, loc, init.getType(), ValueRange{}, ValueRange{init}, maps,
      iterators, [&](OpBuilder &builder, Location nested, ValueRange) {
        IRMapping mapping;
        SmallVector<Value> indices;
        for (auto [dim, index] : llvm::enumerate(gather.extract.getIndices()))
          indices.push_back(
              dim == gather.row
                  ? Value(linalg::IndexOp::create(builder, nested,
                                                  tableDim[gather.loop]))
                  : cloneIndexValue(builder, index, op, tableDim, mapping));
        Value element = tensor::ExtractOp::create(
            builder, nested, gather.extract.getTensor(), indices);
        linalg::YieldOp::create(builder, nested, element);
      });
  return table.getResult(0);
}

/// Whether `a` and `b` read the same table: the same source, row dim and
/// loop, and the same values at every other index.
bool shareTable(RepeatedGather a, RepeatedGather b) {
  if (a.extract.getTensor() != b.extract.getTensor() || a.row != b.row ||
      a.loop != b.loop)
    return false;
  for (auto [dim, pair] : llvm::enumerate(
           llvm::zip(a.extract.getIndices(), b.extract.getIndices())))
    if (dim != a.row && std::get<0>(pair) != std::get<1>(pair))
      return false;
  return true;
}

/// Replaces the repeated gathers of `op` by reads of their tables. All
/// tables are built before any extract is replaced: sharing compares them.
void factorGathers(RewriterBase &rewriter, linalg::GenericOp op) {
  SmallVector<RepeatedGather> gathers;
  for (auto extract : op.getBody()->getOps<tensor::ExtractOp>())
    if (std::optional<RepeatedGather> gather = matchRepeatedGather(op, extract))
      gathers.push_back(*gather);
  SmallVector<Value> tables;
  for (auto [index, gather] : llvm::enumerate(gathers)) {
    auto *shared = llvm::find_if(
        ArrayRef(gathers).take_front(index),
        [&](const RepeatedGather &other) { return shareTable(other, gather); });
    tables.push_back(shared != gathers.begin() + index
                         ? tables[shared - gathers.begin()]
                         : buildTable(rewriter, op, gather));
  }
  // The table read at `op`'s loop indices, the row index in `loop`'s place.
  for (auto [gather, table] : llvm::zip(gathers, tables)) {
    rewriter.setInsertionPoint(gather.extract);
    SmallVector<Value> indices;
    for (unsigned loop : getTableLoops(op, gather))
      indices.push_back(loop == gather.loop
                            ? gather.extract.getIndices()[gather.row]
                            : Value(linalg::IndexOp::create(
                                  rewriter, gather.extract.getLoc(), loop)));
    rewriter.replaceOpWithNewOp<tensor::ExtractOp>(gather.extract, table,
                                                   indices);
  }
}

struct FactorRepeatedGathersPass
    : dispatchlab::impl::FactorRepeatedGathersPassBase<
          FactorRepeatedGathersPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!function->hasAttr(dispatchlab::kDispatchFunctionAttr))
      return;
    SmallVector<linalg::GenericOp> generics;
    function.walk([&](linalg::GenericOp op) {
      if (op.getNumLoops() > 1 && op.getNumReductionLoops() == 0 &&
          !op.hasDynamicShape())
        generics.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : generics)
      factorGathers(rewriter, op);
  }
};

} // namespace
