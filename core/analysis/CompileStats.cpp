//===- CompileStats.cpp - what `dispatchlab compile` reports --------------===//

#include "core/analysis/CompileStats.h"

#include "compat/EncodingCompatDialect.h"
#include "heuristics/OpClassification.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/xxhash.h"

#include <set>

using namespace mlir;

namespace dispatchlab {

std::string OpNamer::getName(Operation *op) {
  std::optional<std::string> sourceName;
  // Passes may wrap the loader's NameLoc (e.g. in a FusedLoc), so search the
  // whole location rather than only its outermost layer.
  op->getLoc()->walk([&](Location loc) {
    if (auto nameLoc = dyn_cast<NameLoc>(loc)) {
      sourceName = "%" + nameLoc.getName().str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (sourceName)
    return *sourceName;

  auto func = op->getParentOfType<FunctionOpInterface>();
  if (!func)
    return op->getName().getStringRef().str();
  if (!indexInFunction.count(op)) {
    // Linalg payloads are skipped so indices count tensor-level ops only.
    unsigned index = 0;
    func->walk<WalkOrder::PreOrder>([&](Operation *nested) {
      if (nested == func.getOperation())
        return WalkResult::advance();
      indexInFunction[nested] = index++;
      return isa<linalg::LinalgOp>(nested) ? WalkResult::skip()
                                           : WalkResult::advance();
    });
  }
  return (op->getName().getStringRef() + "#" + Twine(indexInFunction[op]))
      .str();
}

bool isClonedIntoDispatch(Operation *op) {
  return isCloneableIntoDispatchOp(op, HeuristicOptions());
}

SmallVector<Value> getCapturedValues(dispatch::RegionOp region) {
  Region &body = region.getBody();
  llvm::SetVector<Value> captured;
  body.walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (!body.isAncestor(operand.getParentRegion()))
        captured.insert(operand);
  });
  return captured.takeVector();
}

static bool hasReductionLoops(Operation *op) {
  return isFusionOp(op) && llvm::is_contained(getIteratorTypes(op),
                                              utils::IteratorType::reduction);
}

Operation *getRootOp(dispatch::RegionOp region) {
  auto ops = region.getBody().front().without_terminator();
  if (ops.empty())
    return nullptr;
  for (Operation &op : ops)
    if (dispatch::DispatchDialect::hasRootAttr(&op))
      return &op;
  for (Operation &op : ops)
    if (!isClonedIntoDispatch(&op) && hasReductionLoops(&op))
      return &op;
  return &*std::prev(ops.end());
}

SmallVector<std::pair<dispatch::RegionOp, std::string>>
getNamedDispatchRegions(ModuleOp module) {
  SmallVector<std::pair<dispatch::RegionOp, std::string>> regions;
  module.walk([&](FunctionOpInterface func) {
    unsigned index = 0, encodings = 0;
    func->walk<WalkOrder::PreOrder>([&](dispatch::RegionOp region) {
      regions.emplace_back(
          region,
          region->hasAttr(kEncodingDispatchAttr)
              ? (func.getName() + "_encoding_" + Twine(encodings++)).str()
              : (func.getName() + "_dispatch_" + Twine(index++)).str());
    });
  });
  return regions;
}

bool isMetadataOnlyOp(Operation *op) {
  return isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::CastOp,
             tensor::BitcastOp, tensor::ReshapeOp>(op) &&
         !op->getParentOfType<dispatch::RegionOp>();
}

Value stripViewOps(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isMetadataOnlyOp(def))
      break;
    value = def->getOperand(0);
  }
  return value;
}

