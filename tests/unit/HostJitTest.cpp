//===- HostJitTest.cpp - what a compiled model exports --------------------===//

#include "core/codegen/HostJit.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

using namespace dispatchlab;

namespace {
constexpr const char *kModule = R"(
define i64 @entry(i64 %x) {
  %y = call i64 @helper(i64 %x)
  ret i64 %y
}
define i64 @helper(i64 %x) {
  ret i64 %x
}
declare void @hook()
)";

class HostJitTest : public ::testing::Test {
protected:
  HostJitTest() {
    llvm::SMDiagnostic error;
    module = llvm::parseAssemblyString(kModule, error, context);
  }

  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module;
};

TEST_F(HostJitTest, ExportsOnlyTheEntryPointsWrappers) {
  ASSERT_TRUE(module);
  ASSERT_FALSE(bool(exportPackedEntryPoints(*module, {"entry"})));
  llvm::Function *wrapper = module->getFunction("_mlir_entry");
  ASSERT_NE(wrapper, nullptr);
  EXPECT_TRUE(wrapper->hasExternalLinkage());
  EXPECT_TRUE(module->getFunction("entry")->hasLocalLinkage());
  EXPECT_TRUE(module->getFunction("helper")->hasLocalLinkage());
  EXPECT_EQ(module->getFunction("_mlir_helper"), nullptr);
  // A declaration is resolved at link time; it stays as it is.
  EXPECT_TRUE(module->getFunction("hook")->isDeclaration());
}

TEST_F(HostJitTest, AMissingEntryPointIsAnError) {
  ASSERT_TRUE(module);
  for (llvm::StringRef name : {"absent", "hook"}) {
    llvm::Error error = exportPackedEntryPoints(*module, {name});
    ASSERT_TRUE(bool(error)) << name.str();
    EXPECT_EQ(llvm::toString(std::move(error)),
              "no function " + name.str() + " to export");
  }
}
} // namespace
