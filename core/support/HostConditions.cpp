//===- HostConditions.cpp - how busy and how fast the host is -------------===//

#include "core/support/HostConditions.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace dispatchlab {

namespace {
/// The file's text, trimmed; nothing when it cannot be read. Files of proc
/// and sys report size 0, so they are read as streams.
std::optional<std::string> readSmallFile(llvm::StringRef root,
                                         const llvm::Twine &relative) {
  llvm::SmallString<128> path(root);
  llvm::sys::path::append(path, relative);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFileAsStream(path);
  if (!buffer)
    return std::nullopt;
  return (*buffer)->getBuffer().trim().str();
}

std::optional<double> parseDouble(llvm::StringRef text) {
  double value;
  if (text.trim().getAsDouble(value))
    return std::nullopt;
  return value;
}

std::optional<int64_t> parseInteger(llvm::StringRef text) {
  int64_t value;
  if (text.trim().getAsInteger(10, value))
    return std::nullopt;
  return value;
}

/// The value of the first line of `text` starting with `key`.
std::optional<llvm::StringRef> findLine(llvm::StringRef text,
                                        llvm::StringRef key) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  for (llvm::StringRef line : lines)
    if (line.consume_front(key))
      return line.trim();
  return std::nullopt;
}
/// /proc/cpuinfo's "cpu MHz" of processor `cpu`, for hosts (VMs) without
/// cpufreq.
std::optional<double> cpuinfoMhz(llvm::StringRef root, int cpu) {
  std::optional<std::string> cpuinfo = readSmallFile(root, "proc/cpuinfo");
  if (!cpuinfo)
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef> blocks;
  llvm::StringRef(*cpuinfo).split(blocks, "\n\n");
  for (llvm::StringRef block : blocks) {
    std::optional<llvm::StringRef> processor = findLine(block, "processor");
    if (!processor || parseInteger(processor->ltrim(" \t:")) != cpu)
      continue;
    if (std::optional<llvm::StringRef> mhz = findLine(block, "cpu MHz"))
      return parseDouble(mhz->ltrim(" \t:"));
  }
  return std::nullopt;
}
} // namespace

HostConditions readHostConditions(int cpu, llvm::StringRef root) {
  HostConditions conditions;
  if (std::optional<std::string> loadavg = readSmallFile(root, "proc/loadavg"))
    conditions.loadAverage =
        parseDouble(llvm::StringRef(*loadavg).split(' ').first);
  if (std::optional<std::string> stat = readSmallFile(root, "proc/stat"))
    if (std::optional<llvm::StringRef> running =
            findLine(*stat, "procs_running"))
      if (std::optional<int64_t> count = parseInteger(*running))
        conditions.otherRunnableTasks = std::max<int64_t>(0, *count - 1);
  std::string cpuDir = llvm::formatv("sys/devices/system/cpu/cpu{0}", cpu);
  conditions.governor =
      readSmallFile(root, cpuDir + "/cpufreq/scaling_governor");
  if (std::optional<std::string> khz =
          readSmallFile(root, cpuDir + "/cpufreq/scaling_cur_freq"))
    if (std::optional<double> value = parseDouble(*khz))
      conditions.frequencyMhz = *value / 1000;
  if (!conditions.frequencyMhz)
    conditions.frequencyMhz = cpuinfoMhz(root, cpu);
  if (std::optional<std::string> count =
          readSmallFile(root, cpuDir + "/thermal_throttle/core_throttle_count"))
    conditions.throttleCount = parseInteger(*count);
  return conditions;
}

llvm::Error checkHostLoad(const HostConditions &conditions, double maxLoad) {
  if (maxLoad < 0 || !conditions.loadAverage ||
      *conditions.loadAverage <= maxLoad)
    return llvm::Error::success();
  return llvm::createStringError(
      llvm::formatv("the host is busy: load average {0:F2} exceeds the "
                    "maximum of {1:F2} (max_load); measure on a quieter host "
                    "or raise the limit",
                    *conditions.loadAverage, maxLoad));
}

} // namespace dispatchlab
