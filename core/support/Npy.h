//===- Npy.h - NumPy .npy arrays in and out ---------------------*- C++ -*-===//
//
// The subset of the .npy format (versions 1.0-3.0) that model inputs and
// outputs need: little-endian C-order arrays of f16, f32, f64, i8, i32, i64
// and bool.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_SUPPORT_NPY_H
#define DISPATCHLAB_CORE_SUPPORT_NPY_H

#include "core/support/AlignedBytes.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <vector>

namespace dispatchlab {

enum class ElementType { F16, BF16, F32, F64, I8, I32, I64, Bool };

/// Bytes one element occupies in memory (bool: one byte, as numpy and MLIR's
/// memref lowering store it).
size_t getElementBytes(ElementType type);
/// numpy's spelling: float32, int64, bool...
llvm::StringRef getElementTypeName(ElementType type);

/// A dense array in host memory, C order.
struct HostArray {
  ElementType type = ElementType::F32;
  std::vector<int64_t> shape;
  AlignedBytes data;

  HostArray() = default;
  /// Zero-filled.
  HostArray(ElementType type, std::vector<int64_t> shape);
  int64_t numElements() const;
  /// Element `i` converted to double.
  double getDouble(int64_t i) const;
  /// Stores `value` converted (rounded to nearest even for f16, truncated
  /// towards zero for integers) into element `i`.
  void setDouble(int64_t i, double value);
};

/// Reads `path`; fails with a one-line message that starts with the path.
llvm::Expected<HostArray> readNpy(llvm::StringRef path);

/// Writes `array` as .npy version 1.0; fails on I/O errors, naming the path.
llvm::Error writeNpy(llvm::StringRef path, const HostArray &array);

/// The bytes of a .npy file in memory, both ways (for files that hold
/// several arrays, such as cache entries).
void writeNpy(llvm::raw_ostream &os, const HostArray &array);
llvm::Expected<HostArray> parseNpy(llvm::StringRef bytes);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_SUPPORT_NPY_H
