// A gpu.binary is loaded through mgpuModuleLoad when mlir-runner translates the module; its
// kernels are launched with mgpuLaunchKernel. The sim cannot execute device binaries: it says so
// once at the load and once for the kernel, and keeps the stream's order. A launch that did not
// run is a failed launch, and a failed launch is sticky: the program ends at the next
// synchronization (gpu.wait's mgpuStreamSynchronize) with exit status 1, before it prints what the
// kernel should have computed, and without leak warnings.

// RUN: %mlir_opt --gpu-to-llvm %s | not %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim 2>&1 | FileCheck %s

// CHECK: mgpusim: mgpuModuleLoad#1: error: cannot load a device binary (20 bytes, ELF file of an unknown machine) on the sim: the sim cannot run this kind of binary; launches from this module will be skipped
// CHECK: mgpusim: mgpuLaunchKernel#1: error: kernel 'my_kernel' was not run: its module (loaded at mgpuModuleLoad#1) is a device binary the sim cannot execute; further launches of it are skipped
// CHECK-NOT: mgpuLaunchKernel#2
// CHECK: mgpusim: mgpuStreamSynchronize#1: note: the program ends at this synchronization: the kernel launched at mgpuLaunchKernel#1 failed, and a failed launch is sticky
// CHECK-NOT: leak
// CHECK-NOT: after the launches
// CHECK: mgpusim: 2 errors
// CHECK-NOT: after the launches

module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "\7FELFnot a real cubin">]

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<32xf32>
    %t2 = gpu.launch_func async [%t1] @kernels::@my_kernel blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%d : memref<32xf32>)
    %t3 = gpu.launch_func async [%t2] @kernels::@my_kernel blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%d : memref<32xf32>)
    %t4 = gpu.dealloc async [%t3] %d : memref<32xf32>
    gpu.wait [%t4]
    vector.print str "after the launches\n"
    return
  }
}
