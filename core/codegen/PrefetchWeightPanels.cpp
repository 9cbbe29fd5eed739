//===- PrefetchWeightPanels.cpp - next weight panel into L2 ahead ---------===//
//
// A tile loop over weight panels (PackWeightPanels' layout) reads each panel
// from DRAM on its first use: ResNet-50's stage-4 1x1 convolutions read a
// 256 KB panel per 32 output channels, first in the pass over the first of
// their 7 pixel rows, which then waits on memory while the other six
// compute from cache. This pass spreads the loading of the next panel over
// every iteration of the current one: the innermost loop reading a panel
// prefetches its share of the next panel's lines into L2. IREE's mmt4d ukernel
// also prefetches the panels it is about to read (IREE_UK_PREFETCH_RO).
//
//===----------------------------------------------------------------------===//

#include "core/codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace dispatchlab {
#define GEN_PASS_DEF_PREFETCHWEIGHTPANELSPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

constexpr int64_t kCacheLineBytes = 64;

/// The loops between a panel's tile loop and a read of it, outermost first,
/// with the iteration count of all of them together and the panel elements
/// one iteration of the innermost reads.
struct ReadLoops {
  SmallVector<scf::ForOp> loops;
  int64_t iterations = 1;
  int64_t elementsPerIteration = 0;
};

/// The subview `%weights[%panel, 0, ...] [1, full...]` of one whole panel,
/// the tile loop whose induction variable picks it, and how many of that
/// loop's consecutive iterations read the same panel.
struct PanelRead {
  memref::SubViewOp panel;
  scf::ForOp tileLoop;
  int64_t tilesPerPanel;
};

/// The divisor of `index` = `iv floordiv divisor` (affine.apply, or
/// arith.divsi/divui once the tile loops are linearized), with `iv`; `index`
/// itself with divisor 1 otherwise.
std::pair<Value, int64_t> getPanelIndexDivisor(Value index) {
  Operation *op = index.getDefiningOp();
  if (auto apply = dyn_cast_if_present<affine::AffineApplyOp>(op)) {
    auto div = dyn_cast<AffineBinaryOpExpr>(apply.getAffineMap().getResult(0));
    if (apply.getNumOperands() == 1 && div &&
        div.getKind() == AffineExprKind::FloorDiv &&
        div.getLHS() == getAffineDimExpr(0, op->getContext()))
      if (auto divisor = dyn_cast<AffineConstantExpr>(div.getRHS()))
        return {apply.getOperand(0), divisor.getValue()};
    return {};
  }
  if (isa_and_present<arith::DivSIOp, arith::DivUIOp>(op))
    if (std::optional<int64_t> divisor = getConstantIntValue(op->getOperand(1)))
      return {op->getOperand(0), *divisor};
  return {index, 1};
}

/// `index` without a remainder by a constant (arith.remsi/remui) taken of
/// it. Two threads' linearized tile loop picks panel (t floordiv d) mod n
/// when a tile dim outside the panels' comes first (mobilenet_v2's 1x1
/// expansions: rows, then panels, then column tiles); the d / step
/// consecutive tiles of a panel are the same as without the remainder.
Value stripRemainder(Value index) {
  Operation *op = index.getDefiningOp();
  if (isa_and_present<arith::RemSIOp, arith::RemUIOp>(op) &&
      getConstantIntValue(op->getOperand(1)))
    return op->getOperand(0);
  return index;
}

/// Whether `panel` selects one whole panel of `weights` at an index that is
/// an enclosing scf.for's induction variable divided by a multiple of its
/// step, maybe modulo a constant (the tiles of one panel consecutive).
std::optional<PanelRead> getPanelRead(memref::SubViewOp panel, Value weights) {
  if (panel.getSource() != weights || !panel.hasUnitStride())
    return std::nullopt;
  auto type = cast<MemRefType>(weights.getType());
  SmallVector<OpFoldResult> offsets = panel.getMixedOffsets();
  SmallVector<OpFoldResult> sizes = panel.getMixedSizes();
  for (int64_t dim = 1; dim < type.getRank(); ++dim)
    if (!isConstantIntValue(offsets[dim], 0) ||
        getConstantIntValue(sizes[dim]) != type.getDimSize(dim))
      return std::nullopt;
  auto index = dyn_cast<Value>(offsets.front());
  if (!index || !isConstantIntValue(sizes.front(), 1))
    return std::nullopt;
  auto [inductionVar, divisor] = getPanelIndexDivisor(stripRemainder(index));
  if (!inductionVar)
    return std::nullopt;
  auto tileLoop = scf::getForInductionVarOwner(inductionVar);
  if (!tileLoop || !tileLoop->isProperAncestor(panel))
    return std::nullopt;
  std::optional<int64_t> step = getConstantIntValue(tileLoop.getStep());
  if (!step || *step <= 0 || divisor % *step)
    return std::nullopt;
  return PanelRead{panel, tileLoop, divisor / *step};
}

