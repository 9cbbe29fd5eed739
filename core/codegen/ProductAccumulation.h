//===- ProductAccumulation.h - ops a zero input leaves unchanged -*- C++
//-*-===//

#ifndef DISPATCHLAB_CORE_CODEGEN_PRODUCTACCUMULATION_H
#define DISPATCHLAB_CORE_CODEGEN_PRODUCTACCUMULATION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace dispatchlab {

/// Whether `generic` only adds to its one init the products of its input
/// operand `input` with something (a convolution, a matmul): where that
/// input is zero, the init stays as it is.
bool accumulatesProductsOf(mlir::linalg::GenericOp generic, unsigned input);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_CODEGEN_PRODUCTACCUMULATION_H
