// MLIR 22's gpu-to-llvm passes a !gpu.async.token that crosses a function boundary as the stream
// the caller created, while the callee treats its argument as an event: it calls
// mgpuStreamWaitEvent(newStream, arg) and mgpuEventDestroy(arg). Run through our interpreter, the
// lowered program gets each misuse named by the mgpu function and the location of its llvm.call,
// which --mlir-print-debuginfo keeps pointing at the high-level op it came from; the ordering the
// wait should have given is lost, so the copy races with the memset, and the run exits 1.

// RUN: %mlir_opt %s --convert-scf-to-cf --gpu-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts --mlir-print-debuginfo > %t.ll.mlir
// RUN: not %gpuinterp --sched=serial %t.ll.mlir 2> %t.err | FileCheck %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: not %gpuinterp %t.ll.mlir 2> %t.err | FileCheck %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err

// The trace names each call the same way, and shows the copy's stream never waited for the memset.
// RUN: not %gpuinterp --sched=serial --trace=%t.trace %t.ll.mlir > /dev/null 2>&1
// RUN: FileCheck --check-prefix=TRACE %s < %t.trace
// TRACE: enqueue op 1 llvm.call @mgpuMemset32 on stream 2 at {{.*}}lowered-token-arg.mlir:{{[0-9]+}}:9 mgpuMemset32 write b2[0,16)
// TRACE: call llvm.call @mgpuStreamWaitEvent at {{.*}}lowered-token-arg.mlir:{{[0-9]+}}:9 mgpuStreamWaitEvent: stream 3 waits for stream 2 given as an event -> invalid handle
// TRACE: enqueue op 2 llvm.call @mgpuMemcpy on stream 3 at {{.*}}lowered-token-arg.mlir:{{[0-9]+}}:9 mgpuMemcpy write b1[0,16) read b2[0,16)
// TRACE-NOT: edge {{.*}}op 1

// The lowered calls the diagnostics point at.
// RUN: FileCheck --check-prefix=LOWERED %s < %t.ll.mlir
// LOWERED-LABEL: llvm.func @consume(%arg0: !llvm.ptr
// LOWERED:         llvm.call @mgpuStreamWaitEvent({{.*}}, %arg0)
// LOWERED:         llvm.call @mgpuEventDestroy(%arg0)

// CHECK: [1.5,  1.5,  1.5,  1.5]

// ERR: lowered-token-arg.mlir:[[@LINE+10]]:9: error: 'llvm.call' @mgpuStreamWaitEvent: expects an event, got a stream (created by 'llvm.call' @mgpuStreamCreate ([[@LINE+19]]:9)) [misuse]
// ERR: lowered-token-arg.mlir:[[@LINE+18]]:9: note: the handle or memory was made or released here
// ERR: lowered-token-arg.mlir:[[@LINE+8]]:9: error: 'llvm.call' @mgpuEventDestroy: expects an event, got a stream
// ERR: lowered-token-arg.mlir:[[@LINE+8]]:9: error: data race (read-write): 'llvm.call' @mgpuMemcpy ([[@LINE+8]]:9) reads and 'llvm.call' @mgpuMemset32 ([[@LINE+18]]:9) writes bytes [0, 16) of the device memory allocated by 'llvm.call' @mgpuMemAlloc ([[@LINE+17]]:13); nothing orders the two [race]
// ERR: lowered-token-arg.mlir:[[@LINE+17]]:9: note: the conflicting access
// ERR: lowered-token-arg.mlir:[[@LINE+15]]:13: note: the memory was allocated here
// ERR: lowered-token-arg.mlir:[[@LINE+13]]:9: warning: 'llvm.call' @mgpuStreamCreate: stream created here was never destroyed [leak]
// ERR-NOT: error:

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
  memref.dealloc %h : memref<4xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>)
