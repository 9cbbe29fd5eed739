//===- HostBufferCacheTest.cpp - a compiled model's buffers, kept ---------===//

#include "core/codegen/HostBufferCache.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstdlib>
#include <thread>

using namespace dispatchlab;

namespace {
bool isAligned(void *pointer, size_t alignment) {
  return reinterpret_cast<uintptr_t>(pointer) % alignment == 0;
}
} // namespace

TEST(HostBufferCache, ReusesABufferOfTheSameShape) {
  HostBufferCache cache(1 << 20);
  void *first = cache.allocate(1000, 64);
  ASSERT_NE(first, nullptr);
  EXPECT_TRUE(isAligned(first, 64));
  static_cast<char *>(first)[999] = 1;
  cache.free(first);
  EXPECT_EQ(cache.getIdleBytes(), 1024u);
  // 1000 and 1020 bytes round to the same 64-byte multiple.
  void *second = cache.allocate(1020, 64);
  EXPECT_EQ(second, first);
  EXPECT_EQ(cache.getIdleBytes(), 0u);
  cache.free(second);
}

TEST(HostBufferCache, OtherShapesGetBuffersOfTheirOwn) {
  HostBufferCache cache(1 << 20);
  void *small = cache.allocate(256, 64);
  cache.free(small);
  void *larger = cache.allocate(512, 64);
  void *wider = cache.allocate(256, 128);
  EXPECT_NE(larger, small);
  EXPECT_NE(wider, small);
  EXPECT_TRUE(isAligned(wider, 128));
  cache.free(larger);
  cache.free(wider);
  EXPECT_EQ(cache.getIdleBytes(), 256u + 512u + 256u);
}

TEST(HostBufferCache, KeepsNoMoreThanItsLimitDroppingTheOldest) {
  HostBufferCache cache(4096);
  void *older = cache.allocate(4096, 64);
  void *newer = cache.allocate(64, 64);
  cache.free(older);
  cache.free(newer);
  EXPECT_EQ(cache.getIdleBytes(), 64u);
  EXPECT_EQ(cache.allocate(64, 64), newer);
  cache.free(newer);
}

TEST(HostBufferCache, TheLatestFreedBufferThatFitsServesSmallerShapes) {
  HostBufferCache cache(1 << 20);
  void *older = cache.allocate(640, 64);
  void *latest = cache.allocate(1024, 64);
  cache.free(older);
  cache.free(latest);
  // Both hold 600 bytes; the one freed last is taken.
  EXPECT_EQ(cache.allocate(600, 64), latest);
  // Half of `older` would go unused by 256 bytes: a new buffer.
  void *small = cache.allocate(256, 64);
  EXPECT_NE(small, older);
  cache.free(small);
  cache.free(latest);
}

TEST(HostBufferCache, ForeignPointersGoToTheCLibrary) {
  HostBufferCache cache(1 << 20);
  cache.free(std::malloc(64));
  cache.free(nullptr);
  EXPECT_EQ(cache.getIdleBytes(), 0u);
}

TEST(HostBufferCache, ABufferFreedOnAnotherThreadIsReused) {
  HostBufferCache cache(1 << 20);
  void *buffer = cache.allocate(1 << 16, 64);
  std::thread([&] { cache.free(buffer); }).join();
  EXPECT_EQ(cache.allocate(1 << 16, 64), buffer);
  cache.free(buffer);
}

TEST(HostBufferCache, ZeroBytesStillGetABuffer) {
  HostBufferCache cache(1 << 20);
  void *first = cache.allocate(0, 16);
  void *second = cache.allocate(0, 16);
  ASSERT_NE(first, nullptr);
  EXPECT_NE(first, second);
  cache.free(first);
  cache.free(second);
}
