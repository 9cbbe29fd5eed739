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
  llvm::Expected<llvm::object::OwningBinary<llvm::object::ObjectFile>> object =
      llvm::object::ObjectFile::createObjectFile(path);
  if (!object)
    return llvm::createStringError("cannot read the JIT's object code: " +
                                   llvm::toString(object.takeError()));
  int64_t bytes = 0;
  for (const llvm::object::SectionRef &section :
       object->getBinary()->sections())
    if (section.isText())
      bytes += section.getSize();
  return bytes;
}

} // namespace dispatchlab
