// memref views and host atomics: collapse_shape, expand_shape, reinterpret_cast, view,
// transpose, subview of views, extract_strided_metadata, rank, atomic_rmw (every kind upstream lowers),
// alloca and alloca_scope, globals with their initial values. Upstream's
// lowering and mlir-runner print the same.
// RUN: %gpuinterp %s > %t.ours
// RUN: %mlir_opt %s --convert-scf-to-cf --memref-expand --expand-strided-metadata --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts | %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 > %t.upstream
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' %t.ours > %t.ours.norm
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' %t.upstream > %t.upstream.norm
// RUN: cmp %t.upstream.norm %t.ours.norm
// RUN: FileCheck %s < %t.ours

memref.global "private" constant @gf : memref<2x2xf32> = dense<[[1.5, -2.0], [0.25, 8.0]]>
memref.global "private" @gi : memref<3xi16> = dense<[7, -1, 300]>
memref.global "private" @gs : memref<4xf64> = dense<2.5>

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefF64(memref<*xf64>)
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefI64(memref<*xi64>)
func.func private @printMemrefI16(memref<*xi16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefShapeF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printI64(i64)
func.func private @printF32(f32)
func.func private @printNewline()
func.func private @printComma()

// %m[i] = i
func.func @iota(%m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = arith.index_cast %i : index to i32
    %f = arith.sitofp %x : i32 to f32
    memref.store %f, %m[%i] : memref<?xf32>
  }
  return
}

