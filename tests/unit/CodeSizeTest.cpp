//===- CodeSizeTest.cpp - size of JIT-compiled machine code ---------------===//

#include "core/codegen/CodeSize.h"
#include "core/codegen/HostJit.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"

#include <gtest/gtest.h>

using namespace dispatchlab;

namespace {
/// One function summing its argument `terms` times: more terms, more code.
std::string sumFunction(int terms) {
  std::string body = "define i64 @f(i64 %x) {\n  %s0 = add i64 %x, %x\n";
  for (int i = 1; i < terms; ++i)
    body += "  %s" + std::to_string(i) + " = mul i64 %s" +
            std::to_string(i - 1) + ", %x\n";
  return body + "  ret i64 %s" + std::to_string(terms - 1) + "\n}\n";
}

class CodeSizeTest : public ::testing::Test {
protected:
  CodeSizeTest() {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  }

  /// `ir` compiled for the host into an object, as the codegen pipeline
  /// compiles a model (compileObject), unoptimized.
  std::unique_ptr<llvm::MemoryBuffer> compile(llvm::StringRef ir) {
    llvm::SMDiagnostic diagnostic;
    std::unique_ptr<llvm::Module> module =
        llvm::parseAssemblyString(ir, diagnostic, context);
    if (!module)
      return fail(llvm::createStringError(diagnostic.getMessage()));
    auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!builder)
      return fail(builder.takeError());
    auto machine = builder->createTargetMachine();
    if (!machine)
      return fail(machine.takeError());
    module->setDataLayout((*machine)->createDataLayout());
    auto object = compileObject(*module, **machine);
    if (!object)
      return fail(object.takeError());
    return std::move(*object);
  }

  static std::unique_ptr<llvm::MemoryBuffer> fail(llvm::Error error) {
    ADD_FAILURE() << llvm::toString(std::move(error));
    return nullptr;
  }

  llvm::LLVMContext context;
};

TEST_F(CodeSizeTest, CountsTheTextOfTheObject) {
  std::unique_ptr<llvm::MemoryBuffer> small = compile(sumFunction(1));
  std::unique_ptr<llvm::MemoryBuffer> large = compile(sumFunction(64));
  ASSERT_TRUE(small && large);
  llvm::Expected<int64_t> smallSize =
      measureObjectCodeSize(small->getMemBufferRef());
  ASSERT_TRUE(static_cast<bool>(smallSize))
      << llvm::toString(smallSize.takeError());
  llvm::Expected<int64_t> largeSize =
      measureObjectCodeSize(large->getMemBufferRef());
  ASSERT_TRUE(static_cast<bool>(largeSize))
      << llvm::toString(largeSize.takeError());
  // At least a return instruction; 63 more multiplies take more bytes.
  EXPECT_GT(*smallSize, 0);
  EXPECT_GT(*largeSize, *smallSize);
}

TEST_F(CodeSizeTest, ADamagedObjectIsAnError) {
  llvm::MemoryBufferRef garbage("not an object file", "garbage.o");
  llvm::Expected<int64_t> size = measureObjectCodeSize(garbage);
  ASSERT_FALSE(static_cast<bool>(size));
  std::string error = llvm::toString(size.takeError());
  EXPECT_NE(error.find("cannot read the JIT's object code"), std::string::npos)
      << error;
}
} // namespace
