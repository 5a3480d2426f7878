// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// In the style of the inputs of mlir/test/Conversion/GPUCommon/lower-*-to-
// gpu-runtime-calls.mlir: the host ops gpu-to-llvm rewrites into mgpu*
// calls, one function each: alloc/dealloc (async, host_shared), memcpy and
// memset (async, several dependencies), wait chains, set_default_device,
// host_register of ranked and unranked memrefs, a launch with dynamic
// shared memory and scalar + memref arguments into a gpu.module that is
// already lowered to llvm.func. tests/corpus-tools/gen-lowered.sh lowers
// this file into lowered-gpucommon-host.mlir.

module attributes {gpu.container_module} {
  gpu.module @kernel_module [#nvvm.target] {
    llvm.func @kernel(%arg0: i32, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: i64, %arg4: i64, %arg5: i64) attributes {gpu.kernel} {
      llvm.return
    }
  }

  func.func @alloc_dealloc(%size: index) {
    %t0 = gpu.wait async
    %m, %t1 = gpu.alloc async [%t0] (%size) : memref<?xf32>
    %t2 = gpu.dealloc async [%t1] %m : memref<?xf32>
    gpu.wait [%t2]
    %s = gpu.alloc host_shared (%size) : memref<?xf32>
    %f = gpu.alloc () : memref<16xi64>
    return
  }

  func.func @copies(%dst: memref<7xf32, 1>, %src: memref<7xf32>, %v: f32, %i: i32, %dyn: memref<?xi32>) {
    %t0 = gpu.wait async
    %t1 = gpu.memcpy async [%t0] %dst, %src : memref<7xf32, 1>, memref<7xf32>
    %t2 = gpu.memset async [%t1] %dst, %v : memref<7xf32, 1>, f32
    %t3 = gpu.memset async [%t2] %dyn, %i : memref<?xi32>, i32
    gpu.wait [%t3]
    return
  }

  func.func @waits() {
    %t0 = gpu.wait async
    %t1 = gpu.wait async [%t0]
    %m, %t2 = gpu.alloc async [%t0] () : memref<4xf32>
    %t3 = gpu.dealloc async [%t1, %t2] %m : memref<4xf32>
    gpu.wait [%t1, %t3]
    return
  }

  func.func @devices(%dev: i32, %ranked: memref<4x4xf32>) {
    gpu.set_default_device %dev
    %u = memref.cast %ranked : memref<4x4xf32> to memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    gpu.host_unregister %u : memref<*xf32>
    return
  }

  func.func @launch(%buffer: memref<?xf32>) {
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : i32
    %c256 = arith.constant 256 : i32
    gpu.launch_func @kernel_module::@kernel
        blocks in (%c8, %c8, %c8)
        threads in (%c8, %c8, %c8)
        dynamic_shared_memory_size %c256
        args(%c32 : i32, %buffer : memref<?xf32>)
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernel_module::@kernel
        blocks in (%c8, %c8, %c8)
        threads in (%c8, %c8, %c8)
        args(%c32 : i32, %buffer : memref<?xf32>)
    gpu.wait [%t1]
    return
  }
}
