//===- SweepExpander.cpp - a sweep spec as jobs with content keys ---------===//

#include "coordinator/SweepExpander.h"

#include "coordinator/ComparedVariants.h"
#include "coordinator/SweepSpec.h"

#include "core/support/Provenance.h"
#include "heuristics/HeuristicOptions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SHA256.h"

#include <algorithm>

namespace dispatchlab {

KeyContext KeyContext::current() {
  Provenance provenance = Provenance::current();
  return {provenance.dispatchlabCommit, provenance.llvmVersion,
          provenance.hostCpu};
}

std::string sha256Hex(llvm::StringRef bytes) {
  std::array<uint8_t, 32> digest =
      llvm::SHA256::hash(llvm::arrayRefFromStringRef(bytes));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

sweep::Measurement withDefaults(const sweep::Measurement &measurement) {
  sweep::Measurement result = measurement;
  if (result.repetitions() == 0)
    result.set_repetitions(1);
  if (result.threads() == 0)
    result.set_threads(1);
  if (result.timeout_seconds() == 0)
    result.set_timeout_seconds(300);
  if (result.memory_limit_mb() == 0)
    result.set_memory_limit_mb(kDefaultMemoryLimitMb);
  return result;
}

std::string toString(const sweep::Measurement &measurement) {
  std::string text =
      llvm::formatv("memory_limit_mb={0}\nrepetitions={1}\nthreads={2}\n"
                    "test_sleep_ms={3}\ntimeout_seconds={4}\ntolerance={5}\n",
                    measurement.memory_limit_mb(), measurement.repetitions(),
                    measurement.threads(), measurement.test_sleep_ms(),
                    measurement.timeout_seconds(), measurement.tolerance());
  // Only when set: the keys of results measured before the setting existed
  // stay as they were.
  if (measurement.warmup_seconds() > 0)
    text +=
        llvm::formatv("warmup_seconds={0:e16}\n", measurement.warmup_seconds());
  if (measurement.target_ci_percent() > 0)
    text += llvm::formatv("target_ci_percent={0:e16}\n",
                          measurement.target_ci_percent());
  if (measurement.budget_seconds() > 0)
    text +=
        llvm::formatv("budget_seconds={0:e16}\n", measurement.budget_seconds());
  if (measurement.max_load() > 0)
    text += llvm::formatv("max_load={0:e16}\n", measurement.max_load());
  if (measurement.aa())
    text += "aa=true\n";
  if (measurement.order_seed() > 0)
    text += llvm::formatv("order_seed={0}\n", measurement.order_seed());
  if (measurement.max_rounds() > 0)
    text += llvm::formatv("max_rounds={0}\n", measurement.max_rounds());
  if (measurement.copies() > 0)
    text += llvm::formatv("copies={0}\n", measurement.copies());
  return text;
}

namespace {
using KnobSettings = std::vector<std::pair<std::string, std::string>>;

/// One variant; an unspecified `kind` is the sweep's.
llvm::Expected<ResolvedVariant>
resolveVariant(std::string name, sweep::JobKind kind, sweep::JobKind sweepKind,
               llvm::StringRef preset, const KnobSettings &sets) {
  llvm::Expected<HeuristicOptions> options =
      HeuristicOptions::resolve(preset, sets);
  if (!options)
    return llvm::createStringError(
        llvm::formatv("variant '{0}': {1}", name,
                      llvm::toString(options.takeError()))
            .str());
  return ResolvedVariant{std::move(name),
                         kind == sweep::JOB_KIND_UNSPECIFIED ? sweepKind : kind,
                         options->preset, options->toString()};
}

/// The variant at `index` of the axes' product.
llvm::Expected<ResolvedVariant> axisVariant(const sweep::SweepSpec &spec,
                                            llvm::ArrayRef<int> index,
                                            sweep::JobKind sweepKind) {
  std::string preset = spec.axes_preset();
  KnobSettings sets;
  std::vector<std::string> nameParts;
  for (int i = 0; i < spec.axes_size(); ++i) {
    const sweep::Axis &axis = spec.axes(i);
    if (axis.values().empty())
      return llvm::createStringError(
          llvm::formatv("axis '{0}' has no values", axis.knob()).str());
    const std::string &value = axis.values(index[i]);
    nameParts.push_back(axis.knob() + "=" + value);
    if (axis.knob() == "preset")
      preset = value;
    else
      sets.push_back({axis.knob(), value});
  }
  return resolveVariant(llvm::join(nameParts, ","), sweep::JOB_KIND_UNSPECIFIED,
                        sweepKind, preset, sets);
}

/// Moves `index` to the product's next point, last axis fastest like nested
/// loops in spec order; false after the last point.
bool nextAxisPoint(const sweep::SweepSpec &spec, std::vector<int> &index) {
  for (int i = spec.axes_size() - 1; i >= 0; --i) {
    if (++index[i] < spec.axes(i).values_size())
      return true;
    index[i] = 0;
  }
  return false;
}

/// Fails when two variants have the same kind and options.
llvm::Error checkDistinct(llvm::ArrayRef<ResolvedVariant> variants) {
  llvm::StringMap<std::string> seen;
  for (const ResolvedVariant &variant : variants) {
    std::string identity = llvm::formatv(
        "{0}\n{1}", static_cast<int>(variant.kind), variant.options);
    auto [it, inserted] = seen.try_emplace(identity, variant.name);
    if (!inserted)
      return llvm::createStringError(
          llvm::formatv("variants '{0}' and '{1}' resolve to the same "
                        "options; they would be one job",
                        it->second, variant.name)
              .str());
  }
  return llvm::Error::success();
}
} // namespace

llvm::Expected<std::vector<ResolvedVariant>>
resolveVariants(const sweep::SweepSpec &spec) {
  sweep::JobKind sweepKind =
      spec.kind() == sweep::JOB_KIND_UNSPECIFIED ? sweep::COMPILE : spec.kind();
  std::vector<ResolvedVariant> variants;
  for (const sweep::Variant &variant : spec.variants()) {
    KnobSettings sets;
    for (llvm::StringRef set : variant.set()) {
      auto [key, value] = set.split('=');
      sets.push_back({key.trim().str(), value.trim().str()});
    }
    llvm::Expected<ResolvedVariant> resolved = resolveVariant(
        variant.name(), variant.kind(), sweepKind, variant.preset(), sets);
    if (!resolved)
      return resolved.takeError();
    variants.push_back(std::move(*resolved));
  }
  if (!spec.axes().empty()) {
    std::vector<int> index(spec.axes_size(), 0);
    do {
      llvm::Expected<ResolvedVariant> resolved =
          axisVariant(spec, index, sweepKind);
      if (!resolved)
        return resolved.takeError();
      variants.push_back(std::move(*resolved));
    } while (nextAxisPoint(spec, index));
  }
  if (llvm::Error error = checkDistinct(variants))
    return std::move(error);
  return variants;
}

std::string jobCpuClass(sweep::JobKind kind,
                        const sweep::Measurement &measurement,
                        const KeyContext &context) {
  // Compile jobs only count dispatches, which dispatch formation decides
  // without looking at the target: their results are shared across CPU
  // classes. Test kinds measure nothing.
  if (kind != sweep::RUN && kind != sweep::COMPARE)
    return "";
  return measurement.cpu_class().empty() ? context.cpuClass
                                         : measurement.cpu_class();
}

std::string contentKey(llvm::StringRef modelHash,
                       const ResolvedVariant &variant,
                       const sweep::Measurement &measurement,
                       const KeyContext &context) {
  std::string cpuClass = jobCpuClass(variant.kind, measurement, context);
  // The preset name is left out: only the resolved knobs matter.
  return sha256Hex(
      llvm::formatv("model={0}\nkind={1}\n--options--\n{2}--measurement--\n"
                    "{3}dispatchlab={4}\nllvm={5}\n{6}",
                    modelHash, sweep::JobKind_Name(variant.kind),
                    variant.options, toString(measurement),
                    context.dispatchlabCommit, context.llvmVersion,
                    cpuClass.empty() ? "" : "cpu=" + cpuClass + "\n")
          .str());
}

llvm::Expected<std::vector<ResolvedVariant>>
comparedVariants(const sweep::SweepSpec &spec,
                 llvm::ArrayRef<ResolvedVariant> variants) {
  std::vector<ResolvedVariant> compared;
  for (const ResolvedVariant &variant : variants)
    if (variant.kind == sweep::COMPARE)
      compared.push_back(variant);
  if (compared.empty() || spec.baseline().empty())
    return compared;
  auto baseline = llvm::find_if(compared, [&](const ResolvedVariant &variant) {
    return variant.name == spec.baseline();
  });
  if (baseline == compared.end())
    return llvm::createStringError(
        llvm::formatv("baseline '{0}' is not a COMPARE variant of the sweep "
                      "(they are: {1})",
                      spec.baseline(),
                      llvm::join(llvm::map_range(compared,
                                                 [](const ResolvedVariant &v) {
                                                   return v.name;
                                                 }),
                                 ", "))
            .str());
  std::rotate(compared.begin(), baseline, baseline + 1);
  return compared;
}

ResolvedVariant comparisonJob(llvm::ArrayRef<ResolvedVariant> compared) {
  std::vector<std::string> names;
  for (const ResolvedVariant &variant : compared)
    names.push_back(variant.name);
  return {"compare: " + llvm::join(names, " | "), sweep::COMPARE,
          compared.front().preset, formatComparedVariants(compared)};
}

llvm::Expected<std::vector<ExpandedJob>>
expandSweep(const sweep::SweepSpec &spec, llvm::ArrayRef<ModelContent> models,
            const KeyContext &context) {
  if (static_cast<int>(models.size()) != spec.models_size())
    return llvm::createStringError(
        llvm::formatv("{0} models named but {1} sent", spec.models_size(),
                      models.size())
            .str());
  llvm::Expected<std::vector<ResolvedVariant>> variants = resolveVariants(spec);
  if (!variants)
    return variants.takeError();
  llvm::Expected<std::vector<ResolvedVariant>> compared =
      comparedVariants(spec, *variants);
  if (!compared)
    return compared.takeError();
  // The model's jobs: one per variant of another kind, one for all the
  // compared ones.
  std::vector<ResolvedVariant> perModel;
  for (const ResolvedVariant &variant : *variants)
    if (variant.kind != sweep::COMPARE)
      perModel.push_back(variant);
  if (!compared->empty())
    perModel.push_back(comparisonJob(*compared));
  sweep::Measurement measurement = withDefaults(spec.measurement());
  std::vector<ExpandedJob> jobs;
  llvm::StringMap<bool> seenModels;
  for (const ModelContent &model : models) {
    std::string hash = sha256Hex(model.content);
    if (!seenModels.try_emplace(hash, true).second)
      return llvm::createStringError(
          llvm::formatv("model '{0}' has the same content as an earlier "
                        "model of the sweep",
                        model.name)
              .str());
    for (const ResolvedVariant &variant : perModel)
      jobs.push_back({model.name, hash, variant, measurement,
                      contentKey(hash, variant, measurement, context),
                      jobCpuClass(variant.kind, measurement, context)});
  }
  return jobs;
}

} // namespace dispatchlab
