// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// gpu host ops: wait (sync, async, with and without dependencies), alloc
// (sync, async, host_shared, dynamic sizes, symbol operands), dealloc,
// memcpy, memset, host_register/unregister, set_default_device,
// launch_func with async tokens, stream operands (`<%s : !llvm.ptr>`),
// dynamic shared memory, cluster sizes and kernel operands of many types.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<?xf32>, %n: index, %f: f32) kernel {
      gpu.return
    }
    gpu.func @k0() kernel {
      gpu.return
    }
  }

  func.func @tokens(%n: index) {
    gpu.wait
    %t0 = gpu.wait async
    %t1 = gpu.wait async [%t0]
    %t2 = gpu.wait async [%t0, %t1]
    gpu.wait [%t2]
    gpu.wait [%t1, %t2]
    return
  }

  func.func @memory(%n: index, %h: memref<?xf32>, %v: f32, %u: memref<*xf32>) {
    %m0 = gpu.alloc() : memref<16xf32>
    %m1 = gpu.alloc(%n) : memref<?xf32>
    %m2 = gpu.alloc host_shared (%n) : memref<?xf32>
    %t0 = gpu.wait async
    %m3, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    %m4, %t2 = gpu.alloc async [%t1] () : memref<4x4xi32>
    %m5, %t2b = gpu.alloc async [%t2] host_shared () : memref<8xf64>
    %t3 = gpu.memcpy async [%t2b] %m3, %h : memref<?xf32>, memref<?xf32>
    gpu.memcpy %h, %m1 : memref<?xf32>, memref<?xf32>
    %t4 = gpu.memset async [%t3] %m3, %v : memref<?xf32>, f32
    gpu.memset %m1, %v : memref<?xf32>, f32
    %t5 = gpu.dealloc async [%t4] %m3 : memref<?xf32>
    %t6 = gpu.dealloc async [%t5, %t4] %m4 : memref<4x4xi32>
    gpu.dealloc %m0 : memref<16xf32>
    gpu.dealloc %m1 : memref<?xf32>
    gpu.wait [%t6]
    gpu.host_register %u : memref<*xf32>
    gpu.host_unregister %u : memref<*xf32>
    %dev = arith.constant 0 : i32
    gpu.set_default_device %dev
    %m6 = gpu.alloc() {alignment = 128 : i64} : memref<32xi8, #gpu.address_space<global>>
    return
  }

  func.func @launches(%a: memref<?xf32>, %n: index, %f: f32, %smem: i32, %stream: !llvm.ptr) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@k blocks in (%n, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<?xf32>, %n : index, %f : f32)
    gpu.launch_func @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %smem
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@k blocks in (%n, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<?xf32>, %n : index, %f : f32)
    %t2 = gpu.launch_func async [%t0, %t1] @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %smem
    gpu.launch_func <%stream : !llvm.ptr> @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @kernels::@k0 clusters in (%c1, %c1, %c1) blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    %t3 = gpu.launch_func async @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%t2, %t3]
    return
  }
}
