//===- ContentCacheTest.cpp - on-disk cache and the reference's entries ---===//

#include "core/support/ContentCache.h"
#include "core/runtime/ReferenceCache.h"
#include "core/runtime/RunSession.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

using namespace dispatchlab;
namespace fs = llvm::sys::fs;

namespace {

class ContentCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(fs::createUniqueDirectory("dispatchlab-cache", directory));
  }
  void TearDown() override { fs::remove_directories(directory); }

  std::string path(llvm::StringRef relative) {
    return (directory + "/" + relative).str();
  }
  void writeFile(llvm::StringRef relative, llvm::StringRef bytes) {
    std::error_code ec;
    llvm::raw_fd_ostream os(path(relative), ec);
    ASSERT_FALSE(ec);
    os << bytes;
  }
  std::string readFile(llvm::StringRef relative) {
    auto buffer = llvm::MemoryBuffer::getFile(path(relative));
    return buffer ? (*buffer)->getBuffer().str() : "";
  }
  void setAge(llvm::StringRef relative, std::chrono::seconds age) {
    llvm::Expected<fs::file_t> file = fs::openNativeFileForWrite(
        path(relative), fs::CD_OpenExisting, fs::OF_Append);
    ASSERT_TRUE(bool(file));
    auto time = std::chrono::system_clock::now() - age;
    ASSERT_FALSE(fs::setLastAccessAndModificationTime(*file, time));
    fs::closeFile(*file);
  }

  llvm::SmallString<128> directory;
};

/// The payload `cache` holds for `key`: "<none>" or "<error>" otherwise.
std::string lookupText(ContentCache &cache, llvm::StringRef key) {
  llvm::Expected<std::optional<std::string>> payload =
      cache.lookup("kind", key);
  if (!payload) {
    llvm::consumeError(payload.takeError());
    return "<error>";
  }
  return *payload ? **payload : "<none>";
}

TEST(CacheKeyTest, EveryPartChangesTheKey) {
  auto key = [](llvm::StringRef a, llvm::StringRef b, uint64_t n) {
    return CacheKey().add("a", a).add("b", b).add("n", n).str();
  };
  std::string base = key("x", "y", 1);
  EXPECT_EQ(base.size(), 64u);
  EXPECT_EQ(base, key("x", "y", 1));
  EXPECT_NE(base, key("X", "y", 1));
  EXPECT_NE(base, key("x", "Y", 1));
  EXPECT_NE(base, key("x", "y", 2));
  // Parts are length-prefixed: moving a byte across a boundary changes it.
  EXPECT_NE(key("xy", "", 1), key("x", "y", 1));
  EXPECT_NE(CacheKey().add("ab", "c").str(), CacheKey().add("a", "bc").str());
}

TEST_F(ContentCacheTest, StoresAndFindsEntries) {
  ContentCache cache(directory.str().str(), 0);
  EXPECT_EQ(lookupText(cache, "k1"), "<none>");
  ASSERT_FALSE(bool(cache.store("kind", "k1", "payload one")));
  ASSERT_FALSE(bool(cache.store("kind", "k2", std::string("a\0b", 3))));
  EXPECT_EQ(lookupText(cache, "k1"), "payload one");
  EXPECT_EQ(lookupText(cache, "k2"), std::string("a\0b", 3));
  // A second store of a key replaces it whole.
  ASSERT_FALSE(bool(cache.store("kind", "k1", "payload two")));
  EXPECT_EQ(lookupText(cache, "k1"), "payload two");
}

TEST_F(ContentCacheTest, DamagedEntryIsAMissAndIsRemoved) {
  ContentCache cache(directory.str().str(), 0);
  ASSERT_FALSE(bool(cache.store("kind", "k", "0123456789")));
  std::string entry = readFile("kind/k");
  // Truncated, one payload byte changed, and not an entry at all.
  for (std::string damaged :
       {entry.substr(0, entry.size() - 3),
        entry.substr(0, entry.size() - 1) + "X", std::string("garbage")}) {
    writeFile("kind/k", damaged);
    llvm::Expected<std::optional<std::string>> payload =
        cache.lookup("kind", "k");
    ASSERT_FALSE(bool(payload));
    std::string message = llvm::toString(payload.takeError());
    EXPECT_NE(message.find("kind/k is damaged"), std::string::npos) << message;
    EXPECT_EQ(lookupText(cache, "k"), "<none>");
  }
}

