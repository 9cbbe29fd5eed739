//===- DispatchDialect.td - dispatchlab's dispatch dialect ---*- tablegen -*-===//
//
// A minimal stand-in for IREE's `flow.dispatch.region`: the unit that
// dispatch-region formation produces and that codegen later outlines.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_HEURISTICS_DISPATCHDIALECT_TD
#define DISPATCHLAB_HEURISTICS_DISPATCHDIALECT_TD

include "mlir/IR/OpBase.td"

def Dispatch_Dialect : Dialect {
  let name = "dispatch";
  let cppNamespace = "::dispatchlab::dispatch";
  let summary = "Dispatch regions formed by dispatchlab's heuristics";
  let description = [{
    A dispatch region groups the tensor computations that will be compiled
    and scheduled as one unit. Values from above are captured implicitly (as
    in `flow.dispatch.region`), so producers can be cloned in afterwards.
  }];
  // The markers formation leaves for the stats. Not `discardableAttrs`: those
  // are spelled `dispatch.<name>`, and printed IR keeps `dispatchlab.<name>`.
  let extraClassDeclaration = [{
    /// Unit attribute on the op a fused dispatch was formed around.
    static constexpr ::llvm::StringLiteral getRootAttrName() {
      return "dispatchlab.root";
    }
    static void setRootAttr(::mlir::Operation *op);
    static bool hasRootAttr(::mlir::Operation *op);

    /// String attribute on a region formed for something other than fusion:
    /// "scalar" (FormScalarDispatches) or "copy" (FormCopyDispatches).
    static constexpr ::llvm::StringLiteral getKindAttrName() {
      return "dispatchlab.kind";
    }
    static void setKindAttr(::mlir::Operation *op, ::llvm::StringRef kind);
    /// Null if `op` has no kind.
    static ::mlir::StringAttr getKindAttr(::mlir::Operation *op);
  }];
}

class Dispatch_Op<string mnemonic, list<Trait> traits = []>
    : Op<Dispatch_Dialect, mnemonic, traits>;

#endif // DISPATCHLAB_HEURISTICS_DISPATCHDIALECT_TD
