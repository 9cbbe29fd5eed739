// RUN: iree-opt --split-input-file -iree-global-opt-demote-contraction-inputs="type=bf16 operation=matmul" %s | FileCheck %s --check-prefix=BF16-MATMUL
// RUN: iree-opt --split-input-file -iree-global-opt-demote-contraction-inputs="type=f16 operation=conv" %s | FileCheck %s --check-prefix=F16-CONV
// Our own stand-in for IREE's file of this name (compare_iree_globalopt.test).

util.func public @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  util.return %r : tensor<4x16xf32>
}
// BF16-MATMUL: @matmul
// BF16-MATMUL:   linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x8xbf16>, tensor<8x16xbf16>)
// F16-CONV: @matmul
// F16-CONV-NOT:   arith.truncf
// F16-CONV:   linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<8x16xf32>)
