//===- HoistIntoGlobals.cpp - weight-only work into the initializer -------===//
//
// Mirrors IREE's HoistIntoGlobals (Dialect/Util/Transforms), which the
// GlobalOptimization pipeline runs last under --iree-opt-const-expr-hoisting:
// every value ConstExprAnalysis picks is computed once, outside the program,
// and IREE's const-eval then folds it into a constant, so it forms no
// dispatch. IREE keeps each in a util.global; here the weights are the
// host's arguments, so the hoisted values are the results of the host's
// initializer, bound to new host arguments (core/support/WeightArguments.h).
//
//===----------------------------------------------------------------------===//

#include "globalopt/ConstExprAnalysis.h"
#include "globalopt/Passes.h"

#include "compat/UtilCompatDialect.h"
#include "core/support/WeightArguments.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/BitVector.h"

namespace dispatchlab::globalopt {
#define GEN_PASS_DEF_HOISTINTOGLOBALSPASS
#include "globalopt/Passes.h.inc"
} // namespace dispatchlab::globalopt

using namespace mlir;
using namespace dispatchlab;

namespace {
/// The initializer being built for one host: a private util.func whose
/// arguments are the host's weights the hoisted trees read.
class InitializerBuilder {
public:
  InitializerBuilder(func::FuncOp host) : host(host) {
    OpBuilder builder(host);
    MLIRContext *context = host.getContext();
    initializer = util::FuncOp::create(
        builder, host.getLoc(),
        StringAttr::get(context, host.getName() + "_initializer"),
        TypeAttr::get(FunctionType::get(context, {}, {})),
        StringAttr::get(context, "private"), ArrayAttr(), ArrayAttr());
    initializer->setAttr(kInitializerOfAttr,
                         FlatSymbolRefAttr::get(host.getNameAttr()));
    body = new Block();
    initializer.getBody().push_back(body);
  }

  /// Clones `value` and the constant expressions it reads, once each.
  Value clone(Value value) {
    if (Value cloned = mapping.lookupOrNull(value))
      return cloned;
    if (auto argument = dyn_cast<BlockArgument>(value)) {
      BlockArgument bound = body->addArgument(value.getType(), value.getLoc());
      boundArguments.push_back(argument.getArgNumber());
      mapping.map(value, bound);
      return bound;
    }
    Operation *op = value.getDefiningOp();
    for (Value producer : globalopt::getProducers(op))
      clone(producer);
    OpBuilder builder = OpBuilder::atBlockEnd(body);
    builder.clone(*op, mapping);
    return mapping.lookup(value);
  }

  /// Returns `values` (cloned) and gives the function its type and tags.
  void finish(ArrayRef<Value> values, SymbolTable &symbols) {
    OpBuilder builder = OpBuilder::atBlockEnd(body);
    util::ReturnOp::create(builder, host.getLoc(), values);
    initializer.setFunctionType(
        FunctionType::get(host.getContext(), body->getArgumentTypes(),
                          ValueRange(values).getTypes()));
    for (auto [index, hostArgument] : llvm::enumerate(boundArguments))
      initializer.setArgAttr(index, kHostArgumentAttr,
                             builder.getI64IntegerAttr(hostArgument));
    symbols.insert(initializer);
  }

  util::FuncOp getFunction() { return initializer; }

private:
  func::FuncOp host;
  util::FuncOp initializer;
  Block *body;
  IRMapping mapping;
  SmallVector<int64_t> boundArguments;
};

/// Erases the host's ops left without users, then the hoisted arguments no
/// op reads any more (a value hoisted only for a kept reshape that a larger
/// hoisted tree then absorbed) and their initializer results.
void dropDeadWork(func::FuncOp host, util::FuncOp initializer,
                  unsigned firstHoisted) {
  Block &block = host.front();
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
    if (isOpTriviallyDead(&op))
      op.erase();
  llvm::BitVector deadArguments(host.getNumArguments());
  llvm::BitVector deadResults(initializer.getNumResults());
  for (unsigned index = firstHoisted; index < host.getNumArguments(); ++index)
    if (host.getArgument(index).use_empty()) {
      deadArguments.set(index);
      deadResults.set(index - firstHoisted);
    }
  (void)host.eraseArguments(deadArguments);
  Operation *terminator = initializer.getBody().front().getTerminator();
  SmallVector<Value> live;
  for (auto [index, value] : llvm::enumerate(terminator->getOperands()))
    if (!deadResults.test(index))
      live.push_back(value);
  terminator->setOperands(live);
  initializer.setFunctionType(FunctionType::get(host.getContext(),
                                                initializer.getArgumentTypes(),
                                                ValueRange(live).getTypes()));
  for (unsigned index = firstHoisted; index < host.getNumArguments(); ++index)
    host.setArgAttr(index, kPackedAttr,
                    Builder(host).getI64IntegerAttr(index - firstHoisted));
}

void hoistFunction(func::FuncOp host, int64_t maxSizeIncreaseThreshold,
                   SymbolTable &symbols) {
  globalopt::ConstExprAnalysis analysis(host, maxSizeIncreaseThreshold);
  ArrayRef<Value> hoisted = analysis.getHoistedValues();
  if (hoisted.empty())
    return;
  InitializerBuilder initializer(host);
  SmallVector<Value> results;
  for (Value value : hoisted)
    results.push_back(initializer.clone(value));
  initializer.finish(results, symbols);
  unsigned firstHoisted = host.getNumArguments();
  for (Value value : hoisted) {
    (void)host.insertArgument(host.getNumArguments(), value.getType(),
                              /*argAttrs=*/{}, value.getLoc());
    value.replaceAllUsesWith(host.getArguments().back());
  }
  dropDeadWork(host, initializer.getFunction(), firstHoisted);
}

struct HoistIntoGlobalsPass
    : globalopt::impl::HoistIntoGlobalsPassBase<HoistIntoGlobalsPass> {
  using HoistIntoGlobalsPassBase::HoistIntoGlobalsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> hosts;
    for (auto function : module.getOps<func::FuncOp>())
      if (!function.isDeclaration() && function.getBody().hasOneBlock())
        hosts.push_back(function);
    for (func::FuncOp host : hosts)
      hoistFunction(host, maxSizeIncreaseThreshold, symbols);
  }
};
} // namespace
