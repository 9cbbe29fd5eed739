//===- DispatchProfiler.h - time each dispatch call -------------*- C++ -*-===//
//
// The receiving end of `run --profile-dispatches`: a model compiled with
// CodegenOptions::profileDispatches calls begin(i) and end(i) around its
// i-th dispatch call, and the active profiler adds the steady-clock time in
// between to dispatch i. Each model call then closes one sample per
// dispatch.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_RUNTIME_DISPATCHPROFILER_H
#define DISPATCHLAB_CORE_RUNTIME_DISPATCHPROFILER_H

#include <chrono>
#include <cstdint>
#include <vector>

namespace dispatchlab {

class DispatchProfiler {
public:
  /// Records dispatch indices [0, numDispatches) once activated.
  explicit DispatchProfiler(size_t numDispatches);
  ~DispatchProfiler();
  DispatchProfiler(const DispatchProfiler &) = delete;
  DispatchProfiler &operator=(const DispatchProfiler &) = delete;

  /// Makes this the profiler that begin and end record into, until it is
  /// destroyed: the JIT'd hooks take an index only, so there is one active
  /// profiler per process. Hooks called with none active do nothing.
  void activate();

  /// The hooks to give CodegenOptions (dispatchBegin, dispatchEnd). The
  /// host function calls them from the thread that calls the model.
  static void begin(int64_t index);
  static void end(int64_t index);

  /// Ends one model call: each dispatch's time since the previous one
  /// becomes a sample (0 for a dispatch that was not called).
  void finishModelCall();
  /// Forgets every sample and call (after the warm-up).
  void reset();

  size_t size() const { return samples.size(); }
  /// Seconds in dispatch `index`, one entry per finished model call.
  const std::vector<double> &getSamples(size_t index) const {
    return samples[index];
  }
  /// Completed begin/end pairs of dispatch `index`.
  int64_t getCalls(size_t index) const { return calls[index]; }
  /// Hook calls with an index out of range or an end without a begin: zero
  /// unless the hooks and the dispatch list disagree.
  int64_t getMismatches() const { return mismatches; }

private:
  void record(int64_t index, bool isBegin);

  std::vector<std::chrono::steady_clock::time_point> started;
  std::vector<bool> running;
  std::vector<double> current;
  std::vector<std::vector<double>> samples;
  std::vector<int64_t> calls;
  int64_t mismatches = 0;
};

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_RUNTIME_DISPATCHPROFILER_H
