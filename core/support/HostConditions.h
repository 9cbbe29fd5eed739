//===- HostConditions.h - how busy and how fast the host is -----*- C++ -*-===//
//
// What a latency measurement records about the machine around it, so that a
// number taken on a busy or throttled host says so, and so that a comparison
// can refuse to run there: the load average, the tasks runnable besides the
// measuring one, the CPU's frequency governor and current frequency, and its
// thermal throttle count. Fields Linux does not expose here stay unknown.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_SUPPORT_HOSTCONDITIONS_H
#define DISPATCHLAB_CORE_SUPPORT_HOSTCONDITIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace dispatchlab {

struct HostConditions {
  /// The one-minute load average.
  std::optional<double> loadAverage;
  /// Tasks runnable on the whole host (/proc/stat's procs_running) besides
  /// the one reading it: Linux gives no per-CPU count without debugfs.
  std::optional<int64_t> otherRunnableTasks;
  /// cpufreq's governor and current frequency of the measured CPU.
  std::optional<std::string> governor;
  std::optional<double> frequencyMhz;
  /// Times the measured CPU's core was thermally throttled since boot.
  std::optional<int64_t> throttleCount;
};

/// The conditions of `cpu` read below `root` (normally "/": proc/ and sys/
/// under it).
HostConditions readHostConditions(int cpu, llvm::StringRef root = "/");

/// An error naming the load when the load average exceeds `maxLoad`
/// (negative: no limit); success when the load is unknown.
llvm::Error checkHostLoad(const HostConditions &conditions, double maxLoad);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_SUPPORT_HOSTCONDITIONS_H
