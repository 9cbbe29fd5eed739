//===- HostJit.cpp - a compiled model's object, linked in process ---------===//

#include "core/codegen/HostJit.h"
#include "core/codegen/HostBufferCache.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ExecutionEngine/Orc/CompileUtils.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Transforms/IPO/Internalize.h"

#include <cstddef>
#include <cstdio>
#include <cstdlib>

namespace dispatchlab {

namespace {
constexpr llvm::StringLiteral kPackedPrefix = "_mlir_";

/// The generated code does not check what malloc returns, so a buffer that
/// does not fit (under a worker's address-space limit, say) was written
/// through a null pointer: a SIGSEGV that looked like a codegen bug. Its
/// allocations go through these instead, which say so in the words
/// (strerror(ENOMEM)) a worker reads as a memory limit hit, and exit 1:
/// there is nothing to unwind to from the middle of a dispatch.
[[noreturn]] void reportFailedAllocation(size_t bytes) {
  std::fprintf(stderr,
               "dispatchlab: error: a dispatch's buffer of %zu bytes could "
               "not be allocated: Cannot allocate memory\n",
               bytes);
  std::fflush(stderr);
  std::_Exit(1);
}
void *checkedMalloc(size_t bytes) {
  void *memory =
      getHostBufferCache().allocate(bytes, alignof(std::max_align_t));
  if (!memory && bytes)
    reportFailedAllocation(bytes);
  return memory;
}
void *checkedAlignedAlloc(size_t alignment, size_t bytes) {
  void *memory = getHostBufferCache().allocate(bytes, alignment);
  if (!memory && bytes)
    reportFailedAllocation(bytes);
  return memory;
}

void freeBuffer(void *pointer) { getHostBufferCache().free(pointer); }

void addPackedWrapper(llvm::Function &function) {
  llvm::Module &module = *function.getParent();
  llvm::LLVMContext &context = module.getContext();
  llvm::IRBuilder<> builder(context);
  auto *type = llvm::FunctionType::get(builder.getVoidTy(), builder.getPtrTy(),
                                       /*isVarArg=*/false);
  auto *wrapper =
      llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                             kPackedPrefix + function.getName(), module);
  builder.SetInsertPoint(llvm::BasicBlock::Create(context, "", wrapper));
  llvm::Value *argv = wrapper->getArg(0);
  auto pointerAt = [&](size_t index) {
    llvm::Value *slot =
        builder.CreateGEP(builder.getPtrTy(), argv, builder.getInt64(index));
    return builder.CreateLoad(builder.getPtrTy(), slot);
  };
  llvm::SmallVector<llvm::Value *> arguments;
  for (llvm::Argument &argument : function.args())
    arguments.push_back(
        builder.CreateLoad(argument.getType(), pointerAt(argument.getArgNo())));
  llvm::Value *result = builder.CreateCall(&function, arguments);
  if (!result->getType()->isVoidTy())
    builder.CreateStore(result, pointerAt(function.arg_size()));
  builder.CreateRetVoid();
}
} // namespace

std::string getPackedEntryPoint(llvm::StringRef entry) {
  return (kPackedPrefix + entry).str();
}

