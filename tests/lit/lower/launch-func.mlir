// REQUIRES: lowering
// gpu.launch_func async with one dependency stays a gpu.launch_func, in its stream form
// <%stream : !llvm.ptr>, on the dependency's stream; the gpu.module stays. MLIR 22 keeps the
// launch only when the operands' types match the kernel's, so for a gpu.func taking a memref the
// kernel module is lowered to NVVM first. The launch without async is kept as it is by 22 (no
// stream); only its presence is checked.

// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm),gpu-to-llvm)' | FileCheck %s
// RUN: %gpuinterp --lower %s | FileCheck %s
// RUN: %gpuinterp --lower %s | %mlir_opt > /dev/null

module attributes {gpu.container_module} {
  // CHECK: gpu.module @kernels
  gpu.module @kernels {
    gpu.func @scale(%buf: memref<?xf32>, %k: f32) kernel {
      %i = gpu.thread_id x
      %x = memref.load %buf[%i] : memref<?xf32>
      %y = arith.mulf %x, %k : f32
      memref.store %y, %buf[%i] : memref<?xf32>
      gpu.return
    }
  }

  // CHECK-LABEL: @run
  func.func @run(%buf: memref<?xf32>, %k: f32) {
    %one = arith.constant 1 : index
    %n = arith.constant 32 : index
    %shared = arith.constant 0 : i32
    // CHECK: %[[S:.*]] = llvm.call @mgpuStreamCreate()
    // CHECK: gpu.launch_func <%[[S]] : !llvm.ptr> @kernels::@scale blocks in
    // CHECK-SAME: dynamic_shared_memory_size
    // CHECK: llvm.call @mgpuStreamSynchronize(%[[S]])
    // CHECK: llvm.call @mgpuStreamDestroy(%[[S]])
    %s = gpu.wait async
    %t = gpu.launch_func async [%s] @kernels::@scale
        blocks in (%one, %one, %one) threads in (%n, %one, %one)
        dynamic_shared_memory_size %shared
        args(%buf : memref<?xf32>, %k : f32)
    gpu.wait [%t]
    // CHECK: gpu.launch_func {{.*}}@kernels::@scale
    gpu.launch_func @kernels::@scale
        blocks in (%one, %one, %one) threads in (%n, %one, %one)
        args(%buf : memref<?xf32>, %k : f32)
    return
  }

  // Two launches chained by tokens share one stream.
  // CHECK-LABEL: @twice
  func.func @twice(%buf: memref<?xf32>, %k: f32) {
    %one = arith.constant 1 : index
    // CHECK: %[[S:.*]] = llvm.call @mgpuStreamCreate()
    // CHECK: gpu.launch_func <%[[S]] : !llvm.ptr> @kernels::@scale
    // CHECK: gpu.launch_func <%[[S]] : !llvm.ptr> @kernels::@scale
    // CHECK-NOT: llvm.call @mgpuStreamCreate
    // CHECK: llvm.call @mgpuStreamSynchronize(%[[S]])
    // CHECK: llvm.call @mgpuStreamDestroy(%[[S]])
    %s = gpu.wait async
    %a = gpu.launch_func async [%s] @kernels::@scale
        blocks in (%one, %one, %one) threads in (%one, %one, %one)
        args(%buf : memref<?xf32>, %k : f32)
    %b = gpu.launch_func async [%a] @kernels::@scale
        blocks in (%one, %one, %one) threads in (%one, %one, %one)
        args(%buf : memref<?xf32>, %k : f32)
    gpu.wait [%b]
    return
  }
}
