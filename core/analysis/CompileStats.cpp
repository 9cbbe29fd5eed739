//===- CompileStats.cpp - what `dispatchlab compile` reports --------------===//

#include "core/analysis/CompileStats.h"

#include "compat/EncodingCompatDialect.h"
#include "core/support/WeightArguments.h"
#include "heuristics/OpClassification.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
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

bool isInInitializer(Operation *op) {
  for (; op; op = op->getParentOp())
    if (op->hasAttr(kInitializerOfAttr))
      return true;
  return false;
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

/// Arithmetic ops per iteration of `op`'s payload. Constants and casts are
/// left out: they convert or name a value rather than compute one, and a
/// mixed-precision matmul's widening would otherwise double its count.
static int64_t countPayloadOps(linalg::LinalgOp op) {
  int64_t count = 0;
  op.getBlock()->walk([&](Operation *nested) {
    if (isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
            nested->getDialect()) &&
        !isa<arith::ConstantOp, CastOpInterface>(nested))
      ++count;
  });
  return count;
}

/// See DispatchGroupStats::flops.
static int64_t countFlops(dispatch::RegionOp region) {
  int64_t flops = 0;
  region.getBody().walk([&](linalg::LinalgOp op) {
    int64_t iterations = 1;
    for (int64_t range : op.getStaticLoopRanges())
      iterations = ShapedType::isDynamic(range) ? 0 : iterations * range;
    flops += iterations * countPayloadOps(op);
  });
  return flops;
}

/// True when the region uses `value` only as the destination of
/// insert_slices whose results it returns or inserts into again: it
/// overwrites part of the tensor in place and never reads it.
static bool isOnlyInsertedInto(Value value, Region &body,
                               bool mayBeReturned = false) {
  bool used = false;
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (!body.isAncestor(user->getParentRegion()))
      continue;
    used = true;
    if (mayBeReturned && isa<dispatch::ReturnOp>(user))
      continue;
    auto insert = dyn_cast<tensor::InsertSliceOp>(user);
    if (!insert || &use != &insert.getDestMutable() ||
        !isOnlyInsertedInto(insert.getResult(), body, /*mayBeReturned=*/true))
      return false;
  }
  return used;
}

/// Bytes the region reads of the captured `value`: the slices it extracts
/// when that is all it does with it (a split's consumer reads its part),
/// else the whole tensor.
static int64_t getReadBytes(Value value, Region &body) {
  int64_t whole = getStaticByteSize(value.getType());
  int64_t sliced = 0;
  for (OpOperand &use : value.getUses()) {
    if (!body.isAncestor(use.getOwner()->getParentRegion()))
      continue;
    auto slice = dyn_cast<tensor::ExtractSliceOp>(use.getOwner());
    if (!slice)
      return whole;
    sliced += getStaticByteSize(slice.getType());
  }
  return std::min(whole, sliced);
}

/// Empties hold no data and inlined constants are materialized in the
/// dispatch: neither is loaded from memory.
static bool holdsNoLoadedData(Value value) {
  Operation *def = value.getDefiningOp();
  return def && (isa<tensor::EmptyOp>(def) ||
                 (def->hasTrait<OpTrait::ConstantLike>() &&
                  isClonedIntoDispatch(def)));
}

/// See DispatchGroupStats::bytesRead.
static int64_t countBytesRead(dispatch::RegionOp region,
                              ArrayRef<Value> captured) {
  Region &body = region.getBody();
  // Views of one buffer (reshapes outside) are one tensor, read at most once.
  llvm::MapVector<Value, int64_t> perBuffer;
  for (Value value : captured) {
    if (!isa<RankedTensorType>(value.getType()) || holdsNoLoadedData(value) ||
        isOnlyInsertedInto(value, body))
      continue;
    perBuffer[stripViewOps(value)] += getReadBytes(value, body);
  }
  int64_t bytes = 0;
  for (auto [buffer, read] : perBuffer)
    bytes += std::min(read, getStaticByteSize(buffer.getType()));
  return bytes;
}

/// Bytes the region writes for `result`: only the inserted slices when it
/// inserts them into a tensor captured from above, else all of it.
static int64_t getWrittenBytes(Value result, Region &body) {
  int64_t whole = getStaticByteSize(result.getType());
  int64_t inserted = 0;
  Value value = result;
  while (auto insert = value.getDefiningOp<tensor::InsertSliceOp>()) {
    if (!body.isAncestor(insert->getParentRegion()))
      break;
    inserted += getStaticByteSize(insert.getSourceType());
    value = insert.getDest();
  }
  bool intoCaptured =
      value != result && !body.isAncestor(value.getParentRegion());
  return intoCaptured ? std::min(whole, inserted) : whole;
}

