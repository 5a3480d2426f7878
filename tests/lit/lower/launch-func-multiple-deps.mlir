// REQUIRES: lowering
// gpu.launch_func async with two dependencies. MLIR 22 does not lower it: gpu-to-llvm fails with
// "failed to legalize operation 'gpu.launch_func' that was explicitly marked illegal" (later
// upstream versions put a gpu.wait async on the dependencies in front of the launch). Ours
// launches on the first dependency's stream after it waits for an event recorded on the second.

// RUN: not %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm),gpu-to-llvm)' 2>&1 | FileCheck --check-prefix=MLIR22 %s
// RUN: %gpuinterp --lower %s | FileCheck --check-prefix=OURS %s
// RUN: %gpuinterp --lower %s | %mlir_opt > /dev/null

// MLIR22: error: failed to legalize operation 'gpu.launch_func' that was explicitly marked illegal
// MLIR22-NEXT: %k = gpu.launch_func async [%a, %b] @kernels::@nop

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @nop() kernel {
      gpu.return
    }
  }

  // OURS-LABEL: @launch_after_two
  // OURS: %[[A:.*]] = llvm.call @mgpuStreamCreate()
  // OURS: %[[B:.*]] = llvm.call @mgpuStreamCreate()
  // OURS: %[[EB:.*]] = llvm.call @mgpuEventCreate()
  // OURS: llvm.call @mgpuEventRecord(%[[EB]], %[[B]])
  // OURS: llvm.call @mgpuStreamWaitEvent(%[[A]], %[[EB]])
  // OURS: gpu.launch_func <%[[A]] : !llvm.ptr> @kernels::@nop
  // OURS: llvm.call @mgpuStreamSynchronize(%[[A]])
  // OURS: llvm.call @mgpuStreamDestroy(%[[A]])
  func.func @launch_after_two() {
    %one = arith.constant 1 : index
    %a = gpu.wait async
    %b = gpu.wait async
    %k = gpu.launch_func async [%a, %b] @kernels::@nop
        blocks in (%one, %one, %one) threads in (%one, %one, %one)
    gpu.wait [%k]
    return
  }
}
