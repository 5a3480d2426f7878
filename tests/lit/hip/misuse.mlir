// Handle misuse the sim catches before anything runs is caught the same way on the hip backend,
// before a driver call: a stream passed as an event, an event and a stream used after destroy.
// The diagnostics are the sim's, word for word, and the driver never sees the bad handles.
// RUN: rm -f %t.log
// RUN: env FAKEHIP_LOG=%t.log not %gpuinterp --backend=hip --hip-lib=%fakehip %s 2> %t.hip
// RUN: FileCheck %s < %t.hip
// RUN: FileCheck %s --check-prefix=LOG < %t.log
// RUN: not %gpuinterp %s 2> %t.sim
// RUN: diff %t.sim %t.hip

// CHECK: misuse.mlir:38:5: error: 'llvm.call' @mgpuStreamWaitEvent: expects an event, got a stream (created by 'llvm.call' @mgpuStreamCreate (35:10)) [misuse]
// CHECK: misuse.mlir:40:5: error: 'llvm.call' @mgpuEventSynchronize: use of a destroyed event (created by 'llvm.call' @mgpuEventCreate (36:10), destroyed by 'llvm.call' @mgpuEventDestroy (39:5)) [misuse]
// CHECK: misuse.mlir:42:5: error: 'llvm.call' @mgpuStreamDestroy: use of a destroyed stream (created by 'llvm.call' @mgpuStreamCreate (35:10), destroyed by 'llvm.call' @mgpuStreamDestroy (41:5)) [misuse]
// CHECK: gpuinterp: 3 errors

// LOG:      hipStreamCreateWithFlags(1) -> hipSuccess s1
// LOG-NEXT: hipEventCreateWithFlags(2) -> hipSuccess e1
// LOG-NEXT: hipEventRecord(e1, s1) -> hipSuccess
// LOG-NEXT: hipEventDestroy(e1) -> hipSuccess
// LOG-NEXT: hipStreamDestroy(s1) -> hipSuccess
// LOG-NEXT: hipDeviceSynchronize() -> hipSuccess
// HIP holds no contexts: nothing is released at exit.
// LOG-NOT: hip

module {
  llvm.func @mgpuStreamCreate() -> !llvm.ptr
  llvm.func @mgpuStreamDestroy(!llvm.ptr)
  llvm.func @mgpuEventCreate() -> !llvm.ptr
  llvm.func @mgpuEventDestroy(!llvm.ptr)
  llvm.func @mgpuEventRecord(!llvm.ptr, !llvm.ptr)
  llvm.func @mgpuStreamWaitEvent(!llvm.ptr, !llvm.ptr)
  llvm.func @mgpuEventSynchronize(!llvm.ptr)

  func.func @main() {
    %s = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    %e = llvm.call @mgpuEventCreate() : () -> !llvm.ptr
    llvm.call @mgpuEventRecord(%e, %s) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.call @mgpuStreamWaitEvent(%s, %s) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.call @mgpuEventDestroy(%e) : (!llvm.ptr) -> ()
    llvm.call @mgpuEventSynchronize(%e) : (!llvm.ptr) -> ()
    llvm.call @mgpuStreamDestroy(%s) : (!llvm.ptr) -> ()
    llvm.call @mgpuStreamDestroy(%s) : (!llvm.ptr) -> ()
    return
  }
}
