//===- JobRecord.cpp - one sweep job as reports read it -------------------===//

#include "results/JobRecord.h"

namespace dispatchlab {

std::string classifyFailure(llvm::StringRef error) {
  error = error.split('\n').first.trim();
  if (error.starts_with("timed out"))
    return "timeout";
  if (error.consume_front("killed by signal")) {
    // "killed by signal 11 (Segmentation fault)": the name says more.
    size_t open = error.find('('), close = error.rfind(')');
    if (open != llvm::StringRef::npos && close > open)
      return ("crash (" + error.slice(open + 1, close) + ")").str();
    return ("crash (signal" + error + ")").str();
  }
  // The worker's "exit code N: error: MESSAGE": the message names the cause.
  size_t at = error.find("error: ");
  if (at != llvm::StringRef::npos)
    return ("failed: " + error.substr(at + 7).trim()).str();
  return ("failed: " + error).str();
}

std::optional<llvm::json::Object> JobRecord::stats() const {
  if (!resultId)
    return std::nullopt;
  llvm::Expected<llvm::json::Value> stats = llvm::json::parse(statsJson);
  if (!stats) {
    llvm::consumeError(stats.takeError());
    return std::nullopt;
  }
  if (llvm::json::Object *object = stats->getAsObject())
    return std::move(*object);
  return std::nullopt;
}

std::optional<double> JobRecord::statsNumber(llvm::StringRef key) const {
  std::optional<llvm::json::Object> stats = this->stats();
  return stats ? stats->getNumber(key) : std::nullopt;
}

std::optional<LatencyRecord> latencyOf(const JobRecord &job) {
  std::optional<llvm::json::Object> stats = job.stats();
  const llvm::json::Object *run = stats ? stats->getObject("run") : nullptr;
  const llvm::json::Object *latency = run ? run->getObject("latency") : nullptr;
  std::optional<double> medianMs =
      latency ? latency->getNumber("median_ms") : std::nullopt;
  if (!medianMs)
    return std::nullopt;
  LatencyRecord record{*medianMs, {}};
  if (const llvm::json::Array *samples = latency->getArray("samples_ms"))
    for (const llvm::json::Value &sample : *samples)
      if (std::optional<double> ms = sample.getAsNumber())
        record.samplesMs.push_back(*ms);
  return record;
}

} // namespace dispatchlab