/// The innermost loop in `tileLoop` with a vector read of `panel` (through
/// views), and the static-trip-count loops from there out to `tileLoop`.
std::optional<ReadLoops> getReadLoops(memref::SubViewOp panel,
                                      scf::ForOp tileLoop) {
  SmallVector<Operation *> reads;
  SmallVector<Value> views = {panel.getResult()};
  while (!views.empty()) {
    Value view = views.pop_back_val();
    for (Operation *user : view.getUsers()) {
      if (auto subview = dyn_cast<memref::SubViewOp>(user))
        views.push_back(subview.getResult());
      else if (isa<vector::TransferReadOp, vector::LoadOp>(user))
        reads.push_back(user);
    }
  }
  scf::ForOp innermost;
  for (Operation *read : reads)
    if (auto loop = read->getParentOfType<scf::ForOp>())
      if (!innermost || innermost->isProperAncestor(loop))
        innermost = loop;
  if (!innermost || innermost == tileLoop)
    return std::nullopt;
  ReadLoops result;
  for (Operation *read : reads)
    if (read->getParentOp() == innermost)
      result.elementsPerIteration +=
          cast<VectorType>(read->getResult(0).getType()).getNumElements();
  for (scf::ForOp loop = innermost; loop != tileLoop;
       loop = loop->getParentOfType<scf::ForOp>()) {
    std::optional<APInt> trips = loop.getStaticTripCount();
    if (!trips || trips->isZero())
      return std::nullopt;
    result.loops.insert(result.loops.begin(), loop);
    result.iterations *= trips->getSExtValue();
  }
  return result;
}

/// Whether the read loops read their panel more than once. A panel read
/// once (a matrix-vector product's) is a stream the hardware prefetchers
/// follow; prefetching it too only adds instructions (mobilenet_v2's
/// classifier: 0.149 -> 0.174 ms).
bool isReadRepeatedly(MemRefType weights, PanelRead read,
                      const ReadLoops &loops) {
  int64_t panelElements = weights.getNumElements() / weights.getDimSize(0);
  return read.tilesPerPanel * loops.iterations * loops.elementsPerIteration >
         panelElements;
}

/// Drops inner read loops while the iterations reading one panel outnumber
/// its lines: each iteration then prefetches at least one line of its own
/// instead of a line the iteration before also prefetched, and the address
/// arithmetic runs fewer times (ResNet-50's 7x7 stem: 294 lines, 686
/// iterations of 48 FMAs each in the innermost loop).
void hoistToLineRate(ReadLoops &loops, int64_t tilesPerPanel, int64_t lines) {
  while (loops.loops.size() > 1 && tilesPerPanel * loops.iterations > lines) {
    loops.iterations /= loops.loops.back().getStaticTripCount()->getSExtValue();
    loops.loops.pop_back();
  }
}

/// Iteration g of the G iterations that read one panel, as an affine
/// function of `inductionVars` (filled in): the tile's place among its
/// panel's tiles, then the read loops linearized.
AffineExpr getPanelIteration(PanelRead read, const ReadLoops &loops,
                             SmallVectorImpl<Value> &inductionVars) {
  MLIRContext *context = read.panel.getContext();
  int64_t tileStep = *getConstantIntValue(read.tileLoop.getStep());
  inductionVars.push_back(read.tileLoop.getInductionVar());
  AffineExpr iteration =
      getAffineDimExpr(0, context).floorDiv(tileStep) % read.tilesPerPanel;
  for (scf::ForOp loop : loops.loops) {
    int64_t lower = *getConstantIntValue(loop.getLowerBound());
    int64_t step = *getConstantIntValue(loop.getStep());
    int64_t trips = loop.getStaticTripCount()->getSExtValue();
    AffineExpr iv = getAffineDimExpr(inductionVars.size(), context);
    iteration = iteration * trips + (iv - lower).floorDiv(step);
    inductionVars.push_back(loop.getInductionVar());
  }
  return iteration;
}

/// `weights` viewed as [panels, elements of a panel], made once at the
/// function's entry: a line's prefetch then costs one multiply of its index.
/// Delinearizing the line over the panel's dims instead took a divide and a
/// remainder per dim, which LLVM's SLP vectorizer spread over vector
/// registers: mobilenet_v2's 96 -> 576 expansions on two threads (16 lines an
/// iteration) took 0.123 ms that way, 0.060 without prefetches.
Value getFlatPanels(Value weights) {
  auto type = cast<MemRefType>(weights.getType());
  SmallVector<ReassociationIndices> dims = {{0}, {}};
  for (int64_t dim = 1; dim < type.getRank(); ++dim)
    dims.back().push_back(dim);
  auto builder = OpBuilder::atBlockBegin(weights.getParentBlock());
  return memref::CollapseShapeOp::create(builder, weights.getLoc(), weights,
                                         dims);
}

