//===- DispatchProfiler.cpp - time each dispatch call ---------------------===//

#include "core/runtime/DispatchProfiler.h"

namespace dispatchlab {

namespace {
DispatchProfiler *active = nullptr;
} // namespace

DispatchProfiler::DispatchProfiler(size_t numDispatches)
    : started(numDispatches), running(numDispatches, false),
      current(numDispatches, 0), samples(numDispatches),
      calls(numDispatches, 0) {}

DispatchProfiler::~DispatchProfiler() {
  if (active == this)
    active = nullptr;
}

void DispatchProfiler::activate() { active = this; }

void DispatchProfiler::begin(int64_t index) {
  if (active)
    active->record(index, /*isBegin=*/true);
}

void DispatchProfiler::end(int64_t index) {
  if (active)
    active->record(index, /*isBegin=*/false);
}

void DispatchProfiler::record(int64_t index, bool isBegin) {
  // Read first: the bookkeeping below is not the dispatch's time.
  auto now = std::chrono::steady_clock::now();
  if (index < 0 || size_t(index) >= samples.size()) {
    ++mismatches;
    return;
  }
  if (isBegin) {
    started[index] = now;
    running[index] = true;
    return;
  }
  if (!running[index]) {
    ++mismatches;
    return;
  }
  running[index] = false;
  current[index] += std::chrono::duration<double>(now - started[index]).count();
  ++calls[index];
}

void DispatchProfiler::finishModelCall() {
  for (size_t index = 0; index < samples.size(); ++index) {
    samples[index].push_back(current[index]);
    current[index] = 0;
  }
}

void DispatchProfiler::reset() {
  for (size_t index = 0; index < samples.size(); ++index) {
    samples[index].clear();
    current[index] = 0;
    calls[index] = 0;
    running[index] = false;
  }
  mismatches = 0;
}

} // namespace dispatchlab
