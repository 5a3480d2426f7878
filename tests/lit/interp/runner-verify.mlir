// verifyMemRef*: the count of differing elements (-1 for different shapes), and upstream's report
// on stderr: up to ten "actual != expected offset = N" lines, or both descriptors.
// RUN: %gpuinterp %s > %t.ours 2> %t.ours.err
// RUN: %mlir_opt %s --convert-scf-to-cf --expand-strided-metadata --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts | %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 > %t.upstream 2> %t.upstream.err
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/g' %t.ours > %t.ours.norm
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/g' %t.upstream > %t.upstream.norm
// RUN: cmp %t.upstream.norm %t.ours.norm
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/g' %t.ours.err > %t.ours.err.norm
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/g' %t.upstream.err > %t.upstream.err.norm
// RUN: cmp %t.upstream.err.norm %t.ours.err.norm
// The lowered program (llvm.func declarations, _mlir_ciface_ calls through descriptor pointers) too:
// RUN: %mlir_opt %s --convert-scf-to-cf --expand-strided-metadata --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts | %gpuinterp - > %t.lowered 2> %t.lowered.err
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/g' %t.lowered > %t.lowered.norm
// RUN: cmp %t.upstream.norm %t.lowered.norm
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/g' %t.lowered.err > %t.lowered.err.norm
// RUN: cmp %t.upstream.err.norm %t.lowered.err.norm
// RUN: FileCheck %s < %t.ours
// RUN: FileCheck %s --check-prefix=ERR < %t.ours.err

// CHECK: [A,
// CHECK: [0.00150013,  -65504,  nan]
// f16 compares bit for bit: NaN equals itself
// CHECK-NEXT: 0
// CHECK: [3.14062]
// CHECK: [18446744073709551615,  2]
// CHECK: rank = 2 offset = 5 sizes = [2, 2] strides = [4, 2]{{$}}
// f32 within a relative 1e-6; NaN never equal; ten lines at most
// ERR: nan != nan offset = 0
// ERR-NEXT: 1 != 2 offset = 2
// ERR: 1 != 10 offset = 10
// ERR-NEXT: base@ = {{.*}} rank = 1 offset = 0 sizes = [4] strides = [1]base@ = {{.*}} rank = 1 offset = 0 sizes = [12] strides = [1]
// CHECK-NEXT: 11
// CHECK-NEXT: -1
// CHECK-NEXT: 0
func.func private @printMemrefI8(memref<*xi8>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI16(memref<*xi16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefBF16(memref<*xbf16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefShapeI32(memref<*xi32>) attributes {llvm.emit_c_interface}
func.func private @verifyMemRefF32(memref<*xf32>, memref<*xf32>) -> i64 attributes {llvm.emit_c_interface}
func.func private @verifyMemRefF16(memref<*xf16>, memref<*xf16>) -> i64 attributes {llvm.emit_c_interface}
func.func private @verifyMemRefI16(memref<*xi16>, memref<*xi16>) -> i64 attributes {llvm.emit_c_interface}
func.func private @verifyMemRefInd(memref<*xindex>, memref<*xindex>) -> i64 attributes {llvm.emit_c_interface}
func.func private @printMemrefInd(memref<*xindex>)
func.func private @printI64(i64)
func.func private @printNewline()
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a8 = memref.alloc() : memref<4xi8>
  %v65 = arith.constant 65 : i8
  %vm = arith.constant 10 : i8
  %v0 = arith.constant 0 : i8
  memref.store %v65, %a8[%c0] : memref<4xi8>
  memref.store %vm, %a8[%c1] : memref<4xi8>
  memref.store %v0, %a8[%c2] : memref<4xi8>
  %c3 = arith.constant 3 : index
  %vmm = arith.constant -3 : i8
  memref.store %vmm, %a8[%c3] : memref<4xi8>
  %u8 = memref.cast %a8 : memref<4xi8> to memref<*xi8>
  call @printMemrefI8(%u8) : (memref<*xi8>) -> ()
  %ah = memref.alloc() : memref<3xf16>
  %h = arith.constant 1.5e-3 : f16
  %h2 = arith.constant -65504.0 : f16
  %h3 = arith.constant 0x7E00 : f16
  memref.store %h, %ah[%c0] : memref<3xf16>
  memref.store %h2, %ah[%c1] : memref<3xf16>
  memref.store %h3, %ah[%c2] : memref<3xf16>
  %uh = memref.cast %ah : memref<3xf16> to memref<*xf16>
  call @printMemrefF16(%uh) : (memref<*xf16>) -> ()
  %e = call @verifyMemRefF16(%uh, %uh) : (memref<*xf16>, memref<*xf16>) -> i64
  call @printI64(%e) : (i64) -> ()
  call @printNewline() : () -> ()
  %ab = memref.alloc() : memref<1xbf16>
  %b = arith.constant 3.14159 : bf16
  memref.store %b, %ab[%c0] : memref<1xbf16>
  %ub = memref.cast %ab : memref<1xbf16> to memref<*xbf16>
  call @printMemrefBF16(%ub) : (memref<*xbf16>) -> ()
  %ai = memref.alloc() : memref<2xindex>
  %m1 = arith.constant -1 : index
  memref.store %m1, %ai[%c0] : memref<2xindex>
  memref.store %c2, %ai[%c1] : memref<2xindex>
  %ui = memref.cast %ai : memref<2xindex> to memref<*xindex>
  call @printMemrefInd(%ui) : (memref<*xindex>) -> ()
  %a4 = memref.alloc() : memref<4x4xi32>
  %sv = memref.subview %a4[1, 1] [2, 2] [1, 2] : memref<4x4xi32> to memref<2x2xi32, strided<[4, 2], offset: 5>>
  %usv = memref.cast %sv : memref<2x2xi32, strided<[4, 2], offset: 5>> to memref<*xi32>
  call @printMemrefShapeI32(%usv) : (memref<*xi32>) -> ()
  %x = memref.alloc() : memref<12xf32>
  %y = memref.alloc() : memref<12xf32>
  %one = arith.constant 1.0 : f32
  %onep = arith.constant 1.0000001 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %c12 = arith.constant 12 : index
  scf.for %i = %c0 to %c12 step %c1 {
    memref.store %one, %x[%i] : memref<12xf32>
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %y[%i] : memref<12xf32>
  }
  memref.store %onep, %x[%c1] : memref<12xf32>
  memref.store %nan, %x[%c0] : memref<12xf32>
  memref.store %nan, %y[%c0] : memref<12xf32>
  %ux = memref.cast %x : memref<12xf32> to memref<*xf32>
  %uy = memref.cast %y : memref<12xf32> to memref<*xf32>
  %e1 = call @verifyMemRefF32(%ux, %uy) : (memref<*xf32>, memref<*xf32>) -> i64
  call @printI64(%e1) : (i64) -> ()
  call @printNewline() : () -> ()
  %sx = memref.subview %x[0] [4] [1] : memref<12xf32> to memref<4xf32, strided<[1]>>
  %usx = memref.cast %sx : memref<4xf32, strided<[1]>> to memref<*xf32>
  %e2 = call @verifyMemRefF32(%usx, %uy) : (memref<*xf32>, memref<*xf32>) -> i64
  call @printI64(%e2) : (i64) -> ()
  call @printNewline() : () -> ()
  %e3 = call @verifyMemRefInd(%ui, %ui) : (memref<*xindex>, memref<*xindex>) -> i64
  call @printI64(%e3) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
