//===- FlushDenormals.cpp - denormals flushed while models run ------------===//

#include "core/support/FlushDenormals.h"

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#endif

namespace dispatchlab {

namespace {
#if defined(__x86_64__) || defined(_M_X64)
// MXCSR: FTZ (flush results) is bit 15, DAZ (read inputs as zero) bit 6.
constexpr uint64_t kFlushBits = (1u << 15) | (1u << 6);
uint64_t loadState() { return _mm_getcsr(); }
void storeState(uint64_t state) { _mm_setcsr(static_cast<unsigned>(state)); }
#elif defined(__aarch64__)
// FPCR.FZ (bit 24) flushes both inputs and results.
constexpr uint64_t kFlushBits = uint64_t(1) << 24;
uint64_t loadState() {
  uint64_t state;
  asm volatile("mrs %0, fpcr" : "=r"(state));
  return state;
}
void storeState(uint64_t state) { asm volatile("msr fpcr, %0" : : "r"(state)); }
#else
constexpr uint64_t kFlushBits = 0;
uint64_t loadState() { return 0; }
void storeState(uint64_t) {}
#endif

/// Sets the flush bits and returns the state before; writes only on change,
/// since a write may serialize the pipeline.
uint64_t setFlushBits() {
  uint64_t state = loadState();
  if ((state & kFlushBits) != kFlushBits)
    storeState(state | kFlushBits);
  return state;
}
} // namespace

ScopedFlushDenormals::ScopedFlushDenormals() : previous(setFlushBits()) {}

ScopedFlushDenormals::~ScopedFlushDenormals() {
  if ((previous & kFlushBits) != kFlushBits)
    storeState(previous);
}

void flushDenormalsOnThisThread() { setFlushBits(); }

bool canFlushDenormals() { return kFlushBits != 0; }

} // namespace dispatchlab
