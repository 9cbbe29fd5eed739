//===- CompatDialects.cpp - which dialects are IREE's spellings -----------===//

#include "compat/CompatDialects.h"

#include "compat/CheckCompatDialect.h"
#include "compat/EncodingCompatDialect.h"
#include "compat/FlowCompatDialect.h"
#include "compat/HalCompatDialect.h"
#include "compat/LinalgExtCompatDialect.h"
#include "compat/TensorExtCompatDialect.h"
#include "compat/UtilCompatDialect.h"

namespace dispatchlab {

bool isCompatOp(mlir::Operation *op) {
  return llvm::isa_and_nonnull<check::CheckDialect, encoding::EncodingDialect,
                               flow::FlowDialect, hal::HalDialect,
                               linalg_ext::LinalgExtDialect,
                               tensor_ext::TensorExtDialect, util::UtilDialect>(
      op->getDialect());
}

} // namespace dispatchlab
