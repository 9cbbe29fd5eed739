//===- HostPinning.h - CPU affinity for latency measurement -----*- C++ -*-===//
//
// Keeps the measured model on fixed cores so that samples do not include
// migrations: one thread is pinned to one core (the one it is on), N threads
// share N cores of those the process may use.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_SUPPORT_HOSTPINNING_H
#define DISPATCHLAB_CORE_SUPPORT_HOSTPINNING_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace dispatchlab {

/// The CPUs the calling thread may run on (its affinity mask), ascending.
std::vector<int> getAllowedCpus();

/// The CPU the calling thread is running on; -1 when unknown.
int getCurrentCpu();

/// The `threads` CPUs to run on, ascending: `current` when allowed (else the
/// first allowed one), then the allowed CPUs after it, wrapping around. Never
/// more than `allowed` holds; empty when `allowed` is.
std::vector<int> chooseCpus(llvm::ArrayRef<int> allowed, int current,
                            unsigned threads);

/// Restricts to `cpus` the calling thread (`wholeProcess` false) or every
/// thread of the process, threads created later inheriting the mask.
llvm::Error pinToCpus(llvm::ArrayRef<int> cpus, bool wholeProcess);

/// Chooses CPUs for `threads` threads and pins: the calling thread alone for
/// one thread, the whole process otherwise. Returns the pinned CPUs.
llvm::Expected<std::vector<int>> pinForThreads(unsigned threads);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_SUPPORT_HOSTPINNING_H
