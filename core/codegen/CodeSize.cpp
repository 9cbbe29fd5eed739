//===- CodeSize.cpp - size of the JIT-compiled machine code ---------------===//

#include "core/codegen/CodeSize.h"

#include "llvm/Object/ObjectFile.h"

namespace dispatchlab {

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
