//===- ModelRunner.cpp - run a JIT-compiled model -------------------------===//

#include "core/ModelRunner.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
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

bool invokeModel(const CompiledModel &model, std::vector<HostArray> &inputs,
                 std::vector<HostArray> &outputs, std::string &error) {
  if (outputs.empty())
    for (const TensorSignature &output : model.outputs)
      outputs.emplace_back(output.type, output.shape);

  std::vector<std::vector<int64_t>> descriptors;
  for (HostArray &array : inputs)
    descriptors.push_back(makeDescriptor(array));
  for (HostArray &array : outputs)
    descriptors.push_back(makeDescriptor(array));
  // The C interface takes a pointer to each descriptor; the packed wrapper
  // takes a pointer to each of those arguments.
  std::vector<void *> descriptorPointers;
  for (std::vector<int64_t> &descriptor : descriptors)
    descriptorPointers.push_back(descriptor.data());
  std::vector<void *> arguments;
  for (void *&pointer : descriptorPointers)
    arguments.push_back(&pointer);

  if (llvm::Error failure =
          model.engine->invokePacked(model.entrySymbol, arguments)) {
    error = llvm::toString(std::move(failure));
    return false;
  }
  return true;
}

LatencyStats summarizeLatencies(std::vector<double> seconds) {
  LatencyStats stats;
  stats.repetitions = seconds.size();
  if (seconds.empty())
    return stats;
  for (double &value : seconds)
    value *= 1e3;
  std::sort(seconds.begin(), seconds.end());
  size_t n = seconds.size();
  stats.medianMs =
      n % 2 ? seconds[n / 2] : (seconds[n / 2 - 1] + seconds[n / 2]) / 2;
  stats.minMs = seconds.front();
  stats.meanMs = std::accumulate(seconds.begin(), seconds.end(), 0.0) / n;
  double squares = 0;
  for (double value : seconds)
    squares += (value - stats.meanMs) * (value - stats.meanMs);
  stats.stddevMs = n > 1 ? std::sqrt(squares / (n - 1)) : 0;
  return stats;
}

Difference compareArrays(const HostArray &actual, const HostArray &reference) {
  Difference difference;
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  if (actual.shape != reference.shape || actual.type != reference.type) {
    difference.maxAbsDiff = difference.relative = kInfinity;
    return difference;
  }
  for (int64_t i = 0, e = reference.numElements(); i < e; ++i) {
    double a = actual.getDouble(i), r = reference.getDouble(i);
    if (std::isnan(a) || std::isnan(r)) {
      if (std::isnan(a) != std::isnan(r))
        difference.maxAbsDiff = kInfinity;
      continue;
    }
    difference.maxAbsDiff = std::max(difference.maxAbsDiff, std::fabs(a - r));
    difference.maxAbsReference =
        std::max(difference.maxAbsReference, std::fabs(r));
  }
  difference.relative = difference.maxAbsReference > 0
                            ? difference.maxAbsDiff / difference.maxAbsReference
                            : difference.maxAbsDiff;
  return difference;
}

} // namespace dispatchlab