/// See DispatchGroupStats::bytesWritten.
static int64_t countBytesWritten(dispatch::RegionOp region) {
  // A value returned twice is still one buffer.
  llvm::SetVector<Value> results;
  for (Value value : region.getReturnOp().getOperands())
    results.insert(value);
  int64_t bytes = 0;
  for (Value value : results)
    bytes += getWrittenBytes(value, region.getBody());
  return bytes;
}

DispatchWork computeDispatchWork(dispatch::RegionOp region,
                                 ArrayRef<Value> captured) {
  DispatchWork work;
  work.flops = countFlops(region);
  work.bytesRead = countBytesRead(region, captured);
  work.bytesWritten = countBytesWritten(region);
  return work;
}

/// Pools slide a window like convolutions but only add or compare.
static bool hasMultiply(linalg::LinalgOp op) {
  return llvm::any_of(op.getBlock()->getOperations(), [](Operation &nested) {
    return isa<arith::MulFOp, arith::MulIOp>(nested);
  });
}

/// The rootShapeClass of a convolution (pools included).
static std::string classifyConv(linalg::LinalgOp op) {
  if (!hasMultiply(op))
    return "pool";
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(op);
  // classifyRoot's isaConvolutionOpInterface inferred these dims already.
  if (failed(dims))
    return "conv_kxk";
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  std::string shape = "conv_kxk";
  if (!dims->depth.empty())
    shape = "conv_depthwise";
  else if (llvm::all_of(dims->filterLoop,
                        [&](unsigned loop) { return ranges[loop] == 1; }))
    shape = "conv_1x1";
  if (llvm::any_of(dims->strides, [](int64_t stride) { return stride > 1; }))
    shape += "_strided";
  return shape;
}

/// The rootShapeClass of a contraction.
static std::string classifyContraction(linalg::LinalgOp op) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims))
    return "matmul";
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto nonUnit = [&](ArrayRef<unsigned> loops) {
    return llvm::count_if(loops,
                          [&](unsigned loop) { return ranges[loop] != 1; });
  };
  if (nonUnit(dims->batch) > 0)
    return "batch_matmul";
  return nonUnit(dims->m) >= 2 ? "conv_1x1" : "matmul";
}

/// A 1x1 convolution with a stride above 1 as the importer writes it: a
/// multiply-accumulate reading its image at `d * stride` and its filter at
/// plain loops. Upstream's matchers see neither a convolution (there is no
/// filter window) nor a contraction (the image map is strided), so
/// classifyRoot calls it a reduction.
static bool isStridedPointwiseConv(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || !hasMultiply(op))
    return false;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!maps[1].isProjectedPermutation())
    return false;
  bool strided = false;
  for (AffineExpr expr : maps[0].getResults()) {
    if (isa<AffineDimExpr>(expr))
      continue;
    auto mul = dyn_cast<AffineBinaryOpExpr>(expr);
    if (!mul || mul.getKind() != AffineExprKind::Mul ||
        !isa<AffineDimExpr>(mul.getLHS()) ||
        !isa<AffineConstantExpr>(mul.getRHS()))
      return false;
    strided = true;
  }
  return strided;
}

/// See DispatchGroupStats::rootShapeClass.
static std::string classifyRootShape(Operation *root, StringRef rootClass) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(root);
  if (!linalgOp)
    return isa_and_nonnull<tensor::TensorDialect>(root->getDialect()) ||
                   isa<linalg::PackOp, linalg::UnPackOp>(root)
               ? "copy"
               : "other";
  if (rootClass == "conv")
    return classifyConv(linalgOp);
  if (rootClass == "contraction")
    return classifyContraction(linalgOp);
  if (rootClass == "reduction" && isStridedPointwiseConv(linalgOp))
    return "conv_1x1_strided";
  if (rootClass == "elementwise" && countPayloadOps(linalgOp) == 0)
    return "copy";
  return rootClass.str();
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
    group.rootShapeClass = classifyRootShape(root, group.rootClass);
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
  DispatchWork work = computeDispatchWork(region, captured);
  group.flops = work.flops;
  group.bytesRead = work.bytesRead;
  group.bytesWritten = work.bytesWritten;
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
    if (op->getParentOfType<dispatch::RegionOp>() || isInInitializer(op))
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
