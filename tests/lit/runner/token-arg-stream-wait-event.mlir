// MLIR 22's gpu-to-llvm lowers a !gpu.async.token that crosses a function boundary inconsistently:
// the caller passes the stream it created, the callee treats its block argument as an event and
// calls mgpuStreamWaitEvent(newStream, arg) and mgpuEventDestroy(arg). A real driver prints
// CUDA_ERROR_INVALID_HANDLE and drops the ordering; the sim names the call and what the handle
// really was, reports the race the dropped ordering leaves behind, and the run exits 1.

// RUN: %mlir_opt --gpu-to-llvm %s | not %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim 2> %t.err | FileCheck %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: %mlir_opt --gpu-to-llvm %s | env MGPUSIM_SCHED=serial not %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim 2> %t.err | FileCheck %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err

// The trace names the mix-up on the call line and lists it with the race it caused.
// RUN: %mlir_opt --gpu-to-llvm %s | env MGPUSIM_SCHED=serial MGPUSIM_TRACE=%t.txt not %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim > /dev/null 2>&1
// RUN: diff -u %root/traces/golden/runner-token-arg.txt %t.txt

// The lowering this test is about.
// RUN: %mlir_opt --gpu-to-llvm %s | FileCheck --check-prefix=LOWERED %s
// LOWERED-LABEL: llvm.func @consume(%arg0: !llvm.ptr
// LOWERED:         %[[S:.*]] = llvm.call @mgpuStreamCreate()
// LOWERED:         llvm.call @mgpuStreamWaitEvent(%[[S]], %arg0)
// LOWERED:         llvm.call @mgpuEventDestroy(%arg0)
// LOWERED-LABEL: llvm.func @main()
// LOWERED:         %[[T:.*]] = llvm.call @mgpuStreamCreate()
// LOWERED:         llvm.call @consume(%[[T]],

// CHECK: [1.5,  1.5,  1.5,  1.5]

// ERR: mgpusim: mgpuStreamWaitEvent#1: error: expects an event, got a stream (created at 'mgpuStreamCreate#1') [misuse]
// ERR-NEXT: mgpusim: mgpuStreamCreate#1: note: the handle or memory was made or released here
// ERR-NEXT: mgpusim: mgpuEventDestroy#1: error: expects an event, got a stream (created at 'mgpuStreamCreate#1') [misuse]
// ERR: mgpusim: mgpuMemcpy#1: error: data race (read-write): 'mgpuMemcpy#1' reads and 'mgpuMemset32#1' writes bytes [0, 16) of the device memory allocated at 'mgpuMemAlloc#1'; nothing orders the two [race]
// ERR-NEXT: mgpusim: mgpuMemset32#1: note: the conflicting access
// ERR-NEXT: mgpusim: mgpuMemAlloc#1: note: the memory was allocated here
// ERR: mgpusim: mgpuStreamCreate#1: warning: stream created here was never destroyed [leak]
// ERR: mgpusim: 3 errors, 2 warnings

func.func @consume(%t: !gpu.async.token, %d: memref<4xf32>, %h: memref<4xf32>) {
  %t1 = gpu.wait async [%t]
  %t2 = gpu.memcpy async [%t1] %h, %d : memref<4xf32>, memref<4xf32>
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
