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

static std::string describe(ElementType type,
                            const std::vector<int64_t> &shape) {
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
  bool isFloat = input.type == ElementType::F16 ||
                 input.type == ElementType::F32 ||
                 input.type == ElementType::F64;
  for (int64_t i = 0, e = array.numElements(); i < e; ++i) {
    uint64_t bits = engine();
    array.setDouble(i, isFloat ? double(bits >> 11) * 0x1.0p-52 - 1.0
                               : double(bits >> 63));
  }
  return array;
}

std::optional<ModelInputs>
makeInputs(const CompiledModel &model,
           const std::map<std::string, HostArray> &files,
           const ParameterData *parameters, uint64_t seed, std::string &error) {
  for (const auto &[name, array] : files)
    if (llvm::none_of(model.inputs, [&](const TensorSignature &input) {
          return input.name == name;
        })) {
      error = "--input names '" + name + "', which is no input of the model";
      return std::nullopt;
    }

  ModelInputs result;
  for (auto [index, input] : llvm::enumerate(model.inputs)) {
    if (input.packedResult) {
      result.arrays.emplace_back(input.type, input.shape);
      result.sources.push_back(InputSource::Packed);
      continue;
    }
    auto file = files.find(input.name);
    if (file != files.end()) {
      if (file->second.type != input.type ||
          file->second.shape != input.shape) {
        error = "input '" + input.name + "' is " +
                describe(input.type, input.shape) + " but the file holds " +
                describe(file->second.type, file->second.shape);
        return std::nullopt;
      }
      result.arrays.push_back(file->second);
      result.sources.push_back(InputSource::File);
      continue;
    }
    bool isParameter = !input.parameter.empty() || !input.parameterExpr.empty();
    if (isParameter && parameters) {
      std::optional<HostArray> value = parameters->evaluate(
          input.parameter, input.parameterExpr, input.type, input.shape, error);
      if (!value) {
        error = "parameter '" + input.name + "': " + error;
        return std::nullopt;
      }
      result.arrays.push_back(std::move(*value));
      result.sources.push_back(InputSource::Parameter);
      continue;
    }
    result.arrays.push_back(makeRandom(input, seed + index));
    // Random weights in [-1, 1] grow activations by ~sqrt(fan-in) per layer
    // until deep models overflow to NaN in every variant, which makes their
    // comparison vacuous; scaled by 1/sqrt(fan-in) (elements over the
    // largest dim: the output channels or features), they stay finite.
    if (isParameter && input.shape.size() >= 2) {
      int64_t fanIn =
          result.arrays.back().numElements() / *llvm::max_element(input.shape);
      for (int64_t i = 0, e = result.arrays.back().numElements(); i < e; ++i)
        result.arrays.back().setDouble(i, result.arrays.back().getDouble(i) /
                                              std::sqrt(double(fanIn)));
    }
    result.sources.push_back(InputSource::Random);
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
bool runInitializer(const CompiledModel &model, std::vector<HostArray> &inputs,
                    std::string &error) {
  llvm::Expected<void (*)(void **)> function =
      model.engine->lookupPacked(model.initializerSymbol);
  if (!function) {
    error = llvm::toString(function.takeError());
    return false;
  }
  PackedArguments arguments;
  for (unsigned index : model.initializerArguments)
    arguments.add(inputs[index]);
  std::vector<std::pair<unsigned, unsigned>> packed;
  for (auto [index, input] : llvm::enumerate(model.inputs))
    if (input.packedResult)
      packed.emplace_back(*input.packedResult, index);
  llvm::sort(packed);
  for (auto [result, index] : packed)
    arguments.add(inputs[index]);
  (*function)(arguments.get());
  return true;
}
} // namespace

std::optional<PreparedCall>
PreparedCall::create(const CompiledModel &model, std::vector<HostArray> &inputs,
                     std::vector<HostArray> &outputs, std::string &error) {
  if (outputs.empty())
    for (const TensorSignature &output : model.outputs)
      outputs.emplace_back(output.type, output.shape);
  if (inputs.size() < model.inputs.size()) {
    error = "the model takes " + std::to_string(model.inputs.size()) +
            " inputs, " + std::to_string(inputs.size()) + " given";
    return std::nullopt;
  }
  for (auto [input, array] : llvm::zip_first(model.inputs, inputs))
    if (array.type != input.type || array.shape != input.shape) {
      error = "input '" + input.name + "' is " +
              describe(input.type, input.shape) + " but the array holds " +
              describe(array.type, array.shape);
      return std::nullopt;
    }
  PreparedCall call;
  if (!model.initializerSymbol.empty()) {
    auto start = std::chrono::steady_clock::now();
    if (!runInitializer(model, inputs, error))
      return std::nullopt;
    call.initializerSeconds = secondsSince(start);
  }
  llvm::Expected<void (*)(void **)> function =
      model.engine->lookupPacked(model.entrySymbol);
  if (!function) {
    error = llvm::toString(function.takeError());
    return std::nullopt;
  }
  call.function = *function;
  for (unsigned index = 0; index < model.inputs.size(); ++index)
    call.arguments.add(inputs[index]);
  for (HostArray &array : outputs)
    call.arguments.add(array);
  call.argv = call.arguments.get();
  return call;
}

bool invokeModel(const CompiledModel &model, std::vector<HostArray> &inputs,
                 std::vector<HostArray> &outputs, std::string &error) {
  std::optional<PreparedCall> call =
      PreparedCall::create(model, inputs, outputs, error);
  if (!call)
    return false;
  (*call)();
  return true;
}

static bool isFloatType(ElementType type) {
  return type == ElementType::F16 || type == ElementType::F32 ||
         type == ElementType::F64;
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
