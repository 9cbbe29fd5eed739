//===- Metrics.cpp - the one table of report metrics ----------------------===//

#include "results/Metrics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

namespace dispatchlab {

/// A compile statistic: the field of the stats record (proto/results.proto)
/// that the metric is named after.
static std::optional<double> statsField(const Metric &metric,
                                        const JobRecord &job) {
  std::optional<results::CompileStats> stats = job.stats();
  if (!stats)
    return std::nullopt;
  const google::protobuf::FieldDescriptor *field =
      stats->GetDescriptor()->FindFieldByName(metric.name.str());
  const google::protobuf::Reflection &reflection = *stats->GetReflection();
  if (!field || !reflection.HasField(*stats, field))
    return std::nullopt;
  return static_cast<double>(reflection.GetInt64(*stats, field));
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
  std::optional<results::CompileStats> stats = job.stats();
  // Repeated fields have no presence: stats without a dispatch count are
  // not compile stats.
  if (!stats || !stats->has_dispatches())
    return std::nullopt;
  double cloned = 0;
  for (const results::DispatchGroup &group : stats->groups())
    cloned += group.cloned_size();
  return cloned;
}

static const Metric kMetrics[] = {
    // name, unit, column, isCount, isSampled, extract
    {"dispatches", "", "dispatches", true, false, statsField},
    {"executables", "", "executables", true, false, statsField},
    {"transient_bytes", "bytes", "transient_bytes", true, false, statsField},
    {"fills", "", "fills", true, false, statsField},
    {"copies", "", "copies", true, false, statsField},
    {"generic_before", "", "generic_before", true, false, statsField},
    {"generic_after", "", "generic_after", true, false, statsField},
    {"cloned", "", "cloned", true, false, clonedProducers},
    // The job's child-process wall time.
    {"compile_time", "s", "compile_seconds", false, false, compileSeconds},
    // The median of a run job's timed repetitions.
    {"latency", "ms", "latency_median_ms", false, true, latencyMedian},
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