llvm::Error exportPackedEntryPoints(llvm::Module &module,
                                    llvm::ArrayRef<llvm::StringRef> entries) {
  llvm::StringSet<> exported;
  for (llvm::StringRef name : entries) {
    llvm::Function *function = module.getFunction(name);
    if (!function || function->isDeclaration())
      return llvm::createStringError("no function " + name + " to export");
    addPackedWrapper(*function);
    exported.insert(kPackedPrefix.str() + name.str());
  }
  llvm::internalizeModule(module, [&](const llvm::GlobalValue &value) {
    return exported.contains(value.getName());
  });
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
compileObject(llvm::Module &module, llvm::TargetMachine &machine) {
  llvm::orc::SimpleCompiler compiler(machine);
  return compiler(module);
}

llvm::Error HostJit::loadLibraries(llvm::ArrayRef<llvm::StringRef> libraries,
                                   llvm::orc::SymbolMap &exported) {
  llvm::orc::MangleAndInterner mangle(jit->getExecutionSession(),
                                      jit->getDataLayout());
  for (llvm::StringRef path : libraries) {
    std::string message;
    auto library = llvm::sys::DynamicLibrary::getPermanentLibrary(
        path.str().c_str(), &message);
    if (!library.isValid())
      return llvm::createStringError("cannot load " + path + ": " + message);
    void *init =
        library.getAddressOfSymbol(mlir::ExecutionEngine::kLibraryInitFnName);
    void *destroy = library.getAddressOfSymbol(
        mlir::ExecutionEngine::kLibraryDestroyFnName);
    // Without the hooks the library's public symbols, now loaded into the
    // process, are found like the process's own.
    if (!init || !destroy)
      continue;
    llvm::StringMap<void *> symbols;
    reinterpret_cast<mlir::ExecutionEngine::LibraryInitFn>(init)(symbols);
    for (auto &entry : symbols)
      exported[mangle(entry.getKey())] = {
          llvm::orc::ExecutorAddr::fromPtr(entry.getValue()),
          llvm::JITSymbolFlags::Exported};
    destroyFunctions.push_back(
        reinterpret_cast<mlir::ExecutionEngine::LibraryDestroyFn>(destroy));
  }
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<HostJit>>
HostJit::create(std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects,
                llvm::ArrayRef<llvm::StringRef> libraries,
                llvm::ArrayRef<std::pair<llvm::StringRef, void *>> symbols) {
  std::unique_ptr<HostJit> host(new HostJit);
  auto createLinkingLayer = [](llvm::orc::ExecutionSession &session) {
    return std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
        session, [](const llvm::MemoryBuffer &) {
          return std::make_unique<llvm::SectionMemoryManager>();
        });
  };
  llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit =
      llvm::orc::LLJITBuilder()
          .setObjectLinkingLayerCreator(createLinkingLayer)
          .create();
  if (!jit)
    return jit.takeError();
  host->jit = std::move(*jit);
  llvm::orc::JITDylib &main = host->jit->getMainJITDylib();
  llvm::orc::SymbolMap exported;
  if (llvm::Error error = host->loadLibraries(libraries, exported))
    return std::move(error);
  llvm::orc::MangleAndInterner mangle(host->jit->getExecutionSession(),
                                      host->jit->getDataLayout());
  for (auto [name, address] : symbols)
    exported[mangle(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                              llvm::JITSymbolFlags::Exported};
  // Unless `symbols` brings its own (the task runtime's coroutine frames).
  exported.try_emplace(mangle("malloc"),
                       llvm::orc::ExecutorAddr::fromPtr(&checkedMalloc),
                       llvm::JITSymbolFlags::Exported);
  exported.try_emplace(mangle("aligned_alloc"),
                       llvm::orc::ExecutorAddr::fromPtr(&checkedAlignedAlloc),
                       llvm::JITSymbolFlags::Exported);
  // Buffers go back to the cache they came from (HostBufferCache.h).
  exported.try_emplace(mangle("free"),
                       llvm::orc::ExecutorAddr::fromPtr(&freeBuffer),
                       llvm::JITSymbolFlags::Exported);
  if (llvm::Error error =
          main.define(llvm::orc::absoluteSymbols(std::move(exported))))
    return std::move(error);
  llvm::Expected<std::unique_ptr<llvm::orc::DynamicLibrarySearchGenerator>>
      process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
          host->jit->getDataLayout().getGlobalPrefix());
  if (!process)
    return process.takeError();
  main.addGenerator(std::move(*process));
  for (llvm::StringRef path : libraries)
    host->libraryPaths.push_back(path.str());
  for (auto [name, address] : symbols)
    host->extraSymbols.emplace_back(name.str(), address);
  for (std::unique_ptr<llvm::MemoryBuffer> &object : objects) {
    host->objectCopies.push_back(llvm::MemoryBuffer::getMemBufferCopy(
        object->getBuffer(), object->getBufferIdentifier()));
    if (llvm::Error error = host->jit->addObjectFile(std::move(object)))
      return std::move(error);
  }
  return std::move(host);
}

llvm::Expected<std::unique_ptr<HostJit>> HostJit::relink() const {
  llvm::SmallVector<llvm::StringRef> libraries(libraryPaths.begin(),
                                               libraryPaths.end());
  llvm::SmallVector<std::pair<llvm::StringRef, void *>> symbols;
  for (const auto &[name, address] : extraSymbols)
    symbols.emplace_back(name, address);
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects;
  for (const std::unique_ptr<llvm::MemoryBuffer> &object : objectCopies)
    objects.push_back(llvm::MemoryBuffer::getMemBufferCopy(
        object->getBuffer(), object->getBufferIdentifier()));
  return create(std::move(objects), libraries, symbols);
}

HostJit::~HostJit() {
  for (void (*destroy)() : destroyFunctions)
    destroy();
}

llvm::Expected<void (*)(void **)>
HostJit::lookupPacked(llvm::StringRef name) const {
  llvm::Expected<llvm::orc::ExecutorAddr> address =
      jit->lookup((kPackedPrefix + name).str());
  if (!address)
    return address.takeError();
  return address->toPtr<void (*)(void **)>();
}

} // namespace dispatchlab
