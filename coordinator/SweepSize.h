//===- SweepSize.h - how many jobs a sweep spec makes -----------*- C++ -*-===//
//
// A spec's job count is models x (explicit variants + the product of its
// axes' value counts): a few axes multiply into hundreds of thousands of
// jobs without it showing in the spec. The count is checked before anything
// is expanded or submitted: large sweeps are warned about, huge ones refused
// unless asked for.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_COORDINATOR_SWEEPSIZE_H
#define DISPATCHLAB_COORDINATOR_SWEEPSIZE_H

#include "proto/sweep.pb.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dispatchlab {

/// Sweeps of more jobs than this get a warning.
constexpr uint64_t kLargeSweepJobs = 10000;
/// Sweeps of more jobs than this are refused unless allowed.
constexpr uint64_t kMaxSweepJobs = 100000;

/// Where a spec's jobs come from.
struct SweepSize {
  uint64_t models = 0;
  uint64_t explicitVariants = 0;
  /// Value count of each axis, in spec order.
  std::vector<uint64_t> axisValues;

  /// Explicit variants plus the axes' product (saturating at UINT64_MAX).
  uint64_t variants() const;
  /// models x variants (saturating at UINT64_MAX).
  uint64_t jobs() const;
  /// "2 models x 6001 variants: 1 explicit + 60 x 100 from the axes".
  std::string describe() const;
};

SweepSize measureSweep(const sweep::SweepSpec &spec);

/// Empty for a sweep of at most kLargeSweepJobs jobs, else a warning line
/// naming `fileName`, the count and how it arises. Above kMaxSweepJobs an
/// error saying so instead, unless `allowLarge`.
llvm::Expected<std::string> checkSweepSize(const sweep::SweepSpec &spec,
                                           llvm::StringRef fileName,
                                           bool allowLarge);

} // namespace dispatchlab

#endif // DISPATCHLAB_COORDINATOR_SWEEPSIZE_H
