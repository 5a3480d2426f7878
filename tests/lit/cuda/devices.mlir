// mgpuSetDefaultDevice makes another device's primary context current; a device that is not
// there is an error at the call.
// RUN: rm -f %t.log
// RUN: env FAKECUDA_DEVICES=2 FAKECUDA_LOG=%t.log not %gpuinterp --backend=cuda --cuda-lib=%fakecuda %s 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=LOG < %t.log
// CHECK: devices.mlir:[[@LINE+21]]:5: error: 'llvm.call' @mgpuSetDefaultDevice: there is no CUDA device 5 (this machine has 2)
// CHECK: gpuinterp: 1 error

// LOG:      cuCtxSetCurrent(ctx1) -> CUDA_SUCCESS
// LOG-NEXT: cuDeviceGetCount() -> CUDA_SUCCESS 2
// LOG-NEXT: cuDeviceGet(1) -> CUDA_SUCCESS
// LOG-NEXT: cuDeviceGetName(128, 1) -> CUDA_SUCCESS
// LOG-NEXT: cuDeviceGetAttribute(41, 1) -> CUDA_SUCCESS 1
// LOG-NEXT: cuDevicePrimaryCtxRetain(1) -> CUDA_SUCCESS ctx2
// LOG-NEXT: cuCtxSetCurrent(ctx2) -> CUDA_SUCCESS
// LOG-NEXT: cuDeviceGetCount() -> CUDA_SUCCESS 2
// LOG-NEXT: cuCtxSynchronize() -> CUDA_SUCCESS
// LOG-NEXT: cuDevicePrimaryCtxRelease_v2(0) -> CUDA_SUCCESS
// LOG-NEXT: cuDevicePrimaryCtxRelease_v2(1) -> CUDA_SUCCESS

module {
  llvm.func @mgpuSetDefaultDevice(i32)
  func.func @main() {
    %one = llvm.mlir.constant(1 : i32) : i32
    %five = llvm.mlir.constant(5 : i32) : i32
    llvm.call @mgpuSetDefaultDevice(%one) : (i32) -> ()
    llvm.call @mgpuSetDefaultDevice(%five) : (i32) -> ()
    return
  }
}
