// A copy-only device program (wait, alloc, memset, memcpy, dealloc; two chains joined by a
// gpu.wait async) lowered by upstream's gpu-to-llvm and run three ways: the lowered form by our
// interpreter (under every scheduler), the same lowered file by mlir-runner with libmgpusim.so,
// and the high-level form by our interpreter. All print the same. Both runs of the lowered form
// report the two streams upstream's lowering leaks, as warnings.

// RUN: %mlir_opt %s --convert-scf-to-cf --gpu-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts > %t.ll.mlir
// RUN: %gpuinterp %t.ll.mlir 2> %t.err | sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' > %t.ours
// RUN: FileCheck --check-prefix=LEAK %s < %t.err
// RUN: %gpuinterp --sched=serial %t.ll.mlir 2> /dev/null | sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' | diff %t.ours -
// RUN: %gpuinterp --sched=random:7 %t.ll.mlir 2> /dev/null | sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' | diff %t.ours -
// RUN: %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim %t.ll.mlir 2> %t.rerr | sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' | diff %t.ours -
// RUN: FileCheck --check-prefix=RLEAK %s < %t.rerr
// RUN: %gpuinterp %s | sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' | diff %t.ours -
// RUN: FileCheck %s < %t.ours

// The same through the pipeline upstream's Integration/GPU tests use (no kernels: no device code).
// RUN: %mlir_opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=isa" > %t.nvvm.mlir
// RUN: %gpuinterp %t.nvvm.mlir 2> %t.err | sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' | diff %t.ours -
// RUN: FileCheck --check-prefix=LEAK %s < %t.err
// RUN: %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim %t.nvvm.mlir 2> /dev/null | sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' | diff %t.ours -

// CHECK: [0,  1,  2,  3]
// CHECK: [-2.25,  -2.25,  -2.25,  -2.25]
// CHECK: {{\[\[}}7,   7,   7],
// CHECK-NEXT: [7,   7,   7]]

// LEAK: .mlir:{{[0-9]+}}:{{[0-9]+}}: warning: 'llvm.call' @mgpuStreamCreate: stream created here was never destroyed [leak]
// LEAK: .mlir:{{[0-9]+}}:{{[0-9]+}}: warning: 'llvm.call' @mgpuStreamCreate: stream created here was never destroyed [leak]
// LEAK-NOT: error
// RLEAK: mgpusim: 2 warnings

func.func @main() {
  %f1 = arith.constant 1.5 : f32
  %f2 = arith.constant -2.25 : f32
  %i7 = arith.constant 7 : i16
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %h = memref.alloc() : memref<4xf32>
  %h2 = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %h[%i] : memref<4xf32>
  }
  // Two independent chains, joined: the lowering records an event on one stream and makes
  // the other wait for it.
  %a0 = gpu.wait async
  %da, %a1 = gpu.alloc async [%a0] () : memref<4xf32>
  %a2 = gpu.memcpy async [%a1] %da, %h : memref<4xf32>, memref<4xf32>
  %b0 = gpu.wait async
  %db, %b1 = gpu.alloc async [%b0] () : memref<4xf32>
  %b2 = gpu.memset async [%b1] %db, %f2 : memref<4xf32>, f32
  %j = gpu.wait async [%a2, %b2]
  %j1 = gpu.memcpy async [%j] %h2, %db : memref<4xf32>, memref<4xf32>
  %j2 = gpu.memcpy async [%j1] %db, %da : memref<4xf32>, memref<4xf32>
  %j3 = gpu.memcpy async [%j2] %h, %db : memref<4xf32>, memref<4xf32>
  %j4 = gpu.dealloc async [%j3] %da : memref<4xf32>
  %j5 = gpu.dealloc async [%j4] %db : memref<4xf32>
  gpu.wait [%j5]
  %u = memref.cast %h : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %u2 = memref.cast %h2 : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()

  // A 16-bit memset.
  %h16 = memref.alloc() : memref<2x3xi16>
  %k0 = gpu.wait async
  %d16, %k1 = gpu.alloc async [%k0] () : memref<2x3xi16>
  %k2 = gpu.memset async [%k1] %d16, %i7 : memref<2x3xi16>, i16
  %k3 = gpu.memcpy async [%k2] %h16, %d16 : memref<2x3xi16>, memref<2x3xi16>
  %k4 = gpu.dealloc async [%k3] %d16 : memref<2x3xi16>
  gpu.wait [%k4]
  %u16 = memref.cast %h16 : memref<2x3xi16> to memref<*xi16>
  call @printMemrefI16(%u16) : (memref<*xi16>) -> ()
  memref.dealloc %h : memref<4xf32>
  memref.dealloc %h2 : memref<4xf32>
  memref.dealloc %h16 : memref<2x3xi16>
  return
}

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI16(memref<*xi16>) attributes {llvm.emit_c_interface}