func.func @print_i64(%x: i64) {
  call @printI64(%x) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

// an alloca per call, freed when the call returns
func.func @sum_with_scratch(%n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = memref.alloca(%n) : memref<?xf32>
  call @iota(%s) : (memref<?xf32>) -> ()
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (f32) {
    %v = memref.load %s[%i] : memref<?xf32>
    %a = arith.addf %acc, %v : f32
    scf.yield %a : f32
  }
  return %r : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index
  %flat = memref.alloc() : memref<12xf32>
  %flatd = memref.cast %flat : memref<12xf32> to memref<?xf32>
  call @iota(%flatd) : (memref<?xf32>) -> ()

  // CHECK: rank = 2 offset = 0 sizes = [3, 4] strides = [4, 1] data =
  // CHECK-NEXT: {{\[\[}}0,   1,   2,   3],
  %e = memref.expand_shape %flat [[0, 1]] output_shape [3, 4] : memref<12xf32> into memref<3x4xf32>
  %ue = memref.cast %e : memref<3x4xf32> to memref<*xf32>
  call @printMemrefF32(%ue) : (memref<*xf32>) -> ()

  // a dynamic output shape
  // CHECK: rank = 3 offset = 0 sizes = [2, 3, 2] strides = [6, 2, 1] data =
  %n3 = arith.constant 3 : index
  %e3 = memref.expand_shape %flatd [[0, 1, 2]] output_shape [2, %n3, 2] : memref<?xf32> into memref<2x?x2xf32>
  %ue3 = memref.cast %e3 : memref<2x?x2xf32> to memref<*xf32>
  call @printMemrefF32(%ue3) : (memref<*xf32>) -> ()

  // transpose, then a strided subview of it
  // CHECK: rank = 2 offset = 0 sizes = [4, 3] strides = [1, 4] data =
  // CHECK-NEXT: {{\[\[}}0,   4,   8],
  %t = memref.transpose %e (d0, d1) -> (d1, d0) : memref<3x4xf32> to memref<4x3xf32, strided<[1, 4]>>
  %ut = memref.cast %t : memref<4x3xf32, strided<[1, 4]>> to memref<*xf32>
  call @printMemrefF32(%ut) : (memref<*xf32>) -> ()
  // CHECK: rank = 2 offset = 5 sizes = [2, 2] strides = [2, 4] data =
  // CHECK-NEXT: {{\[\[}}5,   9],
  // CHECK-NEXT:  [7,   11]]
  %ts = memref.subview %t[1, 1] [2, 2] [2, 1] : memref<4x3xf32, strided<[1, 4]>> to memref<2x2xf32, strided<[2, 4], offset: 5>>
  %uts = memref.cast %ts : memref<2x2xf32, strided<[2, 4], offset: 5>> to memref<*xf32>
  call @printMemrefF32(%uts) : (memref<*xf32>) -> ()

  // collapse a row-slice back to 1-D
  // CHECK: rank = 1 offset = 4 sizes = [8] strides = [1] data =
  // CHECK-NEXT: [4,  5,  6,  7,  8,  9,  10,  11]
  %rows = memref.subview %e[1, 0] [2, 4] [1, 1] : memref<3x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 4>>
  %col = memref.collapse_shape %rows [[0, 1]] : memref<2x4xf32, strided<[4, 1], offset: 4>> into memref<8xf32, strided<[1], offset: 4>>
  %ucol = memref.cast %col : memref<8xf32, strided<[1], offset: 4>> to memref<*xf32>
  call @printMemrefF32(%ucol) : (memref<*xf32>) -> ()

  // reinterpret_cast with static and dynamic parts
  // CHECK: rank = 2 offset = 2 sizes = [2, 3] strides = [5, 1] data =
  // CHECK-NEXT: {{\[\[}}2,   3,   4],
  // CHECK-NEXT:  [7,   8,   9]]
  %rc = memref.reinterpret_cast %flat to offset: [%c2], sizes: [2, %c3], strides: [5, 1] : memref<12xf32> to memref<2x?xf32, strided<[5, 1], offset: ?>>
  %urc = memref.cast %rc : memref<2x?xf32, strided<[5, 1], offset: ?>> to memref<*xf32>
  call @printMemrefF32(%urc) : (memref<*xf32>) -> ()

  // extract_strided_metadata of the subview: offset, sizes, strides
  // CHECK: 5
  // CHECK-NEXT: 2
  // CHECK-NEXT: 4
  %base, %off, %sz:2, %st:2 = memref.extract_strided_metadata %ts : memref<2x2xf32, strided<[2, 4], offset: 5>> -> memref<f32>, index, index, index, index, index
  %offi = arith.index_cast %off : index to i64
  call @print_i64(%offi) : (i64) -> ()
  %st0 = arith.index_cast %st#0 : index to i64
  call @print_i64(%st0) : (i64) -> ()
  %st1 = arith.index_cast %st#1 : index to i64
  call @print_i64(%st1) : (i64) -> ()
  // CHECK-NEXT: 2
  %rk = memref.rank %ts : memref<2x2xf32, strided<[2, 4], offset: 5>>
  %rki = arith.index_cast %rk : index to i64
  call @print_i64(%rki) : (i64) -> ()

  // memref.view into a byte buffer
  // CHECK: rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: {{\[\[}}0,   1],
  // CHECK-NEXT:  [2,   3]]
  %bytes = memref.alloc() : memref<64xi8>
  %c16 = arith.constant 16 : index
  %v = memref.view %bytes[%c16][%c2] : memref<64xi8> to memref<?x2xi32>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      %k = arith.muli %i, %c2 : index
      %kk = arith.addi %k, %j : index
      %ki = arith.index_cast %kk : index to i32
      memref.store %ki, %v[%i, %j] : memref<?x2xi32>
    }
  }
  %uv = memref.cast %v : memref<?x2xi32> to memref<*xi32>
  call @printMemrefI32(%uv) : (memref<*xi32>) -> ()

  // atomic_rmw: every integer kind on one cell, printing the old values and the result
  // CHECK: 10, 13, 26, 24, 31, 28, 28, 28, 5, -3, 7
  // CHECK-NEXT: 7
  %ai = memref.alloc() : memref<1xi64>
  %ten = arith.constant 10 : i64
  memref.store %ten, %ai[%c0] : memref<1xi64>
  %k3 = arith.constant 3 : i64
  %k13 = arith.constant 13 : i64
  %k24 = arith.constant 24 : i64
  %k7 = arith.constant 7 : i64
  %k28 = arith.constant 28 : i64
  %k5 = arith.constant 5 : i64
  %km3 = arith.constant -3 : i64
  %o1 = memref.atomic_rmw addi %k3, %ai[%c0] : (i64, memref<1xi64>) -> i64
  %o2 = memref.atomic_rmw addi %k13, %ai[%c0] : (i64, memref<1xi64>) -> i64
  %o3 = memref.atomic_rmw andi %k24, %ai[%c0] : (i64, memref<1xi64>) -> i64
  %o4 = memref.atomic_rmw ori %k7, %ai[%c0] : (i64, memref<1xi64>) -> i64
  %o5 = memref.atomic_rmw xori %k3, %ai[%c0] : (i64, memref<1xi64>) -> i64
  %o6 = memref.atomic_rmw maxs %k24, %ai[%c0] : (i64, memref<1xi64>) -> i64
  %o7 = memref.atomic_rmw mins %k28, %ai[%c0] : (i64, memref<1xi64>) -> i64
  %o8 = memref.atomic_rmw minu %k5, %ai[%c0] : (i64, memref<1xi64>) -> i64
  %o9 = memref.atomic_rmw maxu %km3, %ai[%c0] : (i64, memref<1xi64>) -> i64
  %o10 = memref.atomic_rmw assign %k7, %ai[%c0] : (i64, memref<1xi64>) -> i64
  %o11 = memref.atomic_rmw maxs %km3, %ai[%c0] : (i64, memref<1xi64>) -> i64
  call @printI64(%o1) : (i64) -> ()
  call @printComma() : () -> ()
  call @printI64(%o2) : (i64) -> ()
  call @printComma() : () -> ()
  call @printI64(%o3) : (i64) -> ()
  call @printComma() : () -> ()
  call @printI64(%o4) : (i64) -> ()
  call @printComma() : () -> ()
  call @printI64(%o5) : (i64) -> ()
  call @printComma() : () -> ()
  call @printI64(%o6) : (i64) -> ()
  call @printComma() : () -> ()
  call @printI64(%o7) : (i64) -> ()
  call @printComma() : () -> ()
  call @printI64(%o8) : (i64) -> ()
  call @printComma() : () -> ()
  call @printI64(%o9) : (i64) -> ()
  call @printComma() : () -> ()
  call @printI64(%o10) : (i64) -> ()
  call @printComma() : () -> ()
  call @printI64(%o11) : (i64) -> ()
  call @printNewline() : () -> ()
  %fin = memref.load %ai[%c0] : memref<1xi64>
  call @print_i64(%fin) : (i64) -> ()

  // float kinds on %e[2, 3] (= 11): addf, mulf, maximumf, minimumf, maxnumf, minnumf
  // CHECK-NEXT: 11, 12.5, 25, 25, -1, -1
  // CHECK-NEXT: 0.5
  %f15 = arith.constant 1.5 : f32
  %f2 = arith.constant 2.0 : f32
  %f125 = arith.constant 12.5 : f32
  %fm1 = arith.constant -1.0 : f32
  %fh = arith.constant 0.5 : f32
  %p1 = memref.atomic_rmw addf %f15, %e[%c2, %c3] : (f32, memref<3x4xf32>) -> f32
  %p2 = memref.atomic_rmw addf %f125, %e[%c2, %c3] : (f32, memref<3x4xf32>) -> f32
  %p3 = memref.atomic_rmw maximumf %f2, %e[%c2, %c3] : (f32, memref<3x4xf32>) -> f32
  %p4 = memref.atomic_rmw minimumf %fm1, %e[%c2, %c3] : (f32, memref<3x4xf32>) -> f32
  %p5 = memref.atomic_rmw maxnumf %fm1, %e[%c2, %c3] : (f32, memref<3x4xf32>) -> f32
  %p6 = memref.atomic_rmw minnumf %fh, %e[%c2, %c3] : (f32, memref<3x4xf32>) -> f32
  %p7 = memref.atomic_rmw maxnumf %fh, %e[%c2, %c3] : (f32, memref<3x4xf32>) -> f32
  call @printF32(%p1) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF32(%p2) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF32(%p3) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF32(%p4) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF32(%p5) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF32(%p6) : (f32) -> ()
  call @printNewline() : () -> ()
  %ef = memref.load %e[%c2, %c3] : memref<3x4xf32>
  call @printF32(%ef) : (f32) -> ()
  call @printNewline() : () -> ()

  // allocas in a loop of calls, and in an alloca_scope
  // CHECK-NEXT: 66
  // CHECK-NEXT: 6
  %acc = scf.for %i = %c0 to %c12 step %c1 iter_args(%a = %fh) -> (f32) {
    %r = func.call @sum_with_scratch(%c12) : (index) -> f32
    scf.yield %r : f32
  }
  call @printF32(%acc) : (f32) -> ()
  call @printNewline() : () -> ()
  %sc = "memref.alloca_scope"() ({
    %s = memref.alloca() : memref<4xf32>
    %sd = memref.cast %s : memref<4xf32> to memref<?xf32>
    func.call @iota(%sd) : (memref<?xf32>) -> ()
    %x = memref.load %s[%c3] : memref<4xf32>
    %y = arith.addf %x, %x : f32
    "memref.alloca_scope.return"(%y) : (f32) -> ()
  }) : () -> f32
  call @printF32(%sc) : (f32) -> ()
  call @printNewline() : () -> ()

  // globals
  // CHECK-NEXT: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: {{\[\[}}1.5,   -2],
  // CHECK-NEXT:  [0.25,   8]]
  // CHECK: [7,  -1,  300]
  // CHECK: [2.5,  2.5,  2.5,  2.5]
  %gf = memref.get_global @gf : memref<2x2xf32>
  %ugf = memref.cast %gf : memref<2x2xf32> to memref<*xf32>
  call @printMemrefF32(%ugf) : (memref<*xf32>) -> ()
  %gi = memref.get_global @gi : memref<3xi16>
  %ugi = memref.cast %gi : memref<3xi16> to memref<*xi16>
  call @printMemrefI16(%ugi) : (memref<*xi16>) -> ()
  %gs = memref.get_global @gs : memref<4xf64>
  %ugs = memref.cast %gs : memref<4xf64> to memref<*xf64>
  call @printMemrefF64(%ugs) : (memref<*xf64>) -> ()
  memref.dealloc %flat : memref<12xf32>
  memref.dealloc %bytes : memref<64xi8>
  memref.dealloc %ai : memref<1xi64>
  return
}
