//===- CodeSizeTest.cpp - size of JIT-compiled machine code ---------------===//

#include "core/codegen/CodeSize.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/Support/TargetSelect.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace dispatchlab;

namespace {
/// One function summing its argument `terms` times: more terms, more code.
std::string sumFunction(int terms) {
  std::string body = "llvm.func @f(%x: i64) -> i64 {\n  %s0 = llvm.add %x, %x "
                     ": i64\n";
  for (int i = 1; i < terms; ++i)
    body += "  %s" + std::to_string(i) + " = llvm.mul %s" +
            std::to_string(i - 1) + ", %x : i64\n";
  return body + "  llvm.return %s" + std::to_string(terms - 1) + " : i64\n}\n";
}

class CodeSizeTest : public ::testing::Test {
protected:
  CodeSizeTest() {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    DialectRegistry registry;
    registerBuiltinDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    context.appendDialectRegistry(registry);
    context.loadDialect<LLVM::LLVMDialect>();
  }

  std::unique_ptr<ExecutionEngine> jit(StringRef ir, bool keepObject) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(ir, &context);
    EXPECT_TRUE(module);
    ExecutionEngineOptions options;
    options.enableObjectDump = keepObject;
    auto engine = ExecutionEngine::create(*module, options);
    EXPECT_TRUE(bool(engine));
    return engine ? std::move(*engine) : nullptr;
  }

  MLIRContext context;
};

TEST_F(CodeSizeTest, CountsTheTextOfTheJitsObject) {
  std::unique_ptr<ExecutionEngine> small = jit(sumFunction(1), true);
  std::unique_ptr<ExecutionEngine> large = jit(sumFunction(64), true);
  ASSERT_TRUE(small && large);
  llvm::Expected<int64_t> smallSize = measureCodeSize(*small);
  ASSERT_TRUE(static_cast<bool>(smallSize))
      << llvm::toString(smallSize.takeError());
  llvm::Expected<int64_t> largeSize = measureCodeSize(*large);
  ASSERT_TRUE(static_cast<bool>(largeSize))
      << llvm::toString(largeSize.takeError());
  // At least a return instruction; 63 more multiplies take more bytes.
  EXPECT_GT(*smallSize, 0);
  EXPECT_GT(*largeSize, *smallSize);
}

TEST_F(CodeSizeTest, NeedsTheObjectKept) {
  std::unique_ptr<ExecutionEngine> engine = jit(sumFunction(1), false);
  ASSERT_TRUE(engine);
  llvm::Expected<int64_t> size = measureCodeSize(*engine);
  EXPECT_FALSE(static_cast<bool>(size));
  std::string error = llvm::toString(size.takeError());
  EXPECT_NE(error.find("cannot read the JIT's object code"), std::string::npos)
      << error;
}
} // namespace
