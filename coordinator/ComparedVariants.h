//===- ComparedVariants.h - the variants of one COMPARE job -----*- C++ -*-===//
//
// A COMPARE job times several variants of one model in one child, so its
// `options` (the jobs table's column, the lease's field) hold every
// variant's name, preset and canonical options, the baseline first. This is
// that text, written by the expander and read back by the worker.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_COORDINATOR_COMPAREDVARIANTS_H
#define DISPATCHLAB_COORDINATOR_COMPAREDVARIANTS_H

#include "coordinator/SweepExpander.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace dispatchlab {

/// `variants` as a JSON array of {name, preset, options}, in order.
std::string formatComparedVariants(llvm::ArrayRef<ResolvedVariant> variants);

/// The variants of formatComparedVariants' text (kind COMPARE), or why the
/// text is not that.
llvm::Expected<std::vector<ResolvedVariant>>
parseComparedVariants(llvm::StringRef text);

} // namespace dispatchlab

#endif // DISPATCHLAB_COORDINATOR_COMPAREDVARIANTS_H
