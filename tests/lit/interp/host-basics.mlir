// Host execution: func calls, scf.for with iter_args, memref alloc/store/load, runner utils.
// The same program through upstream's lowering and mlir-runner prints the same text.
// RUN: %gpuinterp %s > %t.ours
// RUN: %mlir_opt %s --convert-scf-to-cf --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts | %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 > %t.upstream
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' %t.ours > %t.ours.norm
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' %t.upstream > %t.upstream.norm
// RUN: diff %t.upstream.norm %t.ours.norm
// RUN: FileCheck %s < %t.ours

// CHECK: rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[\[}}0,   1.5,   0],
// CHECK-NEXT:  [0,   -2.25,   0]]
// CHECK: rank = 1 offset = 0 sizes = [4] strides = [1] data =
// CHECK-NEXT: [0,  7,  0,  0]
// CHECK-NEXT: 45
// CHECK-NEXT: -7

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printF32(f32)
func.func private @printI64(i64)
func.func private @printNewline()

func.func @sum(%n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (f32) {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %a = arith.addf %acc, %f : f32
    scf.yield %a : f32
  }
  return %r : f32
}

func.func @pick(%c: i1, %a: i64, %b: i64) -> i64 {
  cf.cond_br %c, ^yes(%a : i64), ^no
^yes(%v: i64):
  return %v : i64
^no:
  %n = arith.subi %b, %a : i64
  return %n : i64
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %f = arith.constant 1.5 : f32
  %g = arith.constant -2.25 : f32
  %a = memref.alloc() : memref<2x3xf32>
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c1 step %c1 {
    scf.for %j = %c0 to %c10 step %c1 {
      %in = arith.cmpi ult, %j, %c10 : index
      %j3 = arith.remui %j, %c10 : index
      %c3 = arith.constant 3 : index
      %jj = arith.remui %j3, %c3 : index
      %c2 = arith.constant 2 : index
      %ii = arith.remui %j, %c2 : index
      memref.store %zero, %a[%ii, %jj] : memref<2x3xf32>
    }
  }
  memref.store %f, %a[%c0, %c1] : memref<2x3xf32>
  memref.store %g, %a[%c1, %c1] : memref<2x3xf32>
  %u = memref.cast %a : memref<2x3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %b = memref.alloc() : memref<4xi32>
  %zi = arith.constant 0 : i32
  scf.for %k = %c0 to %c10 step %c1 {
    %c4 = arith.constant 4 : index
    %kk = arith.remui %k, %c4 : index
    memref.store %zi, %b[%kk] : memref<4xi32>
  }
  %i = arith.constant 7 : i32
  memref.store %i, %b[%c1] : memref<4xi32>
  %ub = memref.cast %b : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%ub) : (memref<*xi32>) -> ()
  %s = call @sum(%c10) : (index) -> f32
  call @printF32(%s) : (f32) -> ()
  call @printNewline() : () -> ()
  %false = arith.constant false
  %x = arith.constant 10 : i64
  %y = arith.constant 3 : i64
  %p = call @pick(%false, %x, %y) : (i1, i64, i64) -> i64
  call @printI64(%p) : (i64) -> ()
  call @printNewline() : () -> ()
  memref.dealloc %a : memref<2x3xf32>
  memref.dealloc %b : memref<4xi32>
  return
}
