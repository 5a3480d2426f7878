// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// memref: alloc/alloca (static, dynamic, symbols, alignment), dealloc,
// load/store (incl. nontemporal), cast (ranked/unranked), subview, copy,
// global/get_global, extract_aligned_pointer_as_index, dim, rank,
// reinterpret_cast, view, atomic_rmw, generic_atomic_rmw, expand_shape,
// collapse_shape, extract_strided_metadata, assume_alignment, transpose.

memref.global "private" constant @cst : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
memref.global @zeroed : memref<2x3xi32> = dense<0>
memref.global "private" @uninit : memref<16xf16> = uninitialized
memref.global @ext_decl : memref<8xi64>
memref.global "private" constant @aligned : memref<2xf64> = dense<[0.5, 1.5]> {alignment = 64 : i64}
memref.global "private" @in_shared : memref<32xf32, 3> = uninitialized

func.func @alloc(%n: index, %m: index) {
  %0 = memref.alloc() : memref<16xf32>
  %1 = memref.alloc(%n) : memref<?xf32>
  %2 = memref.alloc(%n, %m) {alignment = 64 : i64} : memref<?x4x?xi32>
  %3 = memref.alloca() : memref<2x2xf64>
  %4 = memref.alloca(%n) : memref<?xi8>
  %5 = memref.alloc()[%n] : memref<4xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
  %6 = memref.alloc() : memref<8xf32, 1>
  %7 = memref.alloca() : memref<i32>
  %8 = memref.alloca() {alignment = 16 : i64} : memref<4xvector<4xf32>>
  memref.dealloc %0 : memref<16xf32>
  memref.dealloc %1 : memref<?xf32>
  memref.dealloc %2 : memref<?x4x?xi32>
  memref.dealloc %5 : memref<4xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
  memref.dealloc %6 : memref<8xf32, 1>
  return
}

func.func @load_store(%m: memref<4x?xf32>, %s: memref<f32>, %i: index, %j: index, %v: f32) -> f32 {
  %0 = memref.load %m[%i, %j] : memref<4x?xf32>
  memref.store %v, %m[%i, %j] : memref<4x?xf32>
  %1 = memref.load %s[] : memref<f32>
  memref.store %0, %s[] : memref<f32>
  %2 = memref.load %m[%i, %j] {nontemporal = true} : memref<4x?xf32>
  memref.store %2, %m[%j, %i] {nontemporal = true} : memref<4x?xf32>
  return %1 : f32
}

func.func @casts(%m: memref<4xf32>, %u: memref<*xf32>, %d: memref<?xf32>) {
  %0 = memref.cast %m : memref<4xf32> to memref<?xf32>
  %1 = memref.cast %m : memref<4xf32> to memref<*xf32>
  %2 = memref.cast %u : memref<*xf32> to memref<4xf32>
  %3 = memref.cast %d : memref<?xf32> to memref<4xf32>
  %4 = memref.cast %m : memref<4xf32> to memref<4xf32, strided<[?], offset: ?>>
  %r = memref.rank %u : memref<*xf32>
  return
}

func.func @views(%m: memref<8x16xf32>, %b: memref<2048xi8>, %i: index, %j: index, %n: index) {
  %0 = memref.subview %m[0, 0] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x4xf32, strided<[16, 1]>>
  %1 = memref.subview %m[%i, %j] [2, %n] [1, 2] : memref<8x16xf32> to memref<2x?xf32, strided<[16, 2], offset: ?>>
  %2 = memref.subview %m[2, 0] [1, 16] [1, 1] : memref<8x16xf32> to memref<16xf32, strided<[1], offset: 32>>
  %3 = memref.view %b[%i][] : memref<2048xi8> to memref<64x4xf32>
  %4 = memref.view %b[%i][%n] : memref<2048xi8> to memref<?x4xf32>
  %5 = memref.reinterpret_cast %m to offset: [0], sizes: [128], strides: [1] : memref<8x16xf32> to memref<128xf32>
  %6 = memref.reinterpret_cast %m to offset: [%i], sizes: [%n, 4], strides: [4, 1] : memref<8x16xf32> to memref<?x4xf32, strided<[4, 1], offset: ?>>
  %7 = memref.expand_shape %m [[0, 1], [2]] output_shape [2, 4, 16] : memref<8x16xf32> into memref<2x4x16xf32>
  %8 = memref.collapse_shape %m [[0, 1]] : memref<8x16xf32> into memref<128xf32>
  %9 = memref.transpose %m (i, j) -> (j, i) : memref<8x16xf32> to memref<16x8xf32, strided<[1, 16]>>
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %m : memref<8x16xf32> -> memref<f32>, index, index, index, index, index
  %p = memref.extract_aligned_pointer_as_index %m : memref<8x16xf32> -> index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = memref.dim %m, %c0 : memref<8x16xf32>
  %d1 = memref.dim %4, %c0 : memref<?x4xf32>
  %a = memref.assume_alignment %m, 16 : memref<8x16xf32>
  return
}

func.func @copy_global(%m: memref<4xf32>) {
  %g = memref.get_global @cst : memref<4xf32>
  %z = memref.get_global @zeroed : memref<2x3xi32>
  memref.copy %g, %m : memref<4xf32> to memref<4xf32>
  return
}

func.func @atomics(%m: memref<10xf32>, %im: memref<10xi32>, %i: index, %f: f32, %x: i32) {
  %0 = memref.atomic_rmw addf %f, %m[%i] : (f32, memref<10xf32>) -> f32
  %1 = memref.atomic_rmw maximumf %f, %m[%i] : (f32, memref<10xf32>) -> f32
  %2 = memref.atomic_rmw addi %x, %im[%i] : (i32, memref<10xi32>) -> i32
  %3 = memref.atomic_rmw assign %x, %im[%i] : (i32, memref<10xi32>) -> i32
  %4 = memref.atomic_rmw maxs %x, %im[%i] : (i32, memref<10xi32>) -> i32
  %5 = memref.atomic_rmw mins %x, %im[%i] : (i32, memref<10xi32>) -> i32
  %6 = memref.atomic_rmw maxu %x, %im[%i] : (i32, memref<10xi32>) -> i32
  %7 = memref.atomic_rmw minu %x, %im[%i] : (i32, memref<10xi32>) -> i32
  %8 = memref.atomic_rmw andi %x, %im[%i] : (i32, memref<10xi32>) -> i32
  %9 = memref.atomic_rmw ori %x, %im[%i] : (i32, memref<10xi32>) -> i32
  %10 = memref.atomic_rmw xori %x, %im[%i] : (i32, memref<10xi32>) -> i32
  %11 = memref.atomic_rmw muli %x, %im[%i] : (i32, memref<10xi32>) -> i32
  %12 = memref.atomic_rmw mulf %f, %m[%i] : (f32, memref<10xf32>) -> f32
  %13 = memref.generic_atomic_rmw %m[%i] : memref<10xf32> {
  ^bb0(%cur: f32):
    %n = arith.addf %cur, %f : f32
    memref.atomic_yield %n : f32
  }
  return
}
