// Every printMemref* variant, printMemrefShape*, rank-0, strided and offset views and the scalar
// printers, through the plain and the _mlir_ciface_ names. Upstream's lowering and mlir-runner
// print the same bytes.
// RUN: %gpuinterp %s > %t.ours
// RUN: %mlir_opt %s --convert-scf-to-cf --expand-strided-metadata --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts | %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 > %t.upstream
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' %t.ours > %t.ours.norm
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' %t.upstream > %t.upstream.norm
// RUN: cmp %t.upstream.norm %t.ours.norm
// The lowered program (llvm.func declarations, _mlir_ciface_ calls through descriptor pointers) too:
// RUN: %mlir_opt %s --convert-scf-to-cf --expand-strided-metadata --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts | %gpuinterp - > %t.lowered
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' %t.lowered > %t.lowered.norm
// RUN: cmp %t.upstream.norm %t.lowered.norm
// RUN: FileCheck %s < %t.ours

func.func private @printMemrefI8(memref<*xi8>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI16(memref<*xi16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefBF16(memref<*xbf16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefF64(memref<*xf64>)
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefI64(memref<*xi64>) attributes {llvm.emit_c_interface}
func.func private @printMemrefInd(memref<*xindex>)
func.func private @printMemrefShapeF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefShapeI32(memref<*xi32>) attributes {llvm.emit_c_interface}
func.func private @printMemref1dF32(memref<?xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemref2dF32(memref<?x?xf32, strided<[?, ?], offset: ?>>) attributes {llvm.emit_c_interface}
func.func private @printMemref0dF32(memref<f32>) attributes {llvm.emit_c_interface}
func.func private @printMemref1dI64(memref<?xi64>) attributes {llvm.emit_c_interface}
func.func private @printF32(f32)
func.func private @printF64(f64)
func.func private @printI64(i64)
func.func private @printU64(i64)
func.func private @printNewline()
func.func private @printComma()
func.func private @printOpen()
func.func private @printClose()

// fills %m[i, j] with i * 10 + j - 7
func.func @fill2d(%m: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n0 = memref.dim %m, %c0 : memref<?x?xf64>
  %n1 = memref.dim %m, %c1 : memref<?x?xf64>
  scf.for %i = %c0 to %n0 step %c1 {
    scf.for %j = %c0 to %n1 step %c1 {
      %c10 = arith.constant 10 : index
      %a = arith.muli %i, %c10 : index
      %b = arith.addi %a, %j : index
      %x = arith.index_cast %b : index to i64
      %f = arith.sitofp %x : i64 to f64
      %c7 = arith.constant 7.0 : f64
      %g = arith.subf %f, %c7 : f64
      memref.store %g, %m[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index

  // i8 prints each element as a raw byte: 'A', newline, '!' and '~'
  // CHECK: rank = 1 offset = 0 sizes = [4] strides = [1] data =
  // CHECK-NEXT: [A,
  // CHECK-NEXT: ,  !,  ~]
  %a8 = memref.alloc() : memref<4xi8>
  %b65 = arith.constant 65 : i8
  %b10 = arith.constant 10 : i8
  %b33 = arith.constant 33 : i8
  %b126 = arith.constant 126 : i8
  memref.store %b65, %a8[%c0] : memref<4xi8>
  memref.store %b10, %a8[%c1] : memref<4xi8>
  memref.store %b33, %a8[%c2] : memref<4xi8>
  memref.store %b126, %a8[%c3] : memref<4xi8>
  %u8 = memref.cast %a8 : memref<4xi8> to memref<*xi8>
  call @printMemrefI8(%u8) : (memref<*xi8>) -> ()

  // CHECK: rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: {{\[\[}}-300,   32767],
  // CHECK-NEXT:  [-32768,   0]]
  %a16 = memref.alloc() : memref<2x2xi16>
  %s1 = arith.constant -300 : i16
  %s2 = arith.constant 32767 : i16
  %s3 = arith.constant -32768 : i16
  %s4 = arith.constant 0 : i16
  memref.store %s1, %a16[%c0, %c0] : memref<2x2xi16>
  memref.store %s2, %a16[%c0, %c1] : memref<2x2xi16>
  memref.store %s3, %a16[%c1, %c0] : memref<2x2xi16>
  memref.store %s4, %a16[%c1, %c1] : memref<2x2xi16>
  %u16 = memref.cast %a16 : memref<2x2xi16> to memref<*xi16>
  call @printMemrefI16(%u16) : (memref<*xi16>) -> ()

  // CHECK: [0.00150013,  -65504,  nan]
  %ah = memref.alloc() : memref<3xf16>
  %h1 = arith.constant 1.5e-3 : f16
  %h2 = arith.constant -65504.0 : f16
  %h3 = arith.constant 0x7E00 : f16
  memref.store %h1, %ah[%c0] : memref<3xf16>
  memref.store %h2, %ah[%c1] : memref<3xf16>
  memref.store %h3, %ah[%c2] : memref<3xf16>
  %uh = memref.cast %ah : memref<3xf16> to memref<*xf16>
  call @printMemrefF16(%uh) : (memref<*xf16>) -> ()

  // CHECK: [3.14062,  -inf]
  %ab = memref.alloc() : memref<2xbf16>
  %bf1 = arith.constant 3.14159 : bf16
  %bf2 = arith.constant 0xFF80 : bf16
  memref.store %bf1, %ab[%c0] : memref<2xbf16>
  memref.store %bf2, %ab[%c1] : memref<2xbf16>
  %ub = memref.cast %ab : memref<2xbf16> to memref<*xbf16>
  call @printMemrefBF16(%ub) : (memref<*xbf16>) -> ()

  // rank 0: the element in brackets; the shape alone
  // CHECK: rank = 0 offset = 0 sizes = [] strides = [] data =
  // CHECK-NEXT: [1.23457e+08]
  // CHECK-NEXT: rank = 0 offset = 0 sizes = [] strides = []{{$}}
  %a0 = memref.alloc() : memref<f32>
  %f = arith.constant 123456789.0 : f32
  memref.store %f, %a0[] : memref<f32>
  %u0 = memref.cast %a0 : memref<f32> to memref<*xf32>
  call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  call @printMemrefShapeF32(%u0) : (memref<*xf32>) -> ()

  // three dimensions; a one-element dimension
  // CHECK: rank = 3 offset = 0 sizes = [2, 1, 3] strides = [3, 3, 1] data =
  // CHECK-NEXT: {{\[\[\[}}-7,    -6,    -5]],
  // CHECK-NEXT: {{^  \[\[}}3,    4,    5]]]
  %a3 = memref.alloc() : memref<2x1x3xf64>
  %a3c = memref.collapse_shape %a3 [[0, 1], [2]] : memref<2x1x3xf64> into memref<2x3xf64>
  %a3d = memref.cast %a3c : memref<2x3xf64> to memref<?x?xf64>
  call @fill2d(%a3d) : (memref<?x?xf64>) -> ()
  %u3 = memref.cast %a3 : memref<2x1x3xf64> to memref<*xf64>
  call @printMemrefF64(%u3) : (memref<*xf64>) -> ()

  // a strided view at an offset
  // CHECK: rank = 2 offset = 5 sizes = [2, 2] strides = [4, 2] data =
  // CHECK-NEXT: {{\[\[}}5,   7],
  // CHECK-NEXT:  [9,   11]]
  // CHECK-NEXT: rank = 2 offset = 5 sizes = [2, 2] strides = [4, 2]{{$}}
  %a4 = memref.alloc() : memref<4x4xi32>
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %r = arith.muli %i, %c4 : index
      %v = arith.addi %r, %j : index
      %vi = arith.index_cast %v : index to i32
      memref.store %vi, %a4[%i, %j] : memref<4x4xi32>
    }
  }
  %sv = memref.subview %a4[1, 1] [2, 2] [1, 2] : memref<4x4xi32> to memref<2x2xi32, strided<[4, 2], offset: 5>>
  %usv = memref.cast %sv : memref<2x2xi32, strided<[4, 2], offset: 5>> to memref<*xi32>
  call @printMemrefI32(%usv) : (memref<*xi32>) -> ()
  call @printMemrefShapeI32(%usv) : (memref<*xi32>) -> ()

  // CHECK: [-9223372036854775807,  42]
  %a5 = memref.alloc() : memref<2xi64>
  %big = arith.constant -9223372036854775807 : i64
  %c42 = arith.constant 42 : i64
  memref.store %big, %a5[%c0] : memref<2xi64>
  memref.store %c42, %a5[%c1] : memref<2xi64>
  %u5 = memref.cast %a5 : memref<2xi64> to memref<*xi64>
  call @printMemrefI64(%u5) : (memref<*xi64>) -> ()

  // index prints unsigned
  // CHECK: [18446744073709551615,  2]
  %a6 = memref.alloc() : memref<2xindex>
  %m1 = arith.constant -1 : index
  memref.store %m1, %a6[%c0] : memref<2xindex>
  memref.store %c2, %a6[%c1] : memref<2xindex>
  %u6 = memref.cast %a6 : memref<2xindex> to memref<*xindex>
  call @printMemrefInd(%u6) : (memref<*xindex>) -> ()

  // CHECK: ( nan, -nan, inf, 1e-10, 3.14159, 18446744073709551615, -1 )
  %nan = arith.constant 0x7FC00000 : f32
  %nnan = arith.constant 0xFFC00000 : f32
  %inf = arith.constant 0x7F800000 : f32
  %small = arith.constant 1.0e-10 : f32
  %pi = arith.constant 3.141592653589793 : f64
  %i64m1 = arith.constant -1 : i64
  call @printOpen() : () -> ()
  call @printF32(%nan) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF32(%nnan) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF32(%inf) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF32(%small) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF64(%pi) : (f64) -> ()
  call @printComma() : () -> ()
  call @printU64(%i64m1) : (i64) -> ()
  call @printComma() : () -> ()
  call @printI64(%i64m1) : (i64) -> ()
  call @printClose() : () -> ()
  call @printNewline() : () -> ()

  // CHECK: [nan,  -nan,  inf,  1e-10]
  %an = memref.alloc() : memref<4xf32>
  memref.store %nan, %an[%c0] : memref<4xf32>
  memref.store %nnan, %an[%c1] : memref<4xf32>
  memref.store %inf, %an[%c2] : memref<4xf32>
  memref.store %small, %an[%c3] : memref<4xf32>
  %uan = memref.cast %an : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%uan) : (memref<*xf32>) -> ()

  // the ranked printers print "Memref " instead of "Unranked Memref "
  // CHECK-NEXT: {{^}}Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [4] strides = [1] data =
  // CHECK-NEXT: [nan,  -nan,  inf,  1e-10]
  // CHECK-NEXT: {{^}}Memref base@ = {{.*}} rank = 2 offset = 5 sizes = [2, 2] strides = [4, 2] data =
  // CHECK: {{^}}Memref base@ = {{.*}} rank = 0 offset = 0 sizes = [] strides = [] data =
  // CHECK-NEXT: [1.23457e+08]
  // CHECK-NEXT: {{^}}Memref base@ = {{.*}} rank = 1
  // CHECK-NEXT: [-9223372036854775807,  42]
  %dan = memref.cast %an : memref<4xf32> to memref<?xf32>
  call @printMemref1dF32(%dan) : (memref<?xf32>) -> ()
  %a4f = memref.alloc() : memref<4x4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %r = arith.muli %i, %c4 : index
      %v = arith.addi %r, %j : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      memref.store %vf, %a4f[%i, %j] : memref<4x4xf32>
    }
  }
  %svf = memref.subview %a4f[1, 1] [2, 2] [1, 2] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 2], offset: 5>>
  %dsvf = memref.cast %svf : memref<2x2xf32, strided<[4, 2], offset: 5>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  call @printMemref2dF32(%dsvf) : (memref<?x?xf32, strided<[?, ?], offset: ?>>) -> ()
  call @printMemref0dF32(%a0) : (memref<f32>) -> ()
  %d5 = memref.cast %a5 : memref<2xi64> to memref<?xi64>
  call @printMemref1dI64(%d5) : (memref<?xi64>) -> ()
  return
}
