// mgpuSetDefaultDevice makes another device current (hipSetDevice); a device that is not there
// is an error at the call.
// RUN: rm -f %t.log
// RUN: env FAKEHIP_DEVICES=2 FAKEHIP_LOG=%t.log not %gpuinterp --backend=hip --hip-lib=%fakehip %s 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=LOG < %t.log
// CHECK: devices.mlir:[[@LINE+21]]:5: error: 'llvm.call' @mgpuSetDefaultDevice: there is no HIP device 5 (this machine has 2)
// CHECK: gpuinterp: 1 error

// The device is made current with hipSetDevice, and closing synchronizes the current one; HIP
// holds no contexts, so nothing is released.
// LOG:      hipSetDevice(0) -> hipSuccess
// LOG-NEXT: hipGetDeviceCount() -> hipSuccess 2
// LOG-NEXT: hipDeviceGet(1) -> hipSuccess
// LOG-NEXT: hipDeviceGetName(128, 1) -> hipSuccess
// LOG-NEXT: hipDeviceGetAttribute(85, 1) -> hipSuccess 1
// LOG-NEXT: hipSetDevice(1) -> hipSuccess
// LOG-NEXT: hipGetDeviceCount() -> hipSuccess 2
// LOG-NEXT: hipDeviceSynchronize() -> hipSuccess
// LOG-NOT:  hip

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
