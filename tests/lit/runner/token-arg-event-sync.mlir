// The other face of the same lowering: when the callee's first async op uses the token argument
// directly, gpu-to-llvm enqueues on it as a stream (which works) but then synchronizes and destroys
// it as an event: mgpuEventSynchronize and mgpuEventDestroy get a stream handle.

// RUN: %mlir_opt --gpu-to-llvm %s | not %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim 2> %t.err | FileCheck %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err

// CHECK: [1.5,  1.5,  1.5,  1.5]

// ERR: mgpusim: mgpuEventSynchronize#1: error: expects an event, got a stream (created at 'mgpuStreamCreate#1') [misuse]
// ERR: mgpusim: mgpuEventDestroy#1: error: expects an event, got a stream (created at 'mgpuStreamCreate#1') [misuse]
// ERR-NOT: race
// ERR: mgpusim: mgpuStreamCreate#1: warning: stream created here was never destroyed [leak]
// ERR: mgpusim: mgpuMemAlloc#1: warning: device memory (16 bytes) allocated here was never freed [leak]
// ERR: mgpusim: 2 errors, 2 warnings

func.func @consume(%t: !gpu.async.token, %d: memref<4xf32>, %h: memref<4xf32>) {
  %t2 = gpu.memcpy async [%t] %h, %d : memref<4xf32>, memref<4xf32>
  gpu.wait [%t2]
  return
}

func.func @main() {
  %f = arith.constant 1.5 : f32
  %h = memref.alloc() : memref<4xf32>
  %t0 = gpu.wait async
  %d, %t1 = gpu.alloc async [%t0] () : memref<4xf32>
  %t2 = gpu.memset async [%t1] %d, %f : memref<4xf32>, f32
  call @consume(%t2, %d, %h) : (!gpu.async.token, memref<4xf32>, memref<4xf32>) -> ()
  %u = memref.cast %h : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(memref<*xf32>)
