//===- InputFile.cpp - reading a model file, refusing what is none --------===//

#include "core/support/InputFile.h"

#include "llvm/Support/FileSystem.h"

namespace dispatchlab {

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef path, bool isText) {
  if (path != "-") {
    llvm::sys::fs::file_status status;
    if (std::error_code code = llvm::sys::fs::status(path, status))
      return llvm::createStringError(code, code.message());
    if (status.type() != llvm::sys::fs::file_type::regular_file)
      return llvm::createStringError("not a regular file");
    if (status.getSize() > kMaxInputFileBytes)
      return llvm::createStringError("larger than 4 GiB");
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFileOrSTDIN(path, isText,
                                         /*RequiresNullTerminator=*/true);
  if (std::error_code code = file.getError())
    return llvm::createStringError(code, code.message());
  // Files such as /proc/self/status report no size and read as empty.
  if ((*file)->getBufferSize() == 0)
    return llvm::createStringError("the file is empty");
  return std::move(*file);
}

} // namespace dispatchlab