/// Prints `region` as IREE's outlining would produce it: a function taking
/// the captured values as arguments in order of first use. Locations are not
/// printed and the symbol name is fixed, so equal text means structurally
/// identical executables, as DeduplicateExecutables decides.
static std::string printOutlinedBody(dispatch::RegionOp region,
                                     ArrayRef<Value> captured) {
  OpBuilder builder(region.getContext());
  Location loc = builder.getUnknownLoc();
  auto type = builder.getFunctionType(ValueRange(captured).getTypes(),
                                      region.getResultTypes());
  // No insertion point: the function stays detached and is freed below.
  OwningOpRef<func::FuncOp> func =
      func::FuncOp::create(builder, loc, "dispatch", type);
  Block *entry = func->addEntryBlock();
  IRMapping mapping;
  mapping.map(captured, entry->getArguments());
  builder.setInsertionPointToStart(entry);
  for (Operation &op : region.getBody().front().without_terminator())
    builder.clone(op, mapping);
  SmallVector<Value> returned =
      llvm::map_to_vector(region.getReturnOp().getOperands(), [&](Value value) {
        return mapping.lookupOrDefault(value);
      });
  func::ReturnOp::create(builder, loc, returned);

  // dispatchlab's own bookkeeping attributes are not part of the computation.
  func->walk([](Operation *op) {
    for (NamedAttribute attr : llvm::to_vector(op->getDiscardableAttrs()))
      if (attr.getName().strref().starts_with("dispatchlab."))
        op->removeDiscardableAttr(attr.getName());
  });

  std::string text;
  llvm::raw_string_ostream os(text);
  func->print(os, OpPrintingFlags().useLocalScope());
  return text;
}

/// IREE generalizes every convolution before dispatch creation
/// (GeneralizeLinalgNamedOps), so op names alone would call nearly every root
/// a linalg.generic.
static StringRef classifyRoot(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return "other";
  if (linalg::isaConvolutionOpInterface(linalgOp))
    return "conv";
  if (linalg::isaContractionOpInterface(linalgOp))
    return "contraction";
  if (linalgOp.getNumReductionLoops() > 0)
    return "reduction";
  if (linalgOp.getNumLoops() == linalgOp.getNumParallelLoops())
    return "elementwise";
  return "other";
}

static DispatchGroupStats computeGroupStats(dispatch::RegionOp region,
                                            ArrayRef<Value> captured,
                                            OpNamer &namer) {
  DispatchGroupStats group;
  StringAttr kind = dispatch::DispatchDialect::getKindAttr(region);
  group.kind = kind ? kind.str() : "fused";
  if (Operation *root = getRootOp(region)) {
    group.root = namer.getName(root);
    group.rootOp = root->getName().getStringRef().str();
    group.rootClass = classifyRoot(root).str();
  }
  for (Operation &op : region.getBody().front().without_terminator()) {
    if (isClonedIntoDispatch(&op))
      group.cloned.push_back(namer.getName(&op));
    else
      group.members.push_back(namer.getName(&op));
  }
  group.numOperands = llvm::count_if(captured, [](Value value) {
    Operation *def = value.getDefiningOp();
    return isa<RankedTensorType>(value.getType()) &&
           !(def && isClonedIntoDispatch(def));
  });
  group.numResults = region->getNumResults();
  return group;
}

/// Dispatch regions by their position in the stats' groups.
using RegionIndex = llvm::DenseMap<Operation *, size_t>;
using NameSetVector = llvm::SetVector<std::string, std::vector<std::string>,
                                      std::set<std::string>>;

/// Adds what `value` reads to `reads` (see DispatchGroupStats::reads).
static void collectReads(Value value, const CompileStats &stats,
                         const RegionIndex &regions, OpNamer &namer,
                         NameSetVector &reads, llvm::DenseSet<Value> &visited) {
  value = stripViewOps(value);
  if (!isa<RankedTensorType>(value.getType()) || !visited.insert(value).second)
    return;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    reads.insert(("%arg" + Twine(arg.getArgNumber())).str());
    return;
  }
  Operation *def = value.getDefiningOp();
  if (auto it = regions.find(def); it != regions.end()) {
    reads.insert(stats.groups[it->second].name);
    return;
  }
  if (!isClonedIntoDispatch(def)) {
    reads.insert(namer.getName(def));
    return;
  }
  for (Value operand : def->getOperands())
    collectReads(operand, stats, regions, namer, reads, visited);
}

