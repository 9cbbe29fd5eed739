//===- TaskMemoryPoolTest.cpp - the task runtime's small-block pool -------===//

#include "core/codegen/TaskMemoryPool.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstdlib>
#include <thread>

using namespace dispatchlab;

TEST(TaskMemoryPool, ReusesAFreedBlock) {
  void *first = allocateTaskMemory(200, 16);
  ASSERT_NE(first, nullptr);
  freeTaskMemory(first);
  void *second = allocateTaskMemory(100, 64);
  EXPECT_EQ(second, first);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(second) % 64, 0u);
  freeTaskMemory(second);
}

TEST(TaskMemoryPool, LargeBlocksAndForeignPointersLeaveThePool) {
  void *large = allocateTaskMemory(1 << 20, 64);
  ASSERT_NE(large, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(large) % 64, 0u);
  static_cast<char *>(large)[(1 << 20) - 1] = 1;
  freeTaskMemory(large);
  // The compiled code's memref.deallocs of malloc'd buffers come here too.
  freeTaskMemory(std::malloc(64));
  freeTaskMemory(nullptr);
}

TEST(TaskMemoryPool, ABlockFreedOnAnotherThreadIsReused) {
  void *block = allocateTaskMemory(512, 16);
  std::thread([block] { freeTaskMemory(block); }).join();
  void *again = allocateTaskMemory(512, 16);
  EXPECT_EQ(again, block);
  freeTaskMemory(again);
}
