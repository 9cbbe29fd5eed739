//===- SweepSize.cpp - how many jobs a sweep spec makes -------------------===//

#include "coordinator/SweepSize.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

namespace dispatchlab {

uint64_t SweepSize::variants() const {
  if (axisValues.empty())
    return explicitVariants;
  uint64_t product = 1;
  for (uint64_t values : axisValues)
    product = llvm::SaturatingMultiply(product, values);
  return llvm::SaturatingAdd(explicitVariants, product);
}

uint64_t SweepSize::jobs() const {
  return llvm::SaturatingMultiply(models, variants());
}

namespace {
/// A count that may have saturated.
std::string countText(uint64_t count) {
  if (count == UINT64_MAX)
    return llvm::formatv("more than {0}", count - 1);
  return std::to_string(count);
}
} // namespace

std::string SweepSize::describe() const {
  std::string text =
      llvm::formatv("{0} model{1} x {2} variants", models,
                    models == 1 ? "" : "s", countText(variants()));
  if (axisValues.empty())
    return text;
  text += ": ";
  if (explicitVariants)
    text += llvm::formatv("{0} explicit + ", explicitVariants).str();
  return text +
         llvm::join(
             llvm::map_range(axisValues,
                             [](uint64_t n) { return std::to_string(n); }),
             " x ") +
         " from the axes";
}

SweepSize measureSweep(const sweep::SweepSpec &spec) {
  SweepSize size;
  size.models = spec.models_size();
  size.explicitVariants = spec.variants_size();
  for (const sweep::Axis &axis : spec.axes())
    size.axisValues.push_back(axis.values_size());
  return size;
}

llvm::Expected<std::string> checkSweepSize(const sweep::SweepSpec &spec,
                                           llvm::StringRef fileName,
                                           bool allowLarge) {
  SweepSize size = measureSweep(spec);
  uint64_t jobs = size.jobs();
  if (jobs <= kLargeSweepJobs)
    return "";
  std::string what =
      llvm::formatv("sweep '{0}' has {1} jobs ({2})", spec.name(),
                    countText(jobs), size.describe());
  if (jobs > kMaxSweepJobs && !allowLarge)
    return llvm::createStringError(
        llvm::formatv("{0}: error: {1}, more than {2}: pass --allow-large to "
                      "run it",
                      fileName, what, kMaxSweepJobs)
            .str());
  return llvm::formatv("{0}: warning: {1}, more than {2}", fileName, what,
                       kLargeSweepJobs)
      .str();
}

} // namespace dispatchlab
