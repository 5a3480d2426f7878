// collapse_shape of strided views with unit dimensions: the group's stride is the result type's
// where static and the innermost dimension's where dynamic, as upstream's lowering computes it.
// RUN: %gpuinterp %s > %t.ours
// RUN: %mlir_opt %s --expand-strided-metadata --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm --reconcile-unrealized-casts | %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 > %t.upstream
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' %t.ours > %t.ours.norm
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' %t.upstream > %t.upstream.norm
// RUN: cmp %t.upstream.norm %t.ours.norm
// RUN: FileCheck %s < %t.ours

// CHECK: sizes = [2, 1] strides = [96, 24]
// CHECK-NEXT: sizes = [2, 3] strides = [96, 8]
// CHECK-NEXT: sizes = [2, 3] strides = [96, 4]
func.func private @printMemrefShapeF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %a = memref.alloc() : memref<4x6x8xf32>
  %s = memref.subview %a[0, 0, 0] [2, 1, 1] [2, 3, 4] : memref<4x6x8xf32> to memref<2x1x1xf32, strided<[96, 24, 4]>>
  %c = memref.collapse_shape %s [[0], [1, 2]] : memref<2x1x1xf32, strided<[96, 24, 4]>> into memref<2x1xf32, strided<[96, 24]>>
  %u = memref.cast %c : memref<2x1xf32, strided<[96, 24]>> to memref<*xf32>
  call @printMemrefShapeF32(%u) : (memref<*xf32>) -> ()
  %s2 = memref.subview %a[0, 0, 0] [2, 3, 1] [2, 1, 4] : memref<4x6x8xf32> to memref<2x3x1xf32, strided<[96, 8, 4]>>
  %c2 = memref.collapse_shape %s2 [[0], [1, 2]] : memref<2x3x1xf32, strided<[96, 8, 4]>> into memref<2x3xf32, strided<[96, 8]>>
  %u2 = memref.cast %c2 : memref<2x3xf32, strided<[96, 8]>> to memref<*xf32>
  call @printMemrefShapeF32(%u2) : (memref<*xf32>) -> ()
  %d = memref.cast %s2 : memref<2x3x1xf32, strided<[96, 8, 4]>> to memref<?x?x?xf32, strided<[?, ?, ?]>>
  %c3 = memref.collapse_shape %d [[0], [1, 2]] : memref<?x?x?xf32, strided<[?, ?, ?]>> into memref<?x?xf32, strided<[?, ?]>>
  %u3 = memref.cast %c3 : memref<?x?xf32, strided<[?, ?]>> to memref<*xf32>
  call @printMemrefShapeF32(%u3) : (memref<*xf32>) -> ()
  return
}
