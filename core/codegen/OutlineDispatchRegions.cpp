//===- OutlineDispatchRegions.cpp - one function per dispatch -------------===//

#include "core/analysis/CompileStats.h"
#include "core/codegen/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

namespace dispatchlab {
#define GEN_PASS_DEF_OUTLINEDISPATCHREGIONSPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

/// The values known to be zero outside a box (FillPaddingBorders'
/// kZeroPaddedResultsAttr), by the region result or the call that produces
/// them.
using ZeroPaddedValues = llvm::DenseMap<Value, DenseI64ArrayAttr>;

void recordZeroPaddedResults(dispatch::RegionOp region, ValueRange results,
                             ZeroPaddedValues &known) {
  auto boxes = region->getAttrOfType<ArrayAttr>(kZeroPaddedResultsAttr);
  if (!boxes)
    return;
  for (auto [result, box] : llvm::zip(results, boxes))
    if (auto interior = dyn_cast<DenseI64ArrayAttr>(box); !interior.empty())
      known[result] = interior;
}

/// Moves the body of `region` into a new function `name` inserted before
/// the function holding the region, and calls it in the region's place.
void outlineRegion(dispatch::RegionOp region, StringRef name,
                   SymbolTable &symbols, ZeroPaddedValues &known) {
  auto parent = region->getParentOfType<func::FuncOp>();
  SmallVector<Value> captured = getCapturedValues(region);

  OpBuilder builder(parent);
  auto type = builder.getFunctionType(ValueRange(captured).getTypes(),
                                      region.getResultTypes());
  auto function = func::FuncOp::create(builder, region.getLoc(), name, type);
  function.setPrivate();
  // Lets later stages tell dispatches from the host function.
  function->setAttr(kDispatchFunctionAttr, builder.getUnitAttr());
  // Its work, for SerializeSmallTileLoops: counted on the region, where the
  // operands it only inserts into are still told from those it reads.
  DispatchWork work = computeDispatchWork(region, captured);
  function->setAttr(kDispatchFlopsAttr, builder.getI64IntegerAttr(work.flops));
  function->setAttr(
      kDispatchBytesAttr,
      builder.getI64IntegerAttr(work.bytesRead + work.bytesWritten));
  // Renames on a clash with a symbol of the input.
  symbols.insert(function);

  for (auto [index, value] : llvm::enumerate(captured))
    if (DenseI64ArrayAttr interior = known.lookup(value))
      function.setArgAttr(index, kZeroPaddedInteriorAttr, interior);

  Block *entry = function.addEntryBlock();
  IRMapping mapping;
  mapping.map(captured, entry->getArguments());
  builder.setInsertionPointToStart(entry);
  for (Operation &op : region.getBody().front().without_terminator())
    builder.clone(op, mapping);
  dispatch::ReturnOp terminator = region.getReturnOp();
  SmallVector<Value> results =
      llvm::map_to_vector(terminator.getOperands(), [&](Value value) {
        return mapping.lookupOrDefault(value);
      });
  func::ReturnOp::create(builder, terminator.getLoc(), results);

  builder.setInsertionPoint(region);
  auto call = func::CallOp::create(builder, region.getLoc(), function,
                                   ValueRange(captured));
  recordZeroPaddedResults(region, call.getResults(), known);
  region.replaceAllUsesWith(call.getResults());
  region.erase();
}

struct OutlineDispatchRegionsPass
    : impl::OutlineDispatchRegionsPassBase<OutlineDispatchRegionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    ZeroPaddedValues known;
    auto regions = getNamedDispatchRegions(module);
    for (auto &[region, name] : regions)
      recordZeroPaddedResults(region, region.getResults(), known);
    for (auto &[region, name] : regions) {
      if (!region->getParentOfType<func::FuncOp>()) {
        region.emitOpError("outside a func.func cannot be outlined");
        return signalPassFailure();
      }
      outlineRegion(region, name, symbols, known);
    }
  }
};

} // namespace
} // namespace dispatchlab
