//===- ReferenceCache.h - the reference's outputs, kept on disk -*- C++ -*-===//
//
// Every variant of a model is checked against the same reference: the
// no-fusion variant compiled to scalar loops, called on the same inputs.
// Its outputs are computed once per model, import options, inputs and
// build of dispatchlab, and read back for every later variant, so that a
// sweep compiles and runs the slowest code of all only once per model.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_RUNTIME_REFERENCECACHE_H
#define DISPATCHLAB_CORE_RUNTIME_REFERENCECACHE_H

#include "core/runtime/ModelRunner.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace dispatchlab {

struct RunOptions;

/// What the checks need of the reference.
struct ReferenceOutputs {
  std::vector<HostArray> outputs;
  int64_t dispatches = 0;
};

/// A hash of all the reference's outputs depend on: the model file's bytes,
/// the import options, the weights' source and seed, the threads, the input
/// arrays (packed ones excepted: the reference packs nothing), and the
/// build (commit, LLVM, host CPU and features) that compiles it.
llvm::Expected<std::string> getReferenceKey(const RunOptions &options,
                                            const ModelInputs &inputs);

/// An entry's payload: a line with the dispatch and output counts, then
/// per output a line with its byte count and its .npy bytes.
std::string formatReferenceEntry(const ReferenceOutputs &reference);
llvm::Expected<ReferenceOutputs> parseReferenceEntry(llvm::StringRef payload);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_RUNTIME_REFERENCECACHE_H
