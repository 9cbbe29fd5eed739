//===- ModelRunner.h - run a JIT-compiled model -----------------*- C++ -*-===//
//
// Inputs for every argument of the host function (from .npy files, from the
// model's weights, or seeded pseudo-random data), calls through
// ExecutionEngine::invokePacked with memref descriptors, and compares
// outputs (LatencyBenchmark.h times the calls).
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_RUNTIME_MODELRUNNER_H
#define DISPATCHLAB_CORE_RUNTIME_MODELRUNNER_H

#include "core/codegen/CodegenPipeline.h"
#include "core/runtime/ParameterData.h"
#include "core/support/FlushDenormals.h"
#include "core/support/Npy.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace dispatchlab {

/// Where an input's values came from. A packed weight is computed from
/// the weights by the model's initializer (PreparedCall runs it).
enum class InputSource { File, Parameter, Random, Packed };
llvm::StringRef stringify(InputSource source);

/// `type` and `shape` as `float32[2x3]`, for messages.
std::string describe(ElementType type, const std::vector<int64_t> &shape);

struct ModelInputs {
  std::vector<HostArray> arrays;
  std::vector<InputSource> sources;
};

/// One array per input of `model`: `files[name]` when given (type and shape
/// must match), else the weight from `parameters` for a tagged argument when
/// `parameters` is given, else pseudo-random values from `seed` (uniform in
/// [-1, 1) for floats, {0, 1} for integers and bools, so that index inputs
/// stay in bounds). Fails naming the input; `files` naming no input is an
/// error too.
llvm::Expected<ModelInputs>
makeInputs(const CompiledModel &model,
           const std::map<std::string, HostArray> &files,
           const ParameterData *parameters, uint64_t seed);

/// Arguments for ExecutionEngine::invokePacked of a function taking memref
/// descriptors: a pointer to each pointer to a ranked descriptor of an
/// array (which must outlive it and keep its storage). Moving it keeps the
/// pointers valid: the vectors' storage moves along.
class PackedArguments {
public:
  void add(HostArray &array);
  /// Valid until the next add.
  void **get();

private:
  std::vector<std::vector<int64_t>> descriptors;
  std::vector<void *> descriptorPointers;
  std::vector<void *> arguments;
};

/// One call of the model, prepared once: the JIT'd entry point looked up and
/// the memref descriptors of the arrays built, so that a timed call runs the
/// model and nothing else. The arrays must outlive it and keep their
/// storage.
class PreparedCall {
public:
  /// Allocates `outputs` when empty and runs the model's initializer, which
  /// fills the packed inputs from the weights. `inputs` may hold more arrays
  /// than the model takes: another variant's packed weights, which follow
  /// the inputs all variants share. Fails when an entry point is missing
  /// or an array does not match its input.
  static llvm::Expected<PreparedCall> create(const CompiledModel &model,
                                             std::vector<HostArray> &inputs,
                                             std::vector<HostArray> &outputs);
  /// The same with the inputs by pointer: variants of one model share the
  /// arrays of their common inputs and own their packed ones
  /// (PairedComparison.h).
  static llvm::Expected<PreparedCall> create(const CompiledModel &model,
                                             llvm::ArrayRef<HostArray *> inputs,
                                             std::vector<HostArray> &outputs);
  /// Runs the model with denormals flushed to zero, as IREE's workers run
  /// dispatches (FlushDenormals.h).
  void operator()() {
    ScopedFlushDenormals flush;
    function(argv);
  }
  /// Seconds the initializer took in create() (0 without one).
  double getInitializerSeconds() const { return initializerSeconds; }

private:
  PreparedCall() = default;
  void (*function)(void **) = nullptr;
  double initializerSeconds = 0;
  /// One per input, then per output.
  PackedArguments arguments;
  void **argv = nullptr;
};

/// Calls the model once on `inputs`, writing into `outputs` (allocated here
/// on first use, reused after).
llvm::Error invokeModel(const CompiledModel &model,
                        std::vector<HostArray> &inputs,
                        std::vector<HostArray> &outputs);

struct Difference {
  double maxAbsDiff = 0;
  double maxAbsReference = 0;
  /// Elements that are NaN or infinite in either array. Agreeing NaNs prove
  /// nothing (random weights that overflow give NaN in every variant), so
  /// any of them fails the check.
  int64_t nonFinite = 0;
  /// maxAbsDiff / maxAbsReference (maxAbsDiff when the reference is all
  /// zeros); infinity when a value is not finite, shapes mismatch, or one
  /// array is floating-point and the other is not.
  double relative = 0;
};
/// Arrays of two float types compare by value: an f16 output against the
/// f32 output of the widened reference.
Difference compareArrays(const HostArray &actual, const HostArray &reference);

/// `array` with its elements converted to `type` (HostArray::setDouble).
HostArray convertArray(const HostArray &array, ElementType type);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_RUNTIME_MODELRUNNER_H
