//===- Timing.h - wall time of a step ---------------------------*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_SUPPORT_TIMING_H
#define DISPATCHLAB_CORE_SUPPORT_TIMING_H

#include <chrono>

namespace dispatchlab {

/// Seconds of steady-clock time since `start`.
inline double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_SUPPORT_TIMING_H
