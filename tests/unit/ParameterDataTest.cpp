//===- ParameterDataTest.cpp - weights read and derived for `run` ---------===//
//
// A Gemm whose B is transposed and whose C is scaled by beta: the importer
// derives both in the parameter function, and ParameterData computes them
// from the file's initializers with it. Expected values are worked out by
// hand from ONNX's Gemm.

#include "core/runtime/ParameterData.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace dispatchlab;

namespace {

/// `text` (ONNX's text syntax) in a temporary .onnxtxt file, removed with it.
class ModelFile {
public:
  explicit ModelFile(llvm::StringRef text) {
    int fd;
    EXPECT_FALSE(
        llvm::sys::fs::createTemporaryFile("parameters", "onnxtxt", fd, path));
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << text;
  }
  ~ModelFile() { llvm::sys::fs::remove(path); }
  std::string getPath() const { return std::string(path.str()); }

private:
  llvm::SmallString<128> path;
};

constexpr const char *kGemm = R"(<ir_version: 8, opset_import: ["" : 17]>
gemm (float[1,2] x) => (float[1,3] y)
<float[3,2] w = {1, 2, 3, 4, 5, 6}, float[3] c = {2, 4, 6}>
{
  y = Gemm <transB=1, beta=0.5> (x, w, c)
}
)";

TensorSignature makeWeight(std::vector<int64_t> shape,
                           std::optional<unsigned> result,
                           std::string parameter = "") {
  TensorSignature weight;
  weight.shape = std::move(shape);
  weight.parameterResult = result;
  weight.parameter = std::move(parameter);
  return weight;
}

std::vector<double> valuesOf(const HostArray &array) {
  std::vector<double> values;
  for (int64_t i = 0, e = array.numElements(); i < e; ++i)
    values.push_back(array.getDouble(i));
  return values;
}

TEST(ParameterData, RunsTheParameterFunctionOnTheInitializers) {
  ModelFile file(kGemm);
  llvm::Expected<ParameterData> data = ParameterData::open(file.getPath());
  ASSERT_TRUE(bool(data)) << llvm::toString(data.takeError());
  ASSERT_FALSE(bool(data->deriveWeights({}, {})));

  // B transposed to [K, N] = [2, 3], the matmul operand.
  llvm::Expected<HostArray> b = data->get(makeWeight({2, 3}, 0));
  ASSERT_TRUE(bool(b)) << llvm::toString(b.takeError());
  EXPECT_EQ(valuesOf(*b), (std::vector<double>{1, 3, 5, 2, 4, 6}));
  llvm::Expected<HostArray> c = data->get(makeWeight({3}, 1));
  ASSERT_TRUE(bool(c)) << llvm::toString(c.takeError());
  EXPECT_EQ(valuesOf(*c), (std::vector<double>{1, 2, 3}));
  // An initializer the model function reads as it is.
  llvm::Expected<HostArray> w = data->get(makeWeight({3, 2}, {}, "w"));
  ASSERT_TRUE(bool(w)) << llvm::toString(w.takeError());
  EXPECT_EQ(valuesOf(*w), (std::vector<double>{1, 2, 3, 4, 5, 6}));
}

TEST(ParameterData, RefusesAnArgumentTheResultDoesNotMatch) {
  ModelFile file(kGemm);
  llvm::Expected<ParameterData> data = ParameterData::open(file.getPath());
  ASSERT_TRUE(bool(data)) << llvm::toString(data.takeError());
  ASSERT_FALSE(bool(data->deriveWeights({}, {})));
  EXPECT_EQ(llvm::toString(data->get(makeWeight({3, 1}, 1)).takeError()),
            "result 1 of the parameter function is float32[3], the argument "
            "float32[3x1]");
  EXPECT_EQ(llvm::toString(data->get(makeWeight({3}, 2)).takeError()),
            "the parameter function has no result 2");
  EXPECT_EQ(llvm::toString(data->get(makeWeight({3}, {}, "v")).takeError()),
            "no initializer or Constant node 'v' in the model");
}

TEST(ParameterData, NamesAStrippedInitializer) {
  // `<float[3] c>` declares c without data: weights stripped from the file.
  ModelFile file(R"(<ir_version: 8, opset_import: ["" : 17]>
gemm (float[1,2] x) => (float[1,3] y)
<float[3,2] w = {1, 2, 3, 4, 5, 6}, float[3] c>
{
  y = Gemm <transB=1, beta=0.5> (x, w, c)
}
)");
  llvm::Expected<ParameterData> data = ParameterData::open(file.getPath());
  ASSERT_TRUE(bool(data)) << llvm::toString(data.takeError());
  EXPECT_EQ(data->findStrippedInitializer(), "c");
  EXPECT_EQ(llvm::toString(data->deriveWeights({}, {})),
            "initializer 'c' carries no data (stripped weights)");
}

} // namespace
