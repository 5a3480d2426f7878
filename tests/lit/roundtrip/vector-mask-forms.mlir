// vector.mask: the custom form of ir/custom_arith.c. This is the round trip of
// tests/corpus-tools/roundtrip.sh without its location checks: mlir-opt's
// printer writes the masked op without its loc(...), even under
// --mlir-print-debuginfo, so no printer can round-trip those locations.
// RUN: %gpuinterp --emit=mlir %s > %t.ours.mlir
// RUN: %gpuinterp --emit=mlir %t.ours.mlir | diff -u %t.ours.mlir -
// RUN: %mlir_opt %s > %t.ref.mlir
// RUN: %mlir_opt %t.ours.mlir | diff -u %t.ref.mlir -
// RUN: %mlir_opt %t.ours.mlir | %gpuinterp --emit=mlir - | diff -u %t.ours.mlir -
// RUN: %mlir_opt --mlir-print-op-generic %t.ours.mlir | %gpuinterp --emit=mlir - | diff -u %t.ours.mlir -
// RUN: %gpuinterp --emit=mlir --print-generic %s > %t.gen.mlir
// RUN: %mlir_opt %t.gen.mlir | diff -u %t.ref.mlir -
// RUN: %gpuinterp --emit=mlir %t.gen.mlir | diff -u %t.ours.mlir -
// RUN: FileCheck %s < %t.ours.mlir

// CHECK-LABEL: func.func @masks
func.func @masks(%m: memref<?xf32>, %i: index, %mask: vector<4xi1>, %pass: vector<4xf32>, %f: f32) {
  // CHECK: %0 = vector.mask %arg2 {
  // CHECK-NEXT: %1 = vector.transfer_read %arg0[%arg1], %arg4 : memref<?xf32>, vector<4xf32>
  // CHECK-NEXT: } : vector<4xi1> -> vector<4xf32>
  %0 = vector.mask %mask { vector.transfer_read %m[%i], %f : memref<?xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  // CHECK: vector.mask %arg2, %arg3 {
  %1 = vector.mask %mask, %pass { vector.transfer_read %m[%i], %f : memref<?xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  // CHECK: vector.mask %arg2 {
  // CHECK-NEXT: vector.transfer_write
  // CHECK-NEXT: } : vector<4xi1>{{$}}
  vector.mask %mask { vector.transfer_write %pass, %m[%i] : vector<4xf32>, memref<?xf32> } : vector<4xi1>
  // CHECK: vector.yield %arg3 : vector<4xf32>
  %2 = vector.mask %mask { vector.yield %pass : vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  // CHECK: vector.yield
  // CHECK-NEXT: } {x.t} : vector<4xi1>
  vector.mask %mask { } {x.t} : vector<4xi1>
  // an explicit yield of the masked op's results is the implied one
  // CHECK: vector.reduction <add>, %arg3 : vector<4xf32> into f32
  // CHECK-NEXT: } : vector<4xi1> -> f32
  %3 = vector.mask %mask { %r = vector.reduction <add>, %pass : vector<4xf32> into f32
    vector.yield %r : f32 } : vector<4xi1> -> f32
  return
}
