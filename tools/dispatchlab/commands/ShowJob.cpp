//===- ShowJob.cpp - `dispatchlab show --job` -----------------------------===//

#include "tools/dispatchlab/commands/ShowJob.h"

#include "tools/dispatchlab/commands/JobsCommand.h"

#include "proto/ProtoJson.h"
#include "results/Formatters.h"
#include "workers/JobHandlers.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace dispatchlab {

namespace {
/// The model as a file a user has: the spec's path, or a zoo name's file.
std::string localModelPath(const JobListing &job) {
  llvm::StringRef extension = llvm::sys::path::extension(job.model);
  if (extension == ".mlir" || extension == ".onnx" ||
      llvm::StringRef(job.model).contains('/'))
    return job.model;
  return "experiments/models/" + job.model + job.modelExtension;
}

/// Quoted for a POSIX shell when it holds anything but safe characters.
std::string shellQuote(llvm::StringRef word) {
  bool safe = !word.empty() && llvm::all_of(word, [](char c) {
    return llvm::isAlnum(c) || llvm::StringRef("-_./=,:+@%").contains(c);
  });
  if (safe)
    return word.str();
  std::string quoted = "'";
  for (char c : word)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

void printIndented(llvm::StringRef label, llvm::StringRef text,
                   llvm::raw_ostream &os) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.rtrim().split(lines, '\n');
  os << "  " << label << "\n";
  for (llvm::StringRef line : lines)
    os << "    " << line.rtrim() << "\n";
}
} // namespace

void printLatency(llvm::StringRef statsJson, llvm::raw_ostream &os) {
  if (statsJson.empty())
    return;
  llvm::Expected<results::CompileStats> stats =
      parseProtoJson<results::CompileStats>(statsJson);
  if (!stats) {
    llvm::consumeError(stats.takeError());
    return;
  }
  if (stats->run().has_latency())
    os << "  latency      " << describeLatency(stats->run().latency()) << "\n";
}

std::string reproduceCommand(const JobListing &job) {
  coordinator::Job leased;
  leased.set_kind(static_cast<sweep::JobKind>(job.kind));
  leased.set_preset(job.preset);
  leased.set_options(job.options);
  leased.mutable_measurement()->ParseFromString(job.measurement);
  const JobHandler *handler = findJobHandler(leased.kind());
  if (!handler || !handler->prepare)
    return "";
  JobContext context;
  context.modelPath = localModelPath(job);
  // Enough cores for the measurement: the command is for the user's machine.
  context.slots = std::max(1u, leased.measurement().threads());
  context.cores = context.slots;
  llvm::Expected<JobCommand> command = handler->prepare(leased, context);
  if (!command) {
    llvm::consumeError(command.takeError());
    return "";
  }
  std::string text = "dispatchlab";
  for (const std::string &argument : command->arguments)
    text += " " + shellQuote(argument);
  return text;
}

void printJob(const JobListing &job, llvm::raw_ostream &os) {
  os << "job " << job.id << "\n";
  os << llvm::formatv("  sweep        {0} (#{1})\n", job.sweepName,
                      job.sweepId);
  os << "  model        " << job.model << " (" << job.modelExtension
     << ", sha256 " << job.modelHash << ")\n";
  os << "  variant      " << job.variant << "\n";
  os << "  kind         " << jobKindName(job.kind) << "\n";
  os << "  preset       " << job.preset << "\n";
  llvm::SmallVector<llvm::StringRef> options;
  llvm::StringRef(job.options).split(options, '\n', -1, false);
  os << "  options      " << llvm::join(options, " ") << "\n";
  os << "  state        " << job.state << "\n";
  os << "  attempts     " << job.attempts << "\n";
  if (!job.failureClass.empty()) {
    os << "  failure      " << job.failureClass << "\n";
    os << "  error        " << llvm::StringRef(job.error).split('\n').first
       << "\n";
  }
  if (job.resultId)
    os << "  result       " << *job.resultId << " (dispatchlab show "
       << *job.resultId << ")\n";
  printLatency(job.statsJson, os);
  if (std::string command = reproduceCommand(job); !command.empty()) {
    os << "  reproduce    " << command << "\n";
    if (llvm::StringRef(command).contains(localModelPath(job)))
      os << "               (the model as the spec names it; its stored "
            "bytes: dispatchlab show --job "
         << job.id << " --emit=model > FILE)\n";
  }
  if (!job.stderrTail.empty())
    printIndented("stderr tail", stderrNamingModel(job), os);
}

} // namespace dispatchlab
