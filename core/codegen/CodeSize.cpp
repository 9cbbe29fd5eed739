//===- CodeSize.cpp - size of the JIT-compiled machine code ---------------===//

#include "core/codegen/CodeSize.h"

#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"

namespace dispatchlab {

llvm::Expected<int64_t> measureCodeSize(mlir::ExecutionEngine &engine) {
  llvm::SmallString<128> path;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("dispatchlab-jit", "o", path))
    return llvm::createStringError("cannot create a temporary object file: " +
                                   llvm::Twine(ec.message()));
  llvm::FileRemover remover(path);
  engine.dumpToObjectFile(path);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> object =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!object)
    return llvm::createStringError("cannot read the JIT's object code: " +
                                   object.getError().message());
  return measureObjectCodeSize((*object)->getMemBufferRef());
}

llvm::Expected<int64_t> measureObjectCodeSize(llvm::MemoryBufferRef object) {
  llvm::Expected<std::unique_ptr<llvm::object::ObjectFile>> file =
      llvm::object::ObjectFile::createObjectFile(object);
  if (!file)
    return llvm::createStringError("cannot read the JIT's object code: " +
                                   llvm::toString(file.takeError()));
  int64_t bytes = 0;
  for (const llvm::object::SectionRef &section : (*file)->sections())
    if (section.isText())
      bytes += section.getSize();
  return bytes;
}

} // namespace dispatchlab
