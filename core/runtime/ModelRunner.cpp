//===- ModelRunner.cpp - run a JIT-compiled model -------------------------===//

#include "core/runtime/ModelRunner.h"

#include "core/support/Timing.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>

namespace dispatchlab {

llvm::StringRef stringify(InputSource source) {
  switch (source) {
  case InputSource::File:
    return "file";
  case InputSource::Parameter:
    return "parameter";
  case InputSource::Random:
    return "random";
  case InputSource::Packed:
    return "packed";
  }
  llvm_unreachable("unknown input source");
}

std::string describe(ElementType type, const std::vector<int64_t> &shape) {
  std::string text = getElementTypeName(type).str() + "[";
  for (auto [index, dim] : llvm::enumerate(shape))
    text += (index ? "x" : "") + std::to_string(dim);
  return text + "]";
}

/// Deterministic on every platform: std::mt19937_64 is fully specified, the
/// standard distributions are not.
static HostArray makeRandom(const TensorSignature &input, uint64_t seed) {
  HostArray array(input.type, input.shape);
  std::mt19937_64 engine(seed);
  bool isFloat =
      input.type == ElementType::F16 || input.type == ElementType::BF16 ||
      input.type == ElementType::F32 || input.type == ElementType::F64;
  for (int64_t i = 0, e = array.numElements(); i < e; ++i) {
    uint64_t bits = engine();
    array.setDouble(i, isFloat ? double(bits >> 11) * 0x1.0p-52 - 1.0
                               : double(bits >> 63));
  }
  return array;
}

/// Random weights in [-1, 1] grow activations by ~sqrt(fan-in) per layer
/// until deep models overflow to NaN in every variant, which makes their
/// comparison vacuous; scaled by 1/sqrt(fan-in) (elements over the largest
/// dim: the output channels or features), they stay finite.
static void scaleByFanIn(HostArray &weight) {
  if (weight.numElements() == 0)
    return;
  int64_t fanIn = weight.numElements() / *llvm::max_element(weight.shape);
  for (int64_t i = 0, e = weight.numElements(); i < e; ++i)
    weight.setDouble(i, weight.getDouble(i) / std::sqrt(double(fanIn)));
}

/// Appends the array for `input` to `arrays` (see makeInputs), saying where
/// its values came from.
static llvm::Expected<InputSource>
appendInput(const TensorSignature &input,
            const std::map<std::string, HostArray> &files,
            const ParameterData *parameters, uint64_t seed,
            std::vector<HostArray> &arrays) {
  if (input.packedResult) {
    arrays.emplace_back(input.type, input.shape);
    return InputSource::Packed;
  }
  auto file = files.find(input.name);
  if (file != files.end()) {
    if (file->second.type != input.type || file->second.shape != input.shape)
      return llvm::createStringError(
          "input '" + input.name + "' is " + describe(input.type, input.shape) +
          " but the file holds " +
          describe(file->second.type, file->second.shape));
    arrays.push_back(file->second);
    return InputSource::File;
  }
  bool isParameter = !input.parameter.empty() || input.parameterResult;
  if (isParameter && parameters) {
    llvm::Expected<HostArray> value = parameters->get(input);
    if (!value)
      return llvm::createStringError("parameter '" + input.name +
                                     "': " + llvm::toString(value.takeError()));
    arrays.push_back(std::move(*value));
    return InputSource::Parameter;
  }
  arrays.push_back(makeRandom(input, seed));
  if (isParameter && input.shape.size() >= 2)
    scaleByFanIn(arrays.back());
  return InputSource::Random;
}

llvm::Expected<ModelInputs>
makeInputs(const CompiledModel &model,
           const std::map<std::string, HostArray> &files,
           const ParameterData *parameters, uint64_t seed) {
  for (const auto &[name, array] : files)
    if (llvm::none_of(model.inputs, [&](const TensorSignature &input) {
          return input.name == name;
        }))
      return llvm::createStringError("--input names '" + name +
                                     "', which is no input of the model");

  ModelInputs result;
  for (auto [index, input] : llvm::enumerate(model.inputs)) {
    llvm::Expected<InputSource> source =
        appendInput(input, files, parameters, seed + index, result.arrays);
    if (!source)
      return source.takeError();
    result.sources.push_back(*source);
  }
  return result;
}

namespace {
/// A ranked memref descriptor as the LLVM lowering lays it out: allocated
/// and aligned pointers, offset, sizes, strides (all 64-bit).
std::vector<int64_t> makeDescriptor(HostArray &array) {
  auto pointer = reinterpret_cast<int64_t>(array.data.data());
  std::vector<int64_t> descriptor = {pointer, pointer, 0};
  descriptor.insert(descriptor.end(), array.shape.begin(), array.shape.end());
  std::vector<int64_t> strides(array.shape.size(), 1);
  for (int i = int(array.shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * array.shape[i + 1];
  descriptor.insert(descriptor.end(), strides.begin(), strides.end());
  return descriptor;
}
} // namespace

void PackedArguments::add(HostArray &array) {
  descriptors.push_back(makeDescriptor(array));
}

void **PackedArguments::get() {
  descriptorPointers.clear();
  arguments.clear();
  for (std::vector<int64_t> &descriptor : descriptors)
    descriptorPointers.push_back(descriptor.data());
  for (void *&pointer : descriptorPointers)
    arguments.push_back(&pointer);
  return arguments.data();
}

namespace {
/// Calls the initializer: the weights it reads are in, the packed inputs
/// out.
llvm::Error runInitializer(const CompiledModel &model,
                           llvm::ArrayRef<HostArray *> inputs) {
  llvm::Expected<void (*)(void **)> function =
      model.engine->lookupPacked(model.initializerSymbol);
  // As text: the run's callers handle string errors only.
  if (!function)
    return llvm::createStringError(llvm::toString(function.takeError()));
  PackedArguments arguments;
  for (unsigned index : model.initializerArguments)
    arguments.add(*inputs[index]);
  std::vector<std::pair<unsigned, unsigned>> packed;
  for (auto [index, input] : llvm::enumerate(model.inputs))
    if (input.packedResult)
      packed.emplace_back(*input.packedResult, index);
  llvm::sort(packed);
  for (auto [result, index] : packed)
    arguments.add(*inputs[index]);
  (*function)(arguments.get());
  return llvm::Error::success();
}

/// `inputs` holds at least an array per input of `model`, each of its type
/// and shape.
llvm::Error checkInputArrays(const CompiledModel &model,
                             llvm::ArrayRef<HostArray *> inputs) {
  if (inputs.size() < model.inputs.size())
    return llvm::createStringError(
        "the model takes " + llvm::Twine(model.inputs.size()) + " inputs, " +
        llvm::Twine(inputs.size()) + " given");
  for (auto [input, array] : llvm::zip_first(model.inputs, inputs))
    if (array->type != input.type || array->shape != input.shape)
      return llvm::createStringError(
          "input '" + input.name + "' is " + describe(input.type, input.shape) +
          " but the array holds " + describe(array->type, array->shape));
  return llvm::Error::success();
}
} // namespace

llvm::Expected<PreparedCall>
PreparedCall::create(const CompiledModel &model, std::vector<HostArray> &inputs,
                     std::vector<HostArray> &outputs) {
  std::vector<HostArray *> pointers;
  for (HostArray &array : inputs)
    pointers.push_back(&array);
  return create(model, pointers, outputs);
}

llvm::Expected<PreparedCall>
PreparedCall::create(const CompiledModel &model,
                     llvm::ArrayRef<HostArray *> inputs,
                     std::vector<HostArray> &outputs) {
  if (outputs.empty())
    for (const TensorSignature &output : model.outputs)
      outputs.emplace_back(output.type, output.shape);
  if (llvm::Error error = checkInputArrays(model, inputs))
    return std::move(error);
  PreparedCall call;
  if (!model.initializerSymbol.empty()) {
    auto start = std::chrono::steady_clock::now();
    if (llvm::Error error = runInitializer(model, inputs))
      return std::move(error);
    call.initializerSeconds = secondsSince(start);
  }
  llvm::Expected<void (*)(void **)> function =
      model.engine->lookupPacked(model.entrySymbol);
  if (!function)
    return llvm::createStringError(llvm::toString(function.takeError()));
  call.function = *function;
  for (unsigned index = 0; index < model.inputs.size(); ++index)
    call.arguments.add(*inputs[index]);
  for (HostArray &array : outputs)
    call.arguments.add(array);
  call.argv = call.arguments.get();
  return call;
}

llvm::Error invokeModel(const CompiledModel &model,
                        std::vector<HostArray> &inputs,
                        std::vector<HostArray> &outputs) {
  llvm::Expected<PreparedCall> call =
      PreparedCall::create(model, inputs, outputs);
  if (!call)
    return call.takeError();
  (*call)();
  return llvm::Error::success();
}

static bool isFloatType(ElementType type) {
  return type == ElementType::F16 || type == ElementType::BF16 ||
         type == ElementType::F32 || type == ElementType::F64;
}

Difference compareArrays(const HostArray &actual, const HostArray &reference) {
  Difference difference;
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  bool comparable = actual.type == reference.type ||
                    (isFloatType(actual.type) && isFloatType(reference.type));
  if (actual.shape != reference.shape || !comparable) {
    difference.maxAbsDiff = difference.relative = kInfinity;
    return difference;
  }
  for (int64_t i = 0, e = reference.numElements(); i < e; ++i) {
    double a = actual.getDouble(i), r = reference.getDouble(i);
    if (!std::isfinite(a) || !std::isfinite(r)) {
      ++difference.nonFinite;
      continue;
    }
    difference.maxAbsDiff = std::max(difference.maxAbsDiff, std::fabs(a - r));
    difference.maxAbsReference =
        std::max(difference.maxAbsReference, std::fabs(r));
  }
  if (difference.nonFinite > 0) {
    difference.relative = kInfinity;
    return difference;
  }
  difference.relative = difference.maxAbsReference > 0
                            ? difference.maxAbsDiff / difference.maxAbsReference
                            : difference.maxAbsDiff;
  return difference;
}

HostArray convertArray(const HostArray &array, ElementType type) {
  if (array.type == type)
    return array;
  HostArray converted(type, array.shape);
  for (int64_t i = 0, e = array.numElements(); i < e; ++i)
    converted.setDouble(i, array.getDouble(i));
  return converted;
}

} // namespace dispatchlab
