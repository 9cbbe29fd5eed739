//===- JobRecord.cpp - one sweep job as reports read it -------------------===//

#include "results/JobRecord.h"

#include "proto/ProtoJson.h"

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

std::optional<results::CompileStats> JobRecord::stats() const {
  if (!resultId)
    return std::nullopt;
  llvm::Expected<results::CompileStats> stats =
      parseProtoJson<results::CompileStats>(statsJson);
  if (!stats) {
    llvm::consumeError(stats.takeError());
    return std::nullopt;
  }
  return std::move(*stats);
}

std::optional<LatencyRecord> latencyOf(const JobRecord &job) {
  std::optional<results::CompileStats> stats = job.stats();
  if (!stats || !stats->run().has_latency())
    return std::nullopt;
  const results::Latency &latency = stats->run().latency();
  return LatencyRecord{
      latency.median_ms(),
      {latency.samples_ms().begin(), latency.samples_ms().end()}};
}

} // namespace dispatchlab