/// Prefetches line `line` (an index) of panel `panel` of `flatPanels`.
void prefetchLine(OpBuilder &builder, Location loc, Value flatPanels,
                  Value panel, Value line) {
  auto type = cast<MemRefType>(flatPanels.getType());
  int64_t lineElements = kCacheLineBytes * 8 / type.getElementTypeBitWidth();
  Value element = affine::AffineApplyOp::create(
      builder, loc,
      AffineMap::get(1, 0, builder.getAffineDimExpr(0) * lineElements), line);
  memref::PrefetchOp::create(builder, loc, flatPanels, {panel, element},
                             /*isWrite=*/false, /*localityHint=*/2,
                             /*isDataCache=*/true);
}

/// Inserts, first in the innermost read loop left by hoistToLineRate (after
/// the panel index if that loop computes it), the prefetches of this
/// iteration's share of the next panel's L lines: iteration g of G takes [g * L
/// / G, g * L / G + ceil(L / G)).
void prefetchNextPanel(PanelRead read, ReadLoops loops, Value flatPanels) {
  auto type = cast<MemRefType>(read.panel.getSource().getType());
  int64_t panels = type.getDimSize(0);
  int64_t lines = llvm::divideCeil(type.getNumElements() / panels *
                                       type.getElementTypeBitWidth() / 8,
                                   kCacheLineBytes);
  hoistToLineRate(loops, read.tilesPerPanel, lines);
  scf::ForOp innermost = loops.loops.back();
  OpBuilder builder = OpBuilder::atBlockBegin(innermost.getBody());
  auto panelIndex = cast<Value>(read.panel.getMixedOffsets().front());
  if (Operation *definition = panelIndex.getDefiningOp();
      definition && innermost->isAncestor(definition)) {
    if (definition->getBlock() != innermost.getBody())
      return;
    builder.setInsertionPointAfter(definition);
  }
  MLIRContext *context = builder.getContext();
  Location loc = read.panel.getLoc();
  AffineExpr d0 = builder.getAffineDimExpr(0);
  Value nextPanel = affine::AffineMinOp::create(
      builder, loc,
      AffineMap::get(1, 0, {d0 + 1, getAffineConstantExpr(panels - 1, context)},
                     context),
      panelIndex);

  SmallVector<Value> inductionVars;
  AffineExpr iteration = getPanelIteration(read, loops, inductionVars);
  int64_t iterations = read.tilesPerPanel * loops.iterations;
  // No clamp to the panel: the last iteration's lines end at
  // floor((G - 1) L / G) + ceil(L / G) = L. Where LLVM could not prove a
  // clamp away (linearized tile loops), its selects led LLVM's scheduler to
  // spill the kernel's registers (docs/codegen.md).
  for (int64_t line = 0; line < llvm::divideCeil(lines, iterations); ++line) {
    AffineExpr first = (iteration * lines).floorDiv(iterations) + line;
    Value lineIndex = affine::AffineApplyOp::create(
        builder, loc, AffineMap::get(inductionVars.size(), 0, first, context),
        inductionVars);
    prefetchLine(builder, loc, flatPanels, nextPanel, lineIndex);
  }
}

struct PrefetchWeightPanelsPass
    : impl::PrefetchWeightPanelsPassBase<PrefetchWeightPanelsPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!function->hasAttr(kDispatchFunctionAttr) || function.isExternal())
      return;
    for (BlockArgument argument : function.getArguments()) {
      auto type = dyn_cast<MemRefType>(argument.getType());
      if (!function.getArgAttr(argument.getArgNumber(), kWeightPanelsAttr) ||
          !type || !type.hasStaticShape() || type.getRank() < 2 ||
          !type.getLayout().isIdentity())
        continue;
      Value flatPanels;
      for (Operation *user : llvm::make_early_inc_range(argument.getUsers()))
        if (auto subview = dyn_cast<memref::SubViewOp>(user))
          if (std::optional<PanelRead> read = getPanelRead(subview, argument))
            if (std::optional<ReadLoops> loops =
                    getReadLoops(subview, read->tileLoop);
                loops && isReadRepeatedly(type, *read, *loops)) {
              if (!flatPanels)
                flatPanels = getFlatPanels(argument);
              prefetchNextPanel(*read, *loops, flatPanels);
            }
    }
  }
};

} // namespace
} // namespace dispatchlab
