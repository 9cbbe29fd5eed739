//===- PrunedAttributes.h - attributes a rewritten op keeps -----*- C++ -*-===//

#ifndef DISPATCHLAB_GLOBALOPT_PRUNEDATTRIBUTES_H
#define DISPATCHLAB_GLOBALOPT_PRUNEDATTRIBUTES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace dispatchlab::globalopt {

/// The attributes of `op` a rewritten copy keeps (IREE's
/// getPrunedAttributeList). Upstream's template is not used: instantiating
/// it (an op's inline getAttributeNames()) in our binaries made libMLIR's
/// parser read linalg.generic's attribute names as empty strings.
inline llvm::SmallVector<mlir::NamedAttribute>
prunedAttributes(mlir::Operation *op) {
  llvm::SmallVector<mlir::NamedAttribute> attrs;
  for (mlir::NamedAttribute attr : op->getDiscardableAttrs())
    if (attr.getName() !=
        mlir::linalg::LinalgDialect::kMemoizedIndexingMapsAttrName)
      attrs.push_back(attr);
  return attrs;
}

} // namespace dispatchlab::globalopt

#endif // DISPATCHLAB_GLOBALOPT_PRUNEDATTRIBUTES_H
