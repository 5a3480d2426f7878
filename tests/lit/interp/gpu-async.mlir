// Device work ordered by tokens. First upstream's Integration/GPU/CUDA/async.mlir: copies and a
// gpu.launch inside async.execute regions forked and joined by async tokens. Then the same data
// flow with gpu async tokens only: a copy forks into two copies, a kernel joins them
// (gpu.launch_func async with two dependencies), and gpu.wait async joins tokens for the host.
// No schedule may change the result, and nothing races.
// RUN: %gpuinterp %s | FileCheck %s
// RUN: %gpuinterp --sched=serial %s | FileCheck %s
// RUN: %gpuinterp --sched=random:1 %s | FileCheck %s
// RUN: %gpuinterp --sched=random:2 %s | FileCheck %s
// CHECK: [84,  84]
// CHECK: [84,  84,  84,  84,  84,  84,  84,  84,  84,  84,  84,  84,  84,  84,  84,  84]
// CHECK-NOT: error

module attributes {gpu.container_module} {
gpu.module @k {
  gpu.func @add(%a: memref<?xi32>, %b: memref<?xi32>, %c: memref<?xi32>) kernel {
    %i = gpu.global_id x
    %x = memref.load %a[%i] : memref<?xi32>
    %y = memref.load %b[%i] : memref<?xi32>
    %s = arith.addi %x, %y : i32
    memref.store %s, %c[%i] : memref<?xi32>
    gpu.return
  }
}

func.func @main() {
  %c0    = arith.constant 0 : index
  %c1    = arith.constant 1 : index
  %count = arith.constant 2 : index

  // initialize h0 on host
  %h0 = memref.alloc(%count) : memref<?xi32>
  %h0_unranked = memref.cast %h0 : memref<?xi32> to memref<*xi32>
  gpu.host_register %h0_unranked : memref<*xi32>

  %v0 = arith.constant 42 : i32
  memref.store %v0, %h0[%c0] : memref<?xi32>
  memref.store %v0, %h0[%c1] : memref<?xi32>

  // copy h0 to b0 on device.
  %t0, %f0 = async.execute () -> !async.value<memref<?xi32>> {
    %b0 = gpu.alloc(%count) : memref<?xi32>
    gpu.memcpy %b0, %h0 : memref<?xi32>, memref<?xi32>
    async.yield %b0 : memref<?xi32>
  }

  // copy h0 to b1 and b2 (fork)
  %t1, %f1 = async.execute [%t0] (
    %f0 as %b0 : !async.value<memref<?xi32>>
  ) -> !async.value<memref<?xi32>> {
    %b1 = gpu.alloc(%count) : memref<?xi32>
    gpu.memcpy %b1, %b0 : memref<?xi32>, memref<?xi32>
    async.yield %b1 : memref<?xi32>
  }
  %t2, %f2 = async.execute [%t0] (
    %f0 as %b0 : !async.value<memref<?xi32>>
  ) -> !async.value<memref<?xi32>> {
    %b2 = gpu.alloc(%count) : memref<?xi32>
    gpu.memcpy %b2, %b0 : memref<?xi32>, memref<?xi32>
    async.yield %b2 : memref<?xi32>
  }

  // h0 = b1 + b2 (join).
  %t3 = async.execute [%t1, %t2] (
    %f1 as %b1 : !async.value<memref<?xi32>>,
    %f2 as %b2 : !async.value<memref<?xi32>>
  ) {
    gpu.launch blocks(%bx, %by, %bz) in (%grid_x = %c1, %grid_y = %c1, %grid_z = %c1)
               threads(%tx, %ty, %tz) in (%block_x = %count, %block_y = %c1, %block_z = %c1) {
      %v1 = memref.load %b1[%tx] : memref<?xi32>
      %v2 = memref.load %b2[%tx] : memref<?xi32>
      %sum = arith.addi %v1, %v2 : i32
      memref.store %sum, %h0[%tx] : memref<?xi32>
      gpu.terminator
    }
    async.yield
  }

  async.await %t3 : !async.token
  call @printMemrefI32(%h0_unranked) : (memref<*xi32>) -> ()

  // The same with gpu tokens, over 16 elements in 4 blocks of 4 threads.
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %h = memref.alloc(%c16) : memref<?xi32>
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %v0, %h[%i] : memref<?xi32>
  }
  %w0 = gpu.wait async
  %d0, %a0 = gpu.alloc async [%w0] (%c16) : memref<?xi32>
  %cp0 = gpu.memcpy async [%a0] %d0, %h : memref<?xi32>, memref<?xi32>
  %d1, %a1 = gpu.alloc async [%w0] (%c16) : memref<?xi32>
  %d2, %a2 = gpu.alloc async [%w0] (%c16) : memref<?xi32>
  %j1 = gpu.wait async [%cp0, %a1]
  %cp1 = gpu.memcpy async [%j1] %d1, %d0 : memref<?xi32>, memref<?xi32>
  %cp2 = gpu.memcpy async [%cp0, %a2] %d2, %d0 : memref<?xi32>, memref<?xi32>
  %k = gpu.launch_func async [%cp1, %cp2] @k::@add blocks in (%c4, %c1, %c1) threads in (%c4, %c1, %c1)
      args(%d1 : memref<?xi32>, %d2 : memref<?xi32>, %d0 : memref<?xi32>)
  %back = gpu.memcpy async [%k] %h, %d0 : memref<?xi32>, memref<?xi32>
  %f0b = gpu.dealloc async [%back] %d0 : memref<?xi32>
  %f1b = gpu.dealloc async [%k] %d1 : memref<?xi32>
  %f2b = gpu.dealloc async [%k] %d2 : memref<?xi32>
  %all = gpu.wait async [%f0b, %f1b, %f2b]
  gpu.wait [%all]
  %hu = memref.cast %h : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%hu) : (memref<*xi32>) -> ()
  return
}

func.func private @printMemrefI32(memref<*xi32>)
}
