//===- NoiseFloor.h - the A/A interval of a host and CPU class --*- C++ -*-===//
//
// A comparison that timed its baseline against a copy of itself measured
// how far identical code moves on that host: differences inside that
// interval mean nothing there. ResultStore keeps every such interval
// (noise_floors) and reads back the one that judges a result.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_RESULTS_NOISEFLOOR_H
#define DISPATCHLAB_RESULTS_NOISEFLOOR_H

#include <cstdint>
#include <string>

namespace dispatchlab {

struct NoiseFloor {
  /// The COMPARE result that measured it.
  int64_t resultId = 0;
  std::string hostname, cpuClass;
  int64_t rounds = 0;
  /// The A/A ratio and its 95% interval.
  double median = 1, low = 1, high = 1;
};

} // namespace dispatchlab

#endif // DISPATCHLAB_RESULTS_NOISEFLOOR_H
