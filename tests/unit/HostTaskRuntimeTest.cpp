//===- HostTaskRuntimeTest.cpp - the async runtime dispatches call --------===//
//
// The runtime is called through the C API the compiled code uses: these
// tests look its functions up by name, as the JIT does, and drive them
// with plain functions standing in for coroutines' resume functions.

#include "core/codegen/HostTaskRuntime.h"

#include "llvm/ADT/StringMap.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using namespace dispatchlab;

namespace {

/// The runtime's functions by name.
class HostTaskRuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    for (auto [name, address] : getHostTaskRuntimeSymbols())
      functions[name] = address;
    reserveHostTaskWorkers(2);
  }
  template <typename Function> Function *get(llvm::StringRef name) {
    EXPECT_TRUE(functions.count(name)) << name.str();
    return reinterpret_cast<Function *>(functions.lookup(name));
  }
  llvm::StringMap<void *> functions;
};

/// A task's state: the token it emplaces when run, and who ran it.
struct FakeTask {
  void *token = nullptr;
  void (*emplace)(void *) = nullptr;
  std::atomic<int> runs = 0;
  std::thread::id thread;
};

void runFakeTask(void *handle) {
  auto *task = static_cast<FakeTask *>(handle);
  task->thread = std::this_thread::get_id();
  task->runs.fetch_add(1);
  task->emplace(task->token);
}

TEST_F(HostTaskRuntimeTest, AGroupIsReadyOnceEveryTaskHasRun) {
  auto *createGroup = get<void *(int64_t)>("mlirAsyncRuntimeCreateGroup");
  auto *createToken = get<void *()>("mlirAsyncRuntimeCreateToken");
  auto *addToGroup =
      get<int64_t(void *, void *)>("mlirAsyncRuntimeAddTokenToGroup");
  auto *execute =
      get<void(void *, void (*)(void *))>("mlirAsyncRuntimeExecute");
  auto *awaitAll = get<void(void *)>("mlirAsyncRuntimeAwaitAllInGroup");
  auto *dropRef = get<void(void *, int64_t)>("mlirAsyncRuntimeDropRef");
  auto *isError = get<bool(void *)>("mlirAsyncRuntimeIsGroupError");
  auto *emplace = get<void(void *)>("mlirAsyncRuntimeEmplaceToken");

  // Many rounds: a lost wake-up or a group completed early shows up as a
  // hang or a task not yet run.
  for (int round = 0; round < 200; ++round) {
    constexpr int kTasks = 8;
    std::vector<FakeTask> tasks(kTasks);
    void *group = createGroup(kTasks);
    for (int i = 0; i < kTasks; ++i) {
      tasks[i].token = createToken();
      tasks[i].emplace = emplace;
      EXPECT_EQ(addToGroup(tasks[i].token, group), i);
      // The caller's reference; the task keeps the other one.
      dropRef(tasks[i].token, 1);
      execute(&tasks[i], &runFakeTask);
    }
    awaitAll(group);
    for (const FakeTask &task : tasks)
      ASSERT_EQ(task.runs.load(), 1) << "round " << round;
    EXPECT_FALSE(isError(group));
    dropRef(group, 1);
  }
}

TEST_F(HostTaskRuntimeTest, AwaitersRunWhenTheTokenBecomesReady) {
  auto *createToken = get<void *()>("mlirAsyncRuntimeCreateToken");
  auto *awaitAndExecute = get<void(void *, void *, void (*)(void *))>(
      "mlirAsyncRuntimeAwaitTokenAndExecute");
  auto *emplace = get<void(void *)>("mlirAsyncRuntimeEmplaceToken");
  auto *setError = get<void(void *)>("mlirAsyncRuntimeSetTokenError");
  auto *isError = get<bool(void *)>("mlirAsyncRuntimeIsTokenError");
  auto *dropRef = get<void(void *, int64_t)>("mlirAsyncRuntimeDropRef");
  auto *awaitToken = get<void(void *)>("mlirAsyncRuntimeAwaitToken");

  void *token = createToken();
  void *next = createToken();
  FakeTask continuation;
  continuation.token = next;
  continuation.emplace = emplace;
  awaitAndExecute(token, &continuation, &runFakeTask);
  EXPECT_EQ(continuation.runs.load(), 0);
  emplace(token);
  // On the thread that made the token ready.
  EXPECT_EQ(continuation.runs.load(), 1);
  EXPECT_EQ(continuation.thread, std::this_thread::get_id());
  // Registered on a ready token: at once.
  FakeTask late;
  late.token = createToken();
  late.emplace = setError;
  awaitAndExecute(token, &late, &runFakeTask);
  EXPECT_EQ(late.runs.load(), 1);
  EXPECT_TRUE(isError(late.token));
  EXPECT_FALSE(isError(token));
  awaitToken(next);
  dropRef(token, 1);
  dropRef(next, 1);
  dropRef(late.token, 1);
}

TEST_F(HostTaskRuntimeTest, AnEmptyGroupIsReady) {
  auto *createGroup = get<void *(int64_t)>("mlirAsyncRuntimeCreateGroup");
  auto *awaitAll = get<void(void *)>("mlirAsyncRuntimeAwaitAllInGroup");
  auto *dropRef = get<void(void *, int64_t)>("mlirAsyncRuntimeDropRef");
  auto *workers = get<int64_t()>("mlirAsyncRuntimGetNumWorkerThreads");
  void *group = createGroup(0);
  awaitAll(group);
  dropRef(group, 1);
  EXPECT_GE(workers(), 1);
}

} // namespace
