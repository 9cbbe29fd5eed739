//===- OnnxAttributesTest.cpp - ONNX attribute and tensor decoding --------===//

#include "core/onnx/OnnxAttributes.h"
#include "core/onnx/OnnxModelFile.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace dispatchlab::onnx_import;
using onnx::TensorProto;

namespace {

TEST(OnnxAttributes, DecodesRawInt64Exactly) {
  TensorProto tensor;
  tensor.set_name("ends");
  tensor.set_data_type(TensorProto::INT64);
  tensor.add_dims(2);
  int64_t values[2] = {INT64_MAX, -3};
  tensor.set_raw_data(
      std::string(reinterpret_cast<const char *>(values), sizeof(values)));
  llvm::Expected<HostTensor> decoded = decodeTensor(tensor);
  ASSERT_TRUE(bool(decoded)) << llvm::toString(decoded.takeError());
  EXPECT_FALSE(decoded->isFloat());
  EXPECT_EQ(decoded->getInt(0), INT64_MAX);
  EXPECT_EQ(decoded->getInt(1), -3);
}

TEST(OnnxAttributes, DecodesFloat16Bits) {
  TensorProto tensor;
  tensor.set_data_type(TensorProto::FLOAT16);
  tensor.add_dims(2);
  tensor.add_int32_data(0x3C00); // 1.0
  tensor.add_int32_data(0xC000); // -2.0
  llvm::Expected<HostTensor> decoded = decodeTensor(tensor);
  ASSERT_TRUE(bool(decoded)) << llvm::toString(decoded.takeError());
  EXPECT_EQ(decoded->getDouble(0), 1.0);
  EXPECT_EQ(decoded->getDouble(1), -2.0);
}

TEST(OnnxAttributes, RejectsValueCountMismatch) {
  TensorProto tensor;
  tensor.set_name("w");
  tensor.set_data_type(TensorProto::FLOAT);
  tensor.add_dims(3);
  tensor.add_float_data(1.0f);
  llvm::Expected<HostTensor> decoded = decodeTensor(tensor);
  ASSERT_FALSE(bool(decoded));
  EXPECT_EQ(llvm::toString(decoded.takeError()),
            "tensor 'w' holds 1 values but its shape needs 3");
}

TEST(OnnxAttributes, StrippedAndExternalTensorsHaveNoData) {
  TensorProto tensor;
  tensor.set_data_type(TensorProto::FLOAT);
  tensor.add_dims(4);
  EXPECT_FALSE(hasInlineData(tensor));
  tensor.set_raw_data(std::string(16, '\0'));
  EXPECT_TRUE(hasInlineData(tensor));
  tensor.set_data_location(TensorProto::EXTERNAL);
  EXPECT_FALSE(hasInlineData(tensor));
}

TEST(OnnxAttributes, ReadsAttributesWithDefaults) {
  onnx::NodeProto node;
  onnx::AttributeProto *pads = node.add_attribute();
  pads->set_name("pads");
  pads->set_type(onnx::AttributeProto::INTS);
  for (int64_t pad : {1, 2, 3, 4})
    pads->add_ints(pad);
  onnx::AttributeProto *alpha = node.add_attribute();
  alpha->set_name("alpha");
  alpha->set_type(onnx::AttributeProto::FLOAT);
  alpha->set_f(0.25f);

  EXPECT_EQ(*getIntsAttribute(node, "pads"),
            (llvm::SmallVector<int64_t>{1, 2, 3, 4}));
  EXPECT_FALSE(getIntsAttribute(node, "strides"));
  EXPECT_EQ(getFloatAttribute(node, "alpha", 1.0f), 0.25f);
  EXPECT_EQ(getIntAttribute(node, "group", 1), 1);
  EXPECT_EQ(getStringAttribute(node, "auto_pad", "NOTSET"), "NOTSET");
}

TEST(OnnxModelFile, ReportsAnUnreadableFile) {
  llvm::Expected<onnx::ModelProto> model =
      readOnnxModel("/nonexistent/model.onnx");
  ASSERT_FALSE(bool(model));
  EXPECT_EQ(llvm::toString(model.takeError()),
            "cannot read model: No such file or directory");
}

TEST(OnnxModelFile, JoinsMessagesIntoOneLine) {
  EXPECT_EQ(toOneLine("Bad node\n\n==> Context:  spec\n"),
            "Bad node ==> Context: spec");
}

} // namespace
