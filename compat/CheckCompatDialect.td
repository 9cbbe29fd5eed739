//===- CheckCompatDialect.td - IREE's check.expect_almost_eq -*- tablegen -*-===//
//
// IREE's `check.expect_almost_eq`, the assertion its end-to-end inputs end
// with. Without side-effect traits (effects unknown, as a test assertion's
// are): never removed, no fusion op, so it stays outside dispatches.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_COMPAT_CHECKCOMPATDIALECT_TD
#define DISPATCHLAB_COMPAT_CHECKCOMPATDIALECT_TD

include "mlir/IR/OpBase.td"

def Check_Dialect : Dialect {
  let name = "check";
  let cppNamespace = "::dispatchlab::check";
  let summary = "IREE check.expect_almost_eq spelling";
}

def Check_ExpectAlmostEqOp : Op<Check_Dialect, "expect_almost_eq", [
    AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "Asserts two float tensors are close (numpy.isclose)";
  let description = [{
    IREE's optional HAL device operand is not supported: dispatchlab has no
    HAL types.
  }];
  let arguments = (ins TensorOf<[AnyFloat]>:$lhs, TensorOf<[AnyFloat]>:$rhs,
                       DefaultValuedAttr<F32Attr, "1.e-4f">:$atol,
                       DefaultValuedAttr<F32Attr, "0.f">:$rtol);
  let assemblyFormat = [{
    `` `(` $lhs `,` $rhs (`` `,` `atol` $atol^)? (`` `,` `rtol` $rtol^)? `)`
    attr-dict `:` type($lhs)
  }];
}

#endif // DISPATCHLAB_COMPAT_CHECKCOMPATDIALECT_TD
