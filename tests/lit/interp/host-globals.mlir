// memref.global initial values of every kind: dense f16, i1, a rank-0 splat, hex floats, hex blobs,
// uninitialized (then written and read back through a second get_global). Upstream's lowering and
// mlir-runner print the same.
// RUN: %gpuinterp %s > %t.ours
// RUN: %mlir_opt %s --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm --reconcile-unrealized-casts | %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 > %t.upstream
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' %t.ours > %t.ours.norm
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' %t.upstream > %t.upstream.norm
// RUN: cmp %t.upstream.norm %t.ours.norm
// RUN: FileCheck %s < %t.ours

// CHECK: [1.5,  -0.25,  65504]
// CHECK-NEXT: 101
// CHECK-NEXT: 7
// CHECK-NEXT: Unranked Memref {{.*}} rank = 0
// CHECK-NEXT: [-5]
// CHECK: [inf,  -1e+300]
// CHECK: [1,  2]
// CHECK: [1,  2]

memref.global "private" constant @hexi : memref<2xi32> = dense<"0x0100000002000000">
memref.global "private" constant @hexf : memref<2xf32> = dense<"0x0000803F00000040">
memref.global "private" constant @gh : memref<3xf16> = dense<[1.5, -0.25, 65504.0]>
memref.global "private" @gb : memref<2x2xi1> = dense<[[true, false], [false, true]]>
memref.global "private" @gu : memref<2xi32> = uninitialized
memref.global "private" @g0 : memref<i64> = dense<-5>
memref.global "private" @gx : memref<2xf64> = dense<[0x7FF0000000000000, -1.0e300]>
func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI64(memref<*xi64>)
func.func private @printMemrefF64(memref<*xf64>)
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printI64(i64)
func.func private @printNewline()
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.get_global @gh : memref<3xf16>
  %uh = memref.cast %h : memref<3xf16> to memref<*xf16>
  call @printMemrefF16(%uh) : (memref<*xf16>) -> ()
  %b = memref.get_global @gb : memref<2x2xi1>
  %b00 = memref.load %b[%c0, %c0] : memref<2x2xi1>
  %b01 = memref.load %b[%c0, %c1] : memref<2x2xi1>
  %b11 = memref.load %b[%c1, %c1] : memref<2x2xi1>
  %e00 = arith.extui %b00 : i1 to i64
  %e01 = arith.extui %b01 : i1 to i64
  %e11 = arith.extui %b11 : i1 to i64
  call @printI64(%e00) : (i64) -> ()
  call @printI64(%e01) : (i64) -> ()
  call @printI64(%e11) : (i64) -> ()
  call @printNewline() : () -> ()
  %u = memref.get_global @gu : memref<2xi32>
  %seven = arith.constant 7 : i32
  memref.store %seven, %u[%c1] : memref<2xi32>
  %u2 = memref.get_global @gu : memref<2xi32>
  %x = memref.load %u2[%c1] : memref<2xi32>
  %x64 = arith.extsi %x : i32 to i64
  call @printI64(%x64) : (i64) -> ()
  call @printNewline() : () -> ()
  %z = memref.get_global @g0 : memref<i64>
  %uz = memref.cast %z : memref<i64> to memref<*xi64>
  call @printMemrefI64(%uz) : (memref<*xi64>) -> ()
  %gx = memref.get_global @gx : memref<2xf64>
  %ugx = memref.cast %gx : memref<2xf64> to memref<*xf64>
  call @printMemrefF64(%ugx) : (memref<*xf64>) -> ()
  // hex-encoded dense values
  %hi = memref.get_global @hexi : memref<2xi32>
  %uhi = memref.cast %hi : memref<2xi32> to memref<*xi32>
  call @printMemrefI32(%uhi) : (memref<*xi32>) -> ()
  %hf = memref.get_global @hexf : memref<2xf32>
  %uhf = memref.cast %hf : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%uhf) : (memref<*xf32>) -> ()
  return
}
