//===- ModuleParts.cpp - a model's LLVM module, one part per dispatch -----===//

#include "core/codegen/ModuleParts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace dispatchlab {

namespace {
constexpr llvm::StringLiteral kDispatchPrefix = "dispatchlab_dispatch_";

std::string writeBitcode(const llvm::Module &module) {
  std::string bitcode;
  llvm::raw_string_ostream os(bitcode);
  llvm::WriteBitcodeToFile(module, os);
  return bitcode;
}

/// The internal functions and variables `root` uses, directly or through
/// constant expressions, initializers and the bodies of those functions.
/// Dispatches stay out: a part calls another part by name.
llvm::SetVector<llvm::GlobalValue *>
collectInternalUses(llvm::Function &root, const llvm::StringSet<> &dispatches) {
  llvm::SetVector<llvm::GlobalValue *> uses;
  llvm::SmallVector<llvm::User *> worklist;
  llvm::SmallPtrSet<llvm::User *, 32> visited;
  auto visitFunction = [&](llvm::Function &function) {
    for (llvm::Instruction &instruction : llvm::instructions(function))
      worklist.push_back(&instruction);
  };
  visitFunction(root);
  while (!worklist.empty()) {
    llvm::User *user = worklist.pop_back_val();
    for (llvm::Value *operand : user->operands()) {
      auto *constant = llvm::dyn_cast<llvm::Constant>(operand);
      if (!constant || !visited.insert(constant).second)
        continue;
      auto *global = llvm::dyn_cast<llvm::GlobalValue>(constant);
      if (!global) {
        worklist.push_back(constant);
        continue;
      }
      if (!global->hasLocalLinkage() || dispatches.contains(global->getName()))
        continue;
      uses.insert(global);
      if (auto *function = llvm::dyn_cast<llvm::Function>(global))
        visitFunction(*function);
      else if (auto *variable = llvm::dyn_cast<llvm::GlobalVariable>(global))
        if (variable->hasInitializer())
          worklist.push_back(variable);
    }
  }
  return uses;
}

/// Internal variables a part shares with the host (or another part) must
/// be one definition that both link to; constants and functions are copied.
void externalizeSharedVariables(llvm::ArrayRef<llvm::GlobalValue *> uses) {
  for (llvm::GlobalValue *global : uses) {
    auto *variable = llvm::dyn_cast<llvm::GlobalVariable>(global);
    if (!variable || variable->isConstant())
      continue;
    if (!variable->hasName())
      variable->setName("dispatchlab_shared");
    variable->setLinkage(llvm::GlobalValue::ExternalLinkage);
    variable->setVisibility(llvm::GlobalValue::DefaultVisibility);
  }
}

/// `root` and what it uses on their own, with nothing in the module naming
/// the model: the part's content decides its bitcode.
std::unique_ptr<llvm::Module>
clonePart(llvm::Function &root,
          const llvm::SetVector<llvm::GlobalValue *> &uses) {
  llvm::ValueToValueMapTy mapping;
  std::unique_ptr<llvm::Module> part = llvm::CloneModule(
      *root.getParent(), mapping, [&](const llvm::GlobalValue *global) {
        // Shared variables, external by now, are the host's to define.
        return global == &root ||
               (global->hasLocalLinkage() &&
                uses.contains(const_cast<llvm::GlobalValue *>(global)));
      });
  // Linked to by name from the host part.
  llvm::cast<llvm::Function>(mapping[&root])
      ->setLinkage(llvm::GlobalValue::ExternalLinkage);
  part->setModuleIdentifier("part");
  part->setSourceFileName("part");
  auto eraseIfUnused = [](llvm::GlobalValue &global) {
    if (global.isDeclaration() && global.use_empty())
      global.eraseFromParent();
  };
  for (llvm::Function &function : llvm::make_early_inc_range(*part))
    eraseIfUnused(function);
  for (llvm::GlobalVariable &variable :
       llvm::make_early_inc_range(part->globals()))
    eraseIfUnused(variable);
  for (llvm::GlobalValue &global : part->global_values())
    if (global.hasLocalLinkage())
      global.setName("");
  return part;
}

/// Erases the internal functions and variables nothing uses any more (what
/// only the parts used), so that the host part's bitcode does not depend on
/// them.
void eraseUnusedInternals(llvm::Module &module) {
  bool erased = true;
  while (erased) {
    erased = false;
    for (llvm::GlobalValue &global :
         llvm::make_early_inc_range(module.global_values())) {
      if (!global.hasLocalLinkage() || !global.use_empty())
        continue;
      global.eraseFromParent();
      erased = true;
    }
  }
}

/// What whole-module -O3 did across the boundary the split puts between
/// host and dispatch: a dispatch takes each memref as a descriptor of 3 + 2
/// x rank arguments and uses few of them; while dispatches are internal,
/// folding the descriptors they rebuild (EarlyCSE) lets DeadArgumentElimination
/// drop the rest from callee and callers. (mnist_cnn's 7.6 us went 3% slower
/// without.)
llvm::Error dropUnusedArguments(llvm::Module &module) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder;
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::ModulePassManager passes;
  if (llvm::Error error = builder.parsePassPipeline(
          passes, "function(early-cse),deadargelim"))
    return error;
  passes.run(module, modules);
  return llvm::Error::success();
}

std::string hashBitcode(llvm::StringRef bitcode) {
  std::array<uint8_t, 16> hash = llvm::BLAKE3::hash<16>(
      llvm::ArrayRef<uint8_t>(bitcode.bytes_begin(), bitcode.bytes_end()));
  return llvm::toHex(hash, /*LowerCase=*/true);
}
} // namespace

llvm::Expected<std::vector<std::string>>
splitIntoParts(llvm::Module &module, llvm::ArrayRef<std::string> dispatches,
               llvm::ArrayRef<std::string> entries) {
  if (llvm::Error error = dropUnusedArguments(module))
    return std::move(error);
  llvm::StringSet<> roots;
  for (const std::string &name :
       llvm::concat<const std::string>(dispatches, entries))
    roots.insert(name);
  std::vector<std::string> parts;
  std::vector<llvm::Function *> split;
  for (const std::string &name :
       llvm::concat<const std::string>(dispatches, entries)) {
    llvm::Function *root = module.getFunction(name);
    if (!root)
      return llvm::createStringError("no function " + name +
                                     " in the LLVM module");
    if (root->isDeclaration())
      continue;
    llvm::SetVector<llvm::GlobalValue *> uses =
        collectInternalUses(*root, roots);
    externalizeSharedVariables(uses.getArrayRef());
    std::unique_ptr<llvm::Module> part = clonePart(*root, uses);
    llvm::Function *copy = part->getFunction(name);
    if (llvm::is_contained(dispatches, name)) {
      copy->setName(kDispatchPrefix.drop_back());
      std::string symbol =
          (kDispatchPrefix + hashBitcode(writeBitcode(*part))).str();
      if (llvm::Function *twin = module.getFunction(symbol)) {
        root->replaceAllUsesWith(twin);
        root->eraseFromParent();
        continue;
      }
      root->setName(symbol);
      copy->setName(symbol);
    }
    parts.push_back(writeBitcode(*part));
    split.push_back(root);
  }
  for (llvm::Function *root : split)
    root->deleteBody();
  eraseUnusedInternals(module);
  parts.push_back(writeBitcode(module));
  return parts;
}

} // namespace dispatchlab
