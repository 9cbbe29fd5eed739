//===- CodeSizeTest.cpp - size of JIT-compiled machine code ---------------===//

#include "core/codegen/CodeSize.h"
#include "core/codegen/HostJit.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
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

  /// `ir` compiled for the host into an object, as the codegen pipeline
  /// compiles a model (compileObject), unoptimized.
  std::unique_ptr<llvm::MemoryBuffer> compile(StringRef ir) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(ir, &context);
    if (!module)
      return nullptr;
    llvm::LLVMContext llvmContext;
    std::unique_ptr<llvm::Module> llvmModule =
        translateModuleToLLVMIR(*module, llvmContext);
    auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!llvmModule || !builder)
      return fail(builder.takeError());
    auto machine = builder->createTargetMachine();
    if (!machine)
      return fail(machine.takeError());
    llvmModule->setDataLayout((*machine)->createDataLayout());
    auto object = compileObject(*llvmModule, **machine);
    if (!object)
      return fail(object.takeError());
    return std::move(*object);
  }

  /// Records `error` (none: the IR did not translate) as the failure.
  static std::unique_ptr<llvm::MemoryBuffer> fail(llvm::Error error) {
    ADD_FAILURE() << (error ? llvm::toString(std::move(error))
                            : "cannot translate to LLVM IR");
    return nullptr;
  }

  MLIRContext context;
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
