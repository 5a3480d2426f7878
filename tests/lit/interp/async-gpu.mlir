// Our version of upstream's Integration/GPU/CUDA/async.mlir: device buffers made and copied inside
// async.execute bodies that depend on each other through tokens and !async.value<memref>s, a fork
// and a join, then a kernel writing their sum (3 * 42) back to the registered host buffer.
// RUN: %gpuinterp %s 2>&1 | FileCheck %s
// RUN: %gpuinterp --sched=serial %s 2>&1 | FileCheck %s
// RUN: %gpuinterp --sched=random:7 %s 2>&1 | FileCheck %s

func.func private @printMemrefI32(memref<*xi32>)

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

  // h0 = b0 + b1 + b2 (join).
  %t3 = async.execute [%t1, %t2] (
    %f0 as %b0 : !async.value<memref<?xi32>>,
    %f1 as %b1 : !async.value<memref<?xi32>>,
    %f2 as %b2 : !async.value<memref<?xi32>>
  ) {
    gpu.launch blocks(%bx, %by, %bz) in (%grid_x = %c1, %grid_y = %c1, %grid_z = %c1)
               threads(%tx, %ty, %tz) in (%block_x = %count, %block_y = %c1, %block_z = %c1) {
      %v1 = memref.load %b0[%tx] : memref<?xi32>
      %v2 = memref.load %b1[%tx] : memref<?xi32>
      %v3 = memref.load %b2[%tx] : memref<?xi32>
      %sum = arith.addi %v1, %v2 : i32
      %sum2 = arith.addi %sum, %v3 : i32
      memref.store %sum2, %h0[%tx] : memref<?xi32>
      gpu.terminator
    }
    async.yield
  }

  async.await %t3 : !async.token
  // CHECK: [126, 126]
  call @printMemrefI32(%h0_unranked) : (memref<*xi32>) -> ()
  %d0 = async.await %f0 : !async.value<memref<?xi32>>
  %d1 = async.await %f1 : !async.value<memref<?xi32>>
  %d2 = async.await %f2 : !async.value<memref<?xi32>>
  gpu.dealloc %d0 : memref<?xi32>
  gpu.dealloc %d1 : memref<?xi32>
  gpu.dealloc %d2 : memref<?xi32>
  // CHECK-NOT: warning
  return
}