/// Fills every group's `returns` from its function's return ops.
static void addReturns(ModuleOp module, const RegionIndex &regions,
                       CompileStats &stats) {
  module.walk([&](FunctionOpInterface func) {
    for (Block &block : func.getFunctionBody()) {
      Operation *terminator = block.getTerminator();
      if (!terminator || !terminator->hasTrait<OpTrait::ReturnLike>())
        continue;
      for (auto [index, operand] : llvm::enumerate(terminator->getOperands()))
        if (auto it = regions.find(stripViewOps(operand).getDefiningOp());
            it != regions.end())
          stats.groups[it->second].returns.push_back(index);
    }
  });
}

// set_encoding ops still inside a contraction's dispatch after
// HoistEncodingOps. One its dispatch returns was fused into its producer
// (FuseEncodingOpsIntoDispatchRegions).
static void addEncodings(ModuleOp module, const RegionIndex &regions,
                         OpNamer &namer, CompileStats &stats) {
  module.walk([&](encoding::SetEncodingOp op) {
    ++stats.setEncodings;
    auto region = op->getParentOfType<dispatch::RegionOp>();
    if (!region || llvm::any_of(op->getUsers(), [](Operation *user) {
          return isa<dispatch::ReturnOp>(user);
        }))
      return;
    Operation *source = op.getSource().getDefiningOp();
    // SetEncoding gives the op its contraction's location, hence its name.
    std::string name = namer.getName(op);
    if (StringRef(name).starts_with("%"))
      name = "iree_encoding.set_encoding for " + name;
    stats.unhoistedEncodings.push_back(
        {name, stats.groups[regions.lookup(region)].name,
         source ? namer.getName(source) : std::string()});
  });
}

CompileStats computeCompileStats(ModuleOp module) {
  CompileStats stats;
  OpNamer namer;
  llvm::StringSet<> executableBodies;
  // Dispatch results read by another dispatch, each counted once.
  llvm::SetVector<Value> transients;
  RegionIndex regions;

  for (auto &[region, name] : getNamedDispatchRegions(module)) {
    SmallVector<Value> captured = getCapturedValues(region);
    DispatchGroupStats group = computeGroupStats(region, captured, namer);
    group.name = std::move(name);
    NameSetVector reads;
    llvm::DenseSet<Value> visited;
    for (Value value : captured)
      collectReads(value, stats, regions, namer, reads, visited);
    group.reads = reads.takeVector();
    regions[region] = stats.groups.size();

    std::string body = printOutlinedBody(region, captured);
    group.executableHash = llvm::utohexstr(llvm::xxh3_64bits(body),
                                           /*LowerCase=*/true, /*Width=*/16);
    executableBodies.insert(body);

    for (Value value : captured) {
      Value source = stripViewOps(value);
      // A hoisted set_encoding relayouts a dispatch result, which still
      // crosses between dispatches.
      if (auto encode = source.getDefiningOp<encoding::SetEncodingOp>())
        source = stripViewOps(encode.getSource());
      auto producer = source.getDefiningOp<dispatch::RegionOp>();
      if (producer && producer != region)
        transients.insert(source);
    }
    stats.groups.push_back(std::move(group));
  }

  module.walk([&](Operation *op) {
    if (op->getParentOfType<dispatch::RegionOp>())
      return;
    if (isa<linalg::FillOp>(op))
      ++stats.fills;
    else if (isa<tensor::ExtractSliceOp, tensor::InsertSliceOp>(op))
      ++stats.copies;
  });

  addReturns(module, regions, stats);
  addEncodings(module, regions, namer, stats);
  stats.dispatches = stats.groups.size();
  stats.executables = executableBodies.size();
  // getStaticByteSize is 0 for dynamic shapes, so those transients add 0.
  for (Value value : transients)
    stats.transientBytes += getStaticByteSize(value.getType());
  return stats;
}

} // namespace dispatchlab
