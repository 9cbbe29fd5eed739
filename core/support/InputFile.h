//===- InputFile.h - reading a model file, refusing what is none -*- C++
//-*-===//

#ifndef DISPATCHLAB_CORE_SUPPORT_INPUTFILE_H
#define DISPATCHLAB_CORE_SUPPORT_INPUTFILE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>

namespace dispatchlab {

/// The largest model file read: above ONNX's 2 GiB protobuf limit, below
/// what a 24 GiB machine can hold several copies of.
inline constexpr uint64_t kMaxInputFileBytes = uint64_t(4) << 30;

/// Reads `path` ("-": standard input). A device, a directory or a pipe is
/// refused rather than read without end (/dev/zero), and so is an empty
/// file or one over kMaxInputFileBytes; the error's message says which
/// ("not a regular file", "the file is empty", ...) or gives the system's
/// reason.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef path, bool isText);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_SUPPORT_INPUTFILE_H
