// RUN: dispatchlab-opt %s --pass-pipeline='builtin.module(func.func(dispatchlab-lower-vectors))' | FileCheck %s --check-prefix=W16
// RUN: dispatchlab-opt %s --pass-pipeline='builtin.module(func.func(dispatchlab-lower-vectors{vector-width=8}))' | FileCheck %s --check-prefix=W8

// A 16x16 transpose takes the AVX-512 sequence of 16-lane shuffles with 16
// lanes (the default); with fewer lanes it is one shuffle of the flattened
// vector.
// W16-LABEL: func.func @transpose_16x16
// W16:         vector.shuffle {{.+}} : vector<16xf32>, vector<16xf32>
// W16-NOT:     vector<256xf32>, vector<256xf32>
// W8-LABEL:  func.func @transpose_16x16
// W8:          vector.shuffle {{.+}} : vector<256xf32>, vector<256xf32>
// W8-NOT:      vector<16xf32>, vector<16xf32>
func.func @transpose_16x16(%v: vector<16x16xf32>) -> vector<16x16xf32> {
  %t = vector.transpose %v, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
  return %t : vector<16x16xf32>
}
