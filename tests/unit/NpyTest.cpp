//===- NpyTest.cpp - .npy reader and writer -------------------------------===//

#include "core/support/Npy.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace dispatchlab;

namespace {

class NpyTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(
        llvm::sys::fs::createUniqueDirectory("dispatchlab-npy", directory));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(directory); }

  std::string path(llvm::StringRef name) {
    return (directory + "/" + name).str();
  }
  /// Writes raw bytes, as numpy would have.
  void writeFile(llvm::StringRef name, llvm::StringRef bytes) {
    std::error_code ec;
    llvm::raw_fd_ostream os(path(name), ec);
    ASSERT_FALSE(ec);
    os << bytes;
  }

  llvm::SmallString<128> directory;
};

/// The message `result` failed with; empty when it holds an array.
std::string errorOf(llvm::Expected<HostArray> &result) {
  return result ? "" : llvm::toString(result.takeError());
}

TEST_F(NpyTest, RoundTripsEveryType) {
  for (ElementType type :
       {ElementType::F16, ElementType::BF16, ElementType::F32, ElementType::F64,
        ElementType::I8, ElementType::I32, ElementType::I64,
        ElementType::Bool}) {
    HostArray array(type, {2, 3});
    for (int64_t i = 0; i < 6; ++i)
      array.setDouble(i, type == ElementType::Bool ? i % 2 : i - 2);
    ASSERT_EQ(llvm::toString(writeNpy(path("a.npy"), array)), "");
    llvm::Expected<HostArray> read = readNpy(path("a.npy"));
    ASSERT_TRUE(static_cast<bool>(read)) << errorOf(read);
    EXPECT_EQ(read->type, type);
    EXPECT_EQ(read->shape, (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(read->data, array.data) << getElementTypeName(type).str();
  }
}

TEST_F(NpyTest, ConvertsBFloat16) {
  HostArray narrow(ElementType::BF16, {2});
  narrow.setDouble(0, 1.5);
  narrow.setDouble(1, 3.0e38); // beyond f16, within bf16's f32 exponent
  EXPECT_EQ(narrow.getDouble(0), 1.5);
  EXPECT_NEAR(narrow.getDouble(1), 3.0e38, 3.0e38 / 128);
  // 1.5 in bfloat16 is 0x3fc0 (f32's upper half), stored little-endian.
  EXPECT_EQ(narrow.data[0], 0xc0);
  EXPECT_EQ(narrow.data[1], 0x3f);
}

TEST_F(NpyTest, ConvertsHalfAndFloat) {
  HostArray half(ElementType::F16, {3});
  half.setDouble(0, 1.5);
  half.setDouble(1, -0.0999755859375); // exactly representable in f16
  half.setDouble(2, 65504);
  EXPECT_EQ(half.getDouble(0), 1.5);
  EXPECT_EQ(half.getDouble(1), -0.0999755859375);
  EXPECT_EQ(half.getDouble(2), 65504);
  // 1.5 in IEEE half is 0x3e00, stored little-endian.
  EXPECT_EQ(half.data[0], 0x00);
  EXPECT_EQ(half.data[1], 0x3e);
}

TEST_F(NpyTest, WritesNumpyHeader) {
  HostArray array(ElementType::F32, {4});
  ASSERT_EQ(llvm::toString(writeNpy(path("v.npy"), array)), "");
  auto buffer = llvm::MemoryBuffer::getFile(path("v.npy"));
  ASSERT_TRUE(buffer);
  llvm::StringRef bytes = (*buffer)->getBuffer();
  EXPECT_TRUE(bytes.starts_with(llvm::StringRef("\x93NUMPY\x01\x00", 8)));
  // Header padded so the data starts 64-byte aligned (128: this dict does
  // not fit in 64 bytes with the preamble, as with numpy).
  EXPECT_EQ(bytes.size(), 128u + 16u);
  EXPECT_TRUE(bytes.contains("'descr': '<f4'"));
  EXPECT_TRUE(bytes.contains("'shape': (4,)"));
  EXPECT_EQ(bytes[127], '\n');
}

TEST_F(NpyTest, ReadsScalarAndVersion2) {
  // numpy.save of np.float32(2.5): shape (), version 1.0.
  std::string header =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (), }";
  header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  std::string v1 =
      std::string("\x93NUMPY\x01\x00", 8) + char(header.size()) + '\0' + header;
  float value = 2.5f;
  v1.append(reinterpret_cast<const char *>(&value), 4);
  writeFile("s.npy", v1);
  llvm::Expected<HostArray> read = readNpy(path("s.npy"));
  ASSERT_TRUE(static_cast<bool>(read)) << errorOf(read);
  EXPECT_TRUE(read->shape.empty());
  EXPECT_EQ(read->getDouble(0), 2.5);

  // Version 2.0 has a four-byte header length.
  std::string v2 = std::string("\x93NUMPY\x02\x00", 8) + char(header.size()) +
                   std::string(3, '\0') + header;
  v2.append(reinterpret_cast<const char *>(&value), 4);
  writeFile("s2.npy", v2);
  llvm::Expected<HostArray> read2 = readNpy(path("s2.npy"));
  ASSERT_TRUE(static_cast<bool>(read2)) << errorOf(read2);
  EXPECT_EQ(read2->getDouble(0), 2.5);
}

TEST(HostArray, StorageIsAlignedAsDeviceBuffers) {
  // Plain new gives 16 bytes, so among these sizes some would land off a
  // cache line.
  std::vector<HostArray> arrays;
  for (int64_t size = 1; size <= 64; ++size)
    arrays.emplace_back(ElementType::F32, std::vector<int64_t>{size});
  for (const HostArray &array : arrays)
    EXPECT_EQ(reinterpret_cast<uintptr_t>(array.data.data()) %
                  kHostBufferAlignment,
              0u)
        << array.data.size() << " bytes";
}

TEST_F(NpyTest, RejectsBadFiles) {
  llvm::Expected<HostArray> missing = readNpy(path("missing.npy"));
  EXPECT_FALSE(static_cast<bool>(missing));
  EXPECT_NE(errorOf(missing).find("missing.npy"), std::string::npos);

  writeFile("junk.npy", "not numpy at all");
  llvm::Expected<HostArray> junk = readNpy(path("junk.npy"));
  EXPECT_FALSE(static_cast<bool>(junk));
  EXPECT_NE(errorOf(junk).find("bad magic"), std::string::npos);

  auto makeFile = [](llvm::StringRef dict, size_t dataBytes) {
    std::string header = dict.str();
    header += '\n';
    return std::string("\x93NUMPY\x01\x00", 8) + char(header.size()) + '\0' +
           header + std::string(dataBytes, '\0');
  };
  writeFile("fortran.npy",
            makeFile("{'descr': '<f4', 'fortran_order': True, 'shape': (2, "
                     "2), }",
                     16));
  llvm::Expected<HostArray> fortran = readNpy(path("fortran.npy"));
  EXPECT_FALSE(static_cast<bool>(fortran));
  EXPECT_NE(errorOf(fortran).find("Fortran"), std::string::npos);

  writeFile("bigendian.npy",
            makeFile("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), "
                     "}",
                     8));
  llvm::Expected<HostArray> bigendian = readNpy(path("bigendian.npy"));
  EXPECT_FALSE(static_cast<bool>(bigendian));
  EXPECT_NE(errorOf(bigendian).find("'>f4'"), std::string::npos);

  writeFile("short.npy",
            makeFile("{'descr': '<i8', 'fortran_order': False, 'shape': (3,), "
                     "}",
                     16));
  llvm::Expected<HostArray> shortData = readNpy(path("short.npy"));
  EXPECT_FALSE(static_cast<bool>(shortData));
  EXPECT_NE(errorOf(shortData).find("expected 24 data bytes, found 16"),
            std::string::npos);
}

} // namespace
