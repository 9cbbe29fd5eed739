//===- ModulePartsTest.cpp - a model's code compiled and cached in parts --===//

#include "core/codegen/ModuleParts.h"
#include "core/codegen/HostJit.h"
#include "core/codegen/PartCompiler.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

using namespace dispatchlab;

namespace {
/// A model after translation: dispatches 0 and 1 are alike, 2 counts its
/// calls in a variable and has an argument it does not use; `init` stands
/// for the weight initializer.
constexpr const char *kModel = R"(
@table = internal constant [2 x float] [float 1.0, float 2.0]
@calls = internal global i64 0
define internal void @main_dispatch_0(ptr %out, i64 %i) noinline {
  %element = getelementptr [2 x float], ptr @table, i64 0, i64 %i
  %value = load float, ptr %element
  store float %value, ptr %out
  ret void
}
define internal void @main_dispatch_1(ptr %out, i64 %i) noinline {
  %element = getelementptr [2 x float], ptr @table, i64 0, i64 %i
  %value = load float, ptr %element
  store float %value, ptr %out
  ret void
}
define internal void @main_dispatch_2(ptr %out, i64 %unused) noinline {
  %old = load i64, ptr @calls
  %new = add i64 %old, 1
  store i64 %new, ptr @calls
  %value = sitofp i64 %new to float
  store float %value, ptr %out
  ret void
}
define void @entry(ptr %a, ptr %b, ptr %c) {
  call void @main_dispatch_0(ptr %a, i64 1)
  call void @main_dispatch_1(ptr %b, i64 1)
  call void @main_dispatch_2(ptr %c, i64 7)
  ret void
}
define void @init(ptr %out) {
  call void @fill(ptr %out)
  ret void
}
define internal void @fill(ptr %out) {
  store float 3.0, ptr %out
  ret void
}
)";

/// Another model forming dispatch 0 of kModel under other names, and one
/// alike but for its constant.
constexpr const char *kOtherModel = R"(
@weights = internal constant [2 x float] [float 1.0, float 2.0]
@other = internal constant [2 x float] [float 1.0, float 5.0]
define internal void @forward_dispatch_7(ptr %out, i64 %i) noinline {
  %element = getelementptr [2 x float], ptr @weights, i64 0, i64 %i
  %value = load float, ptr %element
  store float %value, ptr %out
  ret void
}
define internal void @forward_dispatch_8(ptr %out, i64 %i) noinline {
  %element = getelementptr [2 x float], ptr @other, i64 0, i64 %i
  %value = load float, ptr %element
  store float %value, ptr %out
  ret void
}
define void @forward(ptr %a, ptr %b) {
  call void @forward_dispatch_7(ptr %a, i64 1)
  call void @forward_dispatch_8(ptr %b, i64 1)
  ret void
}
)";

class ModulePartsTest : public ::testing::Test {
protected:
  std::unique_ptr<llvm::Module> parse(const char *text) {
    llvm::SMDiagnostic error;
    std::unique_ptr<llvm::Module> module =
        llvm::parseAssemblyString(text, error, context);
    EXPECT_TRUE(module) << error.getMessage().str();
    return module;
  }
  /// kModel exported as the codegen pipeline does, then split.
  std::vector<std::string> splitModel() {
    std::unique_ptr<llvm::Module> module = parse(kModel);
    EXPECT_FALSE(bool(exportPackedEntryPoints(*module, {"entry", "init"})));
    llvm::Expected<std::vector<std::string>> parts = splitIntoParts(
        *module, {"main_dispatch_0", "main_dispatch_1", "main_dispatch_2"},
        {getPackedEntryPoint("init")});
    EXPECT_TRUE(bool(parts)) << llvm::toString(parts.takeError());
    return parts ? *parts : std::vector<std::string>();
  }
  std::unique_ptr<llvm::Module> read(const std::string &bitcode) {
    llvm::Expected<std::unique_ptr<llvm::Module>> module =
        llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, "part"), context);
    EXPECT_TRUE(bool(module)) << llvm::toString(module.takeError());
    return module ? std::move(*module) : nullptr;
  }
  /// The functions `module` defines, by name.
  std::vector<std::string> definitions(const llvm::Module &module) {
    std::vector<std::string> names;
    for (const llvm::Function &function : module)
      if (!function.isDeclaration())
        names.push_back(function.getName().str());
    return names;
  }

  llvm::LLVMContext context;
};

TEST_F(ModulePartsTest, OnePartPerDistinctDispatchAndEntryThenTheHost) {
  std::vector<std::string> parts = splitModel();
  // Dispatches 0 and 1 are one; the initializer; the host last.
  ASSERT_EQ(parts.size(), 4u);
  std::unique_ptr<llvm::Module> first = read(parts[0]);
  std::unique_ptr<llvm::Module> second = read(parts[1]);
  std::unique_ptr<llvm::Module> init = read(parts[2]);
  std::unique_ptr<llvm::Module> host = read(parts[3]);
  ASSERT_TRUE(first && second && init && host);
  std::vector<std::string> firstNames = definitions(*first);
  ASSERT_EQ(firstNames.size(), 1u);
  EXPECT_TRUE(
      llvm::StringRef(firstNames[0]).starts_with("dispatchlab_dispatch_"));
  EXPECT_EQ(firstNames[0].size(), strlen("dispatchlab_dispatch_") + 32);
  // The constant it reads travels with it, as a private copy.
  ASSERT_EQ(first->global_size(), 1u);
  EXPECT_TRUE(first->globals().begin()->hasInitializer());
  // The initializer brings the internal function it calls.
  EXPECT_EQ(definitions(*init).size(), 3u);
  EXPECT_NE(init->getFunction("_mlir_init"), nullptr);
  // The host defines no dispatch and calls the first twice.
  std::vector<std::string> hostNames = definitions(*host);
  EXPECT_EQ(llvm::count(hostNames, firstNames[0]), 0);
  llvm::Function *declared = host->getFunction(firstNames[0]);
  ASSERT_NE(declared, nullptr);
  EXPECT_TRUE(declared->isDeclaration());
  EXPECT_EQ(declared->getNumUses(), 2u);
  EXPECT_TRUE(host->getFunction("_mlir_init")->isDeclaration());
  EXPECT_EQ(host->getFunction("fill"), nullptr);
}

