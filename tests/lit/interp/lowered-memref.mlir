// Host memref code lowered by upstream (finalize-memref-to-llvm and friends) and run three ways:
// the lowered form by our interpreter, the same file by mlir-runner, and the high-level form by
// our interpreter. It covers what memref lowering emits: a constant global and its address,
// descriptors built with insertvalue, element addresses with getelementptr, llvm.intr.memcpy for
// a contiguous memref.copy, memrefCopy (inside stacksave/stackrestore) for a strided one, alloca,
// malloc/free, and printMemref through its C interface (_mlir_ciface_).
// (--mlir-print-op-generic: our front end has no custom form for llvm.intr.stacksave yet.)

// RUN: %mlir_opt %s --convert-scf-to-cf --gpu-to-llvm --expand-strided-metadata --lower-affine --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts --mlir-print-op-generic > %t.ll.mlir
// RUN: %gpuinterp %t.ll.mlir | sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' > %t.ours
// RUN: %mlir_runner %t.ll.mlir -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 | sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' | diff %t.ours -
// RUN: %gpuinterp %s | sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' | diff %t.ours -
// RUN: FileCheck %s < %t.ours
// RUN: FileCheck --check-prefix=LOWERED %s < %t.ll.mlir

// LOWERED-DAG: "llvm.intr.memcpy"
// LOWERED-DAG: callee = @memrefCopy
// LOWERED-DAG: "llvm.intr.stacksave"
// LOWERED-DAG: callee = @_mlir_ciface_printMemrefF32

// CHECK:      rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[\[}}-0.5,   -1,   -1.5],
// CHECK-NEXT:  [-2,   -2.5,   -3]]
// CHECK:      rank = 2 offset = 0 sizes = [2, 1] strides = [1, 1] data =
// CHECK-NEXT: {{\[\[}}-1],
// CHECK-NEXT:  [-2.5]]
// CHECK:      rank = 1 offset = 0 sizes = [3] strides = [1] data =
// CHECK-NEXT: [0,  7,  14]

memref.global "private" constant @cst : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]>

func.func @scale(%m: memref<2x3xf32>, %k: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %v = memref.load %m[%i, %j] : memref<2x3xf32>
      %w = arith.mulf %v, %k : f32
      memref.store %w, %m[%i, %j] : memref<2x3xf32>
    }
  }
  return
}

func.func @main() {
  %g = memref.get_global @cst : memref<2x3xf32>
  %h = memref.alloc() : memref<2x3xf32>
  memref.copy %g, %h : memref<2x3xf32> to memref<2x3xf32>
  %k = arith.constant -0.5 : f32
  call @scale(%h, %k) : (memref<2x3xf32>, f32) -> ()
  %u = memref.cast %h : memref<2x3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // A column of %h into a stack buffer: a strided copy, which lowers to memrefCopy.
  %col = memref.subview %h[0, 1] [2, 1] [1, 1] : memref<2x3xf32> to memref<2x1xf32, strided<[3, 1], offset: 1>>
  %s = memref.alloca() : memref<2x1xf32>
  memref.copy %col, %s : memref<2x1xf32, strided<[3, 1], offset: 1>> to memref<2x1xf32>
  %us = memref.cast %s : memref<2x1xf32> to memref<*xf32>
  call @printMemrefF32(%us) : (memref<*xf32>) -> ()

  %i = memref.alloc() : memref<3xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %seven = arith.constant 7 : i32
  scf.for %x = %c0 to %c3 step %c1 {
    %xi = arith.index_cast %x : index to i32
    %y = arith.muli %xi, %seven : i32
    memref.store %y, %i[%x] : memref<3xi32>
  }
  %ui = memref.cast %i : memref<3xi32> to memref<*xi32>
  call @printMemrefI32(%ui) : (memref<*xi32>) -> ()
  memref.dealloc %h : memref<2x3xf32>
  memref.dealloc %i : memref<3xi32>
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>)
