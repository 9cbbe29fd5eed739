//===- PartCompiler.cpp - a model's parts to machine code -----------------===//

#include "core/codegen/PartCompiler.h"
#include "core/codegen/HostJit.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ThreadPool.h"

#include <algorithm>
#include <optional>

namespace dispatchlab {

namespace {
constexpr llvm::StringLiteral kObjectCacheKind = "object";

/// The key of a part's object: its LLVM IR before optimization, the target
/// it is compiled for, and the LLVM that optimizes and compiles it.
std::string getObjectKey(llvm::StringRef bitcode,
                         const llvm::TargetMachine &machine) {
  return CacheKey()
      .add("format", kObjectCacheKind)
      .add("version", uint64_t(2))
      .add("llvm", LLVM_VERSION_STRING)
      .add("triple", machine.getTargetTriple().str())
      .add("cpu", machine.getTargetCPU())
      .add("features", machine.getTargetFeatureString())
      .add("opt", "O3 aggressive")
      .add("module", bitcode)
      .str();
}

/// `bitcode` optimized (-O3) and compiled, in a context and on a target
/// machine of its own, so that parts compile on several threads at once.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
compilePart(llvm::StringRef bitcode) {
  llvm::LLVMContext context;
  llvm::Expected<std::unique_ptr<llvm::Module>> module =
      llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, "part"), context);
  if (!module)
    return module.takeError();
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createHostMachine();
  if (!machine)
    return machine.takeError();
  auto optimize =
      mlir::makeOptimizingTransformer(/*optLevel=*/3,
                                      /*sizeLevel=*/0, machine->get());
  if (llvm::Error error = optimize(module->get()))
    return std::move(error);
  return compileObject(**module, **machine);
}

/// Looks every part up in `cache`; returns the indices it lacks.
std::vector<size_t> lookupParts(llvm::ArrayRef<std::string> keys,
                                ContentCache &cache, CompiledParts &compiled) {
  std::vector<size_t> misses;
  for (size_t i = 0, e = keys.size(); i < e; ++i) {
    llvm::Expected<std::optional<std::string>> entry =
        cache.lookup(kObjectCacheKind, keys[i]);
    if (!entry)
      compiled.warnings.push_back(llvm::toString(entry.takeError()));
    if (!entry || !*entry) {
      misses.push_back(i);
      continue;
    }
    compiled.objects[i] =
        llvm::MemoryBuffer::getMemBufferCopy(**entry, keys[i]);
    ++compiled.cacheHits;
  }
  return misses;
}

/// Stores the objects at `indices`, then evicts once.
void storeParts(llvm::ArrayRef<std::string> keys,
                llvm::ArrayRef<size_t> indices, ContentCache &cache,
                CompiledParts &compiled) {
  auto warn = [&](llvm::Error error) {
    compiled.warnings.push_back("cannot cache a compiled object: " +
                                llvm::toString(std::move(error)));
  };
  for (size_t i : indices)
    if (llvm::Error error = cache.insert(kObjectCacheKind, keys[i],
                                         compiled.objects[i]->getBuffer()))
      warn(std::move(error));
  if (!indices.empty())
    if (llvm::Error error = cache.evict())
      warn(std::move(error));
}

/// Compiles the parts at `indices` into `compiled`, largest first so that
/// the last to finish is a small one.
llvm::Error compileInParallel(llvm::ArrayRef<std::string> parts,
                              std::vector<size_t> indices,
                              CompiledParts &compiled) {
  llvm::sort(indices, [&](size_t a, size_t b) {
    return parts[a].size() > parts[b].size();
  });
  std::vector<std::optional<std::string>> errors(parts.size());
  {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency());
    for (size_t i : indices)
      pool.async([&, i] {
        llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> object =
            compilePart(parts[i]);
        if (object)
          compiled.objects[i] = std::move(*object);
        else
          errors[i] = llvm::toString(object.takeError());
      });
    pool.wait();
  }
  for (const std::optional<std::string> &error : errors)
    if (error)
      return llvm::createStringError(*error);
  return llvm::Error::success();
}
} // namespace

llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createHostMachine() {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> builder =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  return builder->createTargetMachine();
}

llvm::Expected<CompiledParts> compileParts(llvm::ArrayRef<std::string> parts,
                                           const llvm::TargetMachine &machine,
                                           ContentCache *cache) {
  CompiledParts compiled;
  compiled.objects.resize(parts.size());
  std::vector<std::string> keys;
  std::vector<size_t> misses;
  if (cache) {
    for (const std::string &part : parts)
      keys.push_back(getObjectKey(part, machine));
    misses = lookupParts(keys, *cache, compiled);
  } else {
    for (size_t i = 0, e = parts.size(); i < e; ++i)
      misses.push_back(i);
  }
  if (llvm::Error error = compileInParallel(parts, misses, compiled))
    return std::move(error);
  if (cache)
    storeParts(keys, misses, *cache, compiled);
  return std::move(compiled);
}

} // namespace dispatchlab
