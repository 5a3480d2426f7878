// gpu.wait async on two tokens from two streams lowers to events: mgpuEventCreate and
// mgpuEventRecord on each stream, then mgpuStreamWaitEvent twice on a new stream. The join orders
// the copy after both memsets, so there is no race. Upstream never destroys the first two streams
// (nor the memory, which the program does not free): leaks are warnings and the run exits 0;
// MGPUSIM_LEAK_CHECK=error makes them errors.

// RUN: %mlir_opt --gpu-to-llvm %s > %t.ll.mlir
// RUN: %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim %t.ll.mlir 2> %t.err | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: env MGPUSIM_LEAK_CHECK=error not %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim %t.ll.mlir 2>&1 >/dev/null | FileCheck --check-prefix=LEAKERR %s

// RUN: FileCheck --check-prefix=LOWERED %s < %t.ll.mlir
// LOWERED: %[[E:.*]] = llvm.call @mgpuEventCreate()
// LOWERED: llvm.call @mgpuEventRecord(%[[E]],
// LOWERED: llvm.call @mgpuStreamWaitEvent({{.*}}, %[[E]])

// CHECK: [1,  1,  1,  1,  2,  2,  2,  2]

// WARN-NOT: error
// WARN: mgpusim: mgpuStreamCreate#1: warning: stream created here was never destroyed [leak]
// WARN: mgpusim: mgpuStreamCreate#2: warning: stream created here was never destroyed [leak]
// WARN: mgpusim: 4 warnings

// LEAKERR: mgpusim: 4 errors

func.func @main() {
  %f1 = arith.constant 1.0 : f32
  %f2 = arith.constant 2.0 : f32
  %h = memref.alloc() : memref<8xf32>
  %t0 = gpu.wait async
  %t1 = gpu.wait async
  %a, %ta = gpu.alloc async [%t0] () : memref<8xf32>
  %sa = gpu.memset async [%ta] %a, %f1 : memref<8xf32>, f32
  %b, %tb = gpu.alloc async [%t1] () : memref<4xf32>
  %sb = gpu.memset async [%tb] %b, %f2 : memref<4xf32>, f32
  %j = gpu.wait async [%sa, %sb]
  %c1 = gpu.memcpy async [%j] %h, %a : memref<8xf32>, memref<8xf32>
  gpu.wait [%c1]
  %c4 = arith.constant 4 : index
  %c0 = arith.constant 0 : index
  %c1i = arith.constant 1 : index
  // Overwrite the second half on the host from %b, through a second device round trip.
  %hb = memref.alloc() : memref<4xf32>
  %t2 = gpu.wait async
  %c2 = gpu.memcpy async [%t2] %hb, %b : memref<4xf32>, memref<4xf32>
  gpu.wait [%c2]
  %v = memref.load %hb[%c0] : memref<4xf32>
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  memref.store %v, %h[%c4] : memref<8xf32>
  memref.store %v, %h[%c5] : memref<8xf32>
  memref.store %v, %h[%c6] : memref<8xf32>
  memref.store %v, %h[%c7] : memref<8xf32>
  %u = memref.cast %h : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(memref<*xf32>)
