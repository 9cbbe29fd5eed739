//===- JobRecord.cpp - one sweep job as reports read it -------------------===//

#include "results/JobRecord.h"

#include "proto/ProtoJson.h"
#include "results/ResultStore.h"

#include "llvm/ADT/STLExtras.h"

namespace dispatchlab {

std::string classifyFailure(llvm::StringRef error) {
  error = error.split('\n').first.trim();
  if (error == kCancelledError)
    return kCancelledError.str();
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

llvm::StringRef failureKind(llvm::StringRef error) {
  error = error.split('\n').first.trim();
  if (error.starts_with("timed out"))
    return "timeout";
  if (error.starts_with("memory limit"))
    return "memory limit";
  if (error == kCancelledError)
    return kCancelledError;
  if (error.starts_with("killed by signal"))
    return "crash";
  return "error";
}

std::string countFailureKinds(llvm::ArrayRef<std::string> errors) {
  std::vector<std::pair<llvm::StringRef, int>> counts;
  for (const std::string &error : errors) {
    llvm::StringRef kind = failureKind(error);
    auto it =
        llvm::find_if(counts, [&](auto &count) { return count.first == kind; });
    if (it == counts.end())
      counts.push_back({kind, 1});
    else
      ++it->second;
  }
  std::string text;
  for (auto &[kind, count] : counts)
    text +=
        (text.empty() ? "" : ", ") + std::to_string(count) + " " + kind.str();
  return text;
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