TEST_F(ModulePartsTest, ADispatchIsNamedAfterItsContent) {
  std::vector<std::string> parts = splitModel();
  std::unique_ptr<llvm::Module> other = parse(kOtherModel);
  ASSERT_TRUE(other && parts.size() == 4u);
  llvm::Expected<std::vector<std::string>> otherParts =
      splitIntoParts(*other, {"forward_dispatch_7", "forward_dispatch_8"}, {});
  ASSERT_TRUE(bool(otherParts)) << llvm::toString(otherParts.takeError());
  ASSERT_EQ(otherParts->size(), 3u);
  // The same code and constant under other names: the same part.
  EXPECT_EQ((*otherParts)[0], parts[0]);
  // Another constant value: another part, another name.
  EXPECT_NE((*otherParts)[1], parts[0]);
  EXPECT_NE(definitions(*read((*otherParts)[1])), definitions(*read(parts[0])));
}

TEST_F(ModulePartsTest, AVariableSharedWithTheHostIsOneDefinition) {
  std::vector<std::string> parts = splitModel();
  ASSERT_EQ(parts.size(), 4u);
  std::unique_ptr<llvm::Module> counting = read(parts[1]);
  std::unique_ptr<llvm::Module> host = read(parts[3]);
  ASSERT_TRUE(counting && host);
  llvm::GlobalVariable *declared = counting->getGlobalVariable("calls");
  ASSERT_NE(declared, nullptr);
  EXPECT_TRUE(declared->isDeclaration());
  llvm::GlobalVariable *defined = host->getGlobalVariable("calls");
  ASSERT_NE(defined, nullptr);
  EXPECT_TRUE(defined->hasInitializer());
  EXPECT_TRUE(defined->hasExternalLinkage());
}

TEST_F(ModulePartsTest, ADispatchLosesTheArgumentsItDoesNotUse) {
  std::vector<std::string> parts = splitModel();
  ASSERT_EQ(parts.size(), 4u);
  std::unique_ptr<llvm::Module> counting = read(parts[1]);
  std::unique_ptr<llvm::Module> host = read(parts[3]);
  ASSERT_TRUE(counting && host);
  std::vector<std::string> names = definitions(*counting);
  ASSERT_EQ(names.size(), 1u);
  EXPECT_EQ(counting->getFunction(names[0])->arg_size(), 1u);
  EXPECT_EQ(host->getFunction(names[0])->arg_size(), 1u);
}

TEST_F(ModulePartsTest, ThePartsLinkAndRunAsTheModule) {
  std::vector<std::string> parts = splitModel();
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createHostMachine();
  ASSERT_TRUE(bool(machine)) << llvm::toString(machine.takeError());
  llvm::Expected<CompiledParts> compiled =
      compileParts(parts, **machine, nullptr);
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  EXPECT_EQ(compiled->cacheHits, 0);
  llvm::Expected<std::unique_ptr<HostJit>> jit =
      HostJit::create(std::move(compiled->objects), {}, {});
  ASSERT_TRUE(bool(jit)) << llvm::toString(jit.takeError());
  llvm::Expected<void (*)(void **)> entry = (*jit)->lookupPacked("entry");
  llvm::Expected<void (*)(void **)> init = (*jit)->lookupPacked("init");
  ASSERT_TRUE(entry && init);
  float a = 0, b = 0, c = 0;
  float *pa = &a, *pb = &b, *pc = &c;
  void *arguments[] = {&pa, &pb, &pc};
  (*entry)(arguments);
  (*entry)(arguments);
  EXPECT_EQ(a, 2.0f);
  EXPECT_EQ(b, 2.0f);
  // One counter, however many parts use it.
  EXPECT_EQ(c, 2.0f);
  (*init)(arguments);
  EXPECT_EQ(a, 3.0f);
}

TEST_F(ModulePartsTest, AnotherModelReusesTheCachedPartsItShares) {
  llvm::SmallString<128> directory;
  ASSERT_FALSE(
      llvm::sys::fs::createUniqueDirectory("dispatchlab-parts", directory));
  ContentCache cache(directory.str().str(), /*maxBytes=*/0);
  std::vector<std::string> parts = splitModel();
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createHostMachine();
  ASSERT_TRUE(bool(machine)) << llvm::toString(machine.takeError());
  llvm::Expected<CompiledParts> first = compileParts(parts, **machine, &cache);
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
  EXPECT_EQ(first->cacheHits, 0);
  std::unique_ptr<llvm::Module> other = parse(kOtherModel);
  llvm::Expected<std::vector<std::string>> otherParts =
      splitIntoParts(*other, {"forward_dispatch_7", "forward_dispatch_8"}, {});
  ASSERT_TRUE(bool(otherParts));
  llvm::Expected<CompiledParts> second =
      compileParts(*otherParts, **machine, &cache);
  ASSERT_TRUE(bool(second)) << llvm::toString(second.takeError());
  // The shared dispatch only; its object is the one compiled first.
  EXPECT_EQ(second->cacheHits, 1);
  EXPECT_EQ(second->objects[0]->getBuffer(), first->objects[0]->getBuffer());
  EXPECT_TRUE(second->warnings.empty());
  llvm::sys::fs::remove_directories(directory);
}
} // namespace
