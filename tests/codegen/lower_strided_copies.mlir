// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-lower-strided-copies))' | FileCheck %s

// A model input copied into its padded buffer (the stem convolution's pad):
// the slice's rows (224 x 3 floats) are contiguous in both buffers, so the
// copy is one linalg.copy of 224 rows of 672 floats, not the runtime's
// element-by-element memrefCopy.
// CHECK-LABEL: func.func @pad_copy
// CHECK-SAME:    (%[[SRC:.+]]: memref<224x224x3xf32>, %[[DST:.+]]: memref<225x225x3xf32>)
// CHECK:         %[[SLICE:.+]] = memref.subview %[[DST]][1, 1, 0] [224, 224, 3] [1, 1, 1]
// CHECK-DAG:     %[[S:.+]] = memref.collapse_shape %[[SRC]] {{\[}}[0], [1, 2]] : memref<224x224x3xf32> into memref<224x672xf32>
// CHECK-DAG:     %[[D:.+]] = memref.collapse_shape %[[SLICE]] {{\[}}[0], [1, 2]] : memref<224x224x3xf32, strided<[675, 3, 1], offset: 678>> into memref<224x672xf32, strided<[675, 1], offset: 678>>
// CHECK:         linalg.copy ins(%[[S]] : memref<224x672xf32>) outs(%[[D]] : memref<224x672xf32, strided<[675, 1], offset: 678>>)
// CHECK-NOT:     memref.copy
func.func @pad_copy(%src: memref<224x224x3xf32>, %dst: memref<225x225x3xf32>) {
  %slice = memref.subview %dst[1, 1, 0] [224, 224, 3] [1, 1, 1] : memref<225x225x3xf32> to memref<224x224x3xf32, strided<[675, 3, 1], offset: 678>>
  memref.copy %src, %slice : memref<224x224x3xf32> to memref<224x224x3xf32, strided<[675, 3, 1], offset: 678>>
  return
}

// -----

// A tile written into a transposed layout (NCHW input to NHWC, 3 channels):
// no dim is contiguous in the target, nothing is collapsed.
// CHECK-LABEL: func.func @transposed_tile
// CHECK-NOT:     memref.collapse_shape
// CHECK:         linalg.copy ins(%{{.+}} : memref<8x32xf32, strided<[224, 1], offset: ?>>) outs(%{{.+}} : memref<8x32xf32, strided<[672, 3], offset: ?>>)
// CHECK-NOT:     memref.copy
func.func @transposed_tile(%src: memref<8x32xf32, strided<[224, 1], offset: ?>>, %dst: memref<8x32xf32, strided<[672, 3], offset: ?>>) {
  memref.copy %src, %dst : memref<8x32xf32, strided<[224, 1], offset: ?>> to memref<8x32xf32, strided<[672, 3], offset: ?>>
  return
}

// -----

// Contiguous copies stay memref.copy: they become a memcpy.
// CHECK-LABEL: func.func @contiguous
// CHECK-NEXT:    memref.copy
// CHECK-NOT:     linalg.copy
func.func @contiguous(%src: memref<4x8xf32>, %dst: memref<4x8xf32>) {
  memref.copy %src, %dst : memref<4x8xf32> to memref<4x8xf32>
  return
}
