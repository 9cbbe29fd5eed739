//===- ModelRunner.h - run a JIT-compiled model -----------------*- C++ -*-===//
//
// Inputs for every argument of the host function (from .npy files, from the
// model's weights, or seeded pseudo-random data), calls through
// ExecutionEngine::invokePacked with memref descriptors, times repetitions
// and compares outputs.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_MODELRUNNER_H
#define DISPATCHLAB_CORE_MODELRUNNER_H

#include "core/Npy.h"
#include "core/ParameterData.h"
#include "core/codegen/CodegenPipeline.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dispatchlab {

/// Where an input's values came from.
enum class InputSource { File, Parameter, Random };
llvm::StringRef stringify(InputSource source);

struct ModelInputs {
  std::vector<HostArray> arrays;
  std::vector<InputSource> sources;
};

/// One array per input of `model`: `files[name]` when given (type and shape
/// must match), else the weight from `parameters` for a tagged argument when
/// `parameters` is given, else pseudo-random values from `seed` (uniform in
/// [-1, 1) for floats, {0, 1} for integers and bools, so that index inputs
/// stay in bounds). Fails with `error` naming the input; `files` naming no
/// input is an error too.
std::optional<ModelInputs>
makeInputs(const CompiledModel &model,
           const std::map<std::string, HostArray> &files,
           const ParameterData *parameters, uint64_t seed, std::string &error);

/// Calls the model once on `inputs`, writing into `outputs` (allocated here
/// on first use, reused after).
bool invokeModel(const CompiledModel &model, std::vector<HostArray> &inputs,
                 std::vector<HostArray> &outputs, std::string &error);

struct LatencyStats {
  int64_t repetitions = 0;
  double medianMs = 0, meanMs = 0, stddevMs = 0, minMs = 0;
};
/// Sample statistics of `seconds`, in milliseconds.
LatencyStats summarizeLatencies(std::vector<double> seconds);

struct Difference {
  double maxAbsDiff = 0;
  double maxAbsReference = 0;
  /// maxAbsDiff / maxAbsReference (maxAbsDiff when the reference is all
  /// zeros); infinity when NaNs differ or shapes mismatch.
  double relative = 0;
};
Difference compareArrays(const HostArray &actual, const HostArray &reference);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_MODELRUNNER_H
