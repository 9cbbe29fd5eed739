//===- Metrics.cpp - the one table of report metrics ----------------------===//

#include "results/Metrics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

namespace dispatchlab {

/// A compile statistic: the stats JSON key of the metric's name, as
/// StatsJson.cpp writes it.
static std::optional<double> statsNumber(const Metric &metric,
                                         const JobRecord &job) {
  return job.statsNumber(metric.name);
}

static std::optional<double> compileSeconds(const Metric &,
                                            const JobRecord &job) {
  if (!job.resultId)
    return std::nullopt;
  return job.wallSeconds;
}

static std::optional<double> latencyMedian(const Metric &,
                                           const JobRecord &job) {
  if (std::optional<LatencyRecord> latency = latencyOf(job))
    return latency->medianMs;
  return std::nullopt;
}

/// Producers cloned into dispatches (IREE: isClonableIntoDispatchOp),
/// summed over the groups.
static std::optional<double> clonedProducers(const Metric &,
                                             const JobRecord &job) {
  std::optional<llvm::json::Object> stats = job.stats();
  const llvm::json::Array *groups = stats ? stats->getArray("groups") : nullptr;
  if (!groups)
    return std::nullopt;
  double cloned = 0;
  for (const llvm::json::Value &group : *groups)
    if (const llvm::json::Object *object = group.getAsObject())
      if (const llvm::json::Array *producers = object->getArray("cloned"))
        cloned += producers->size();
  return cloned;
}

static const Metric kMetrics[] = {
    // name, unit, isCount, isSampled, extract
    {"dispatches", "", true, false, statsNumber},
    {"executables", "", true, false, statsNumber},
    {"transient_bytes", "bytes", true, false, statsNumber},
    {"fills", "", true, false, statsNumber},
    {"copies", "", true, false, statsNumber},
    {"generic_before", "", true, false, statsNumber},
    {"generic_after", "", true, false, statsNumber},
    {"cloned", "", true, false, clonedProducers},
    // The job's child-process wall time.
    {"compile_time", "s", false, false, compileSeconds},
    // The median of a run job's timed repetitions.
    {"latency", "ms", false, true, latencyMedian},
};

llvm::ArrayRef<Metric> Metric::all() { return kMetrics; }

const Metric *Metric::find(llvm::StringRef name) {
  const Metric *found = llvm::find_if(
      kMetrics, [&](const Metric &metric) { return metric.name == name; });
  return found == std::end(kMetrics) ? nullptr : found;
}

const Metric &Metric::byDefault() { return kMetrics[0]; }

llvm::StringRef Metric::describeAll() {
  // Built once: cl::desc keeps the reference.
  static const std::string text = [] {
    std::string names;
    for (const Metric &metric : kMetrics) {
      if (!names.empty())
        names += ", ";
      names += metric.name;
      if (!metric.unit.empty())
        names += (llvm::Twine(" (") + metric.unit + ")").str();
    }
    return names;
  }();
  return text;
}

} // namespace dispatchlab