TEST_F(ContentCacheTest, EvictsLeastRecentlyUsedPastTheBound) {
  std::string payload(1000, 'p');
  ContentCache unbounded(directory.str().str(), 0);
  for (const char *key : {"old", "used", "new"})
    ASSERT_FALSE(bool(unbounded.store("kind", key, payload)));
  setAge("kind/old", std::chrono::seconds(300));
  setAge("kind/used", std::chrono::seconds(200));
  setAge("kind/new", std::chrono::seconds(100));
  // A hit makes "used" the most recent.
  EXPECT_EQ(lookupText(unbounded, "used"), payload);

  // Room for two entries (each is the payload and a short header).
  ContentCache bounded(directory.str().str(), 2500);
  ASSERT_FALSE(bool(bounded.evict()));
  EXPECT_EQ(lookupText(bounded, "old"), "<none>");
  EXPECT_EQ(lookupText(bounded, "new"), payload);
  EXPECT_EQ(lookupText(bounded, "used"), payload);
}

TEST_F(ContentCacheTest, InsertLeavesEvictionToTheNextStore) {
  std::string payload(1000, 'p');
  // Room for one entry.
  ContentCache bounded(directory.str().str(), 1500);
  ASSERT_FALSE(bool(bounded.insert("kind", "a", payload)));
  ASSERT_FALSE(bool(bounded.insert("kind", "b", payload)));
  EXPECT_EQ(lookupText(bounded, "a"), payload);
  EXPECT_EQ(lookupText(bounded, "b"), payload);
  setAge("kind/a", std::chrono::seconds(300));
  setAge("kind/b", std::chrono::seconds(200));
  ASSERT_FALSE(bool(bounded.store("kind", "c", payload)));
  EXPECT_EQ(lookupText(bounded, "a"), "<none>");
  EXPECT_EQ(lookupText(bounded, "b"), "<none>");
  EXPECT_EQ(lookupText(bounded, "c"), payload);
}

TEST_F(ContentCacheTest, RemovesAbandonedTemporaryFiles) {
  ContentCache cache(directory.str().str(), 0);
  ASSERT_FALSE(bool(cache.store("kind", "k", "x")));
  writeFile("kind/k.tmp-abandoned", "half");
  writeFile("kind/k.tmp-live", "half");
  setAge("kind/k.tmp-abandoned", std::chrono::hours(2));
  ASSERT_FALSE(bool(cache.evict()));
  EXPECT_FALSE(fs::exists(path("kind/k.tmp-abandoned")));
  // A younger one may be a writer at work.
  EXPECT_TRUE(fs::exists(path("kind/k.tmp-live")));
}

TEST_F(ContentCacheTest, ConcurrentWritersNeverShowAHalfEntry) {
  // Large payloads, so that a torn write would be visible.
  std::string first(1 << 20, 'a'), second(1 << 20, 'b');
  std::atomic<bool> done = false;
  std::atomic<int> damaged = 0, found = 0;
  auto write = [&](const std::string &payload) {
    ContentCache cache(directory.str().str(), 0);
    for (int i = 0; i < 20; ++i)
      EXPECT_FALSE(bool(cache.store("kind", "k", payload)));
  };
  std::thread reader([&] {
    ContentCache cache(directory.str().str(), 0);
    while (!done) {
      std::string text = lookupText(cache, "k");
      if (text == first || text == second)
        ++found;
      else if (text != "<none>")
        ++damaged;
    }
  });
  std::thread writerA(write, std::cref(first));
  std::thread writerB(write, std::cref(second));
  writerA.join();
  writerB.join();
  done = true;
  reader.join();
  EXPECT_EQ(damaged, 0);
  ContentCache cache(directory.str().str(), 0);
  std::string last = lookupText(cache, "k");
  EXPECT_TRUE(last == first || last == second);
  // No temporary file is left behind.
  std::error_code ec;
  int files = 0;
  for (fs::directory_iterator it(path("kind"), ec), end; it != end && !ec;
       it.increment(ec))
    ++files;
  EXPECT_EQ(files, 1);
}

HostArray makeArray(ElementType type, std::vector<int64_t> shape,
                    uint8_t fill) {
  HostArray array(type, std::move(shape));
  for (size_t i = 0; i < array.data.size(); ++i)
    array.data[i] = uint8_t(fill + i);
  return array;
}

TEST(ReferenceEntryTest, RoundTripsEveryBit) {
  ReferenceOutputs reference;
  reference.dispatches = 234;
  reference.outputs.push_back(makeArray(ElementType::F32, {2, 3}, 7));
  reference.outputs.push_back(makeArray(ElementType::I64, {4}, 1));
  // A NaN with payload bits: kept as bytes, never through a double.
  HostArray nan(ElementType::F32, {1});
  uint32_t bits = 0x7fc01234;
  std::memcpy(nan.data.data(), &bits, 4);
  reference.outputs.push_back(nan);
  llvm::Expected<ReferenceOutputs> parsed =
      parseReferenceEntry(formatReferenceEntry(reference));
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(parsed->dispatches, 234);
  ASSERT_EQ(parsed->outputs.size(), 3u);
  for (auto [a, b] : llvm::zip(parsed->outputs, reference.outputs)) {
    EXPECT_EQ(a.type, b.type);
    EXPECT_EQ(a.shape, b.shape);
    EXPECT_EQ(a.data, b.data);
  }
}

TEST(ReferenceEntryTest, DamagedPayloadIsAnError) {
  ReferenceOutputs reference;
  reference.outputs.push_back(makeArray(ElementType::F32, {8}, 0));
  std::string payload = formatReferenceEntry(reference);
  for (std::string damaged :
       {payload.substr(0, payload.size() - 1), payload + "x",
        std::string("1 x\n"), std::string("0 2\n3\nabc")}) {
    llvm::Expected<ReferenceOutputs> parsed = parseReferenceEntry(damaged);
    EXPECT_FALSE(bool(parsed)) << damaged;
    if (!parsed)
      llvm::consumeError(parsed.takeError());
  }
}

class ReferenceKeyTest : public ContentCacheTest {
protected:
  void SetUp() override {
    ContentCacheTest::SetUp();
    writeFile("model.mlir", "model text");
    options.modelPath = path("model.mlir");
    inputs.arrays.push_back(makeArray(ElementType::F32, {2, 2}, 1));
    inputs.sources.push_back(InputSource::Random);
    inputs.arrays.push_back(makeArray(ElementType::F32, {4}, 0));
    inputs.sources.push_back(InputSource::Packed);
  }
  std::string key() {
    llvm::Expected<std::string> key = getReferenceKey(options, inputs);
    EXPECT_TRUE(bool(key));
    return key ? *key : llvm::toString(key.takeError());
  }

  RunOptions options;
  ModelInputs inputs;
};

TEST_F(ReferenceKeyTest, EveryInputOfTheReferenceChangesTheKey) {
  std::string base = key();
  EXPECT_EQ(base, key());
  auto changes = [&](auto change) {
    RunOptions savedOptions = options;
    ModelInputs savedInputs = inputs;
    change();
    std::string changed = key();
    options = savedOptions;
    inputs = savedInputs;
    return changed != base;
  };
  EXPECT_TRUE(changes([&] { writeFile("model.mlir", "model text 2"); }));
  writeFile("model.mlir", "model text");
  EXPECT_TRUE(changes([&] { options.seed = 1; }));
  EXPECT_TRUE(changes([&] { options.modelWeights = false; }));
  EXPECT_TRUE(changes([&] { options.import.batch = 2; }));
  EXPECT_TRUE(changes([&] { options.import.dims["n"] = 3; }));
  EXPECT_TRUE(changes([&] { options.codegen.threads = 2; }));
  EXPECT_TRUE(changes([&] { inputs.arrays[0].data[0] ^= 1; }));
  EXPECT_TRUE(changes([&] { inputs.arrays[0].shape = {4, 1}; }));
  EXPECT_TRUE(changes([&] { inputs.arrays[0].type = ElementType::I32; }));
  // What the reference does not read leaves it: the variant's own packed
  // weights, its heuristics and codegen mode, the checks' tolerance.
  EXPECT_FALSE(changes([&] { inputs.arrays[1].data[0] ^= 1; }));
  EXPECT_FALSE(changes([&] { options.tolerance = 1; }));
  EXPECT_FALSE(changes([&] { options.codegen.mode = CodegenMode::Loops; }));
  EXPECT_FALSE(changes([&] { options.repetitions = 3; }));
}

TEST_F(ReferenceKeyTest, MissingModelIsAnError) {
  options.modelPath = path("absent.mlir");
  llvm::Expected<std::string> key = getReferenceKey(options, inputs);
  ASSERT_FALSE(bool(key));
  EXPECT_NE(llvm::toString(key.takeError()).find("absent.mlir"),
            std::string::npos);
}

} // namespace
