// Two kernels on unordered tokens run at the same time under the threads scheduler: each
// increments a host-shared counter atomically, then spins until the counter reaches 2, which it
// only does if the other kernel runs concurrently (upstream's concurrent-kernels.mlir). Atomics do
// not race with each other. (Under --sched=serial this program would wait forever, as it would
// on a device that serialized the two kernels.)
// RUN: timeout 60 %gpuinterp --sched=threads %s 2>&1 | FileCheck %s
// CHECK: [2]
// CHECK-NOT: error
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%memref: memref<i32>) kernel {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %block = memref.atomic_rmw addi %c1, %memref[] : (i32, memref<i32>) -> i32
      scf.while: () -> () {
        %value = memref.atomic_rmw addi %c0, %memref[] : (i32, memref<i32>) -> i32
        %cond = arith.cmpi slt, %value, %c2 : i32
        scf.condition(%cond)
      } do {
        scf.yield
      }
      gpu.return
    }
  }

  func.func @main() {
    %memref = gpu.alloc host_shared () : memref<i32>
    %c0 = arith.constant 0 : i32
    memref.store %c0, %memref[] : memref<i32>
    %0 = gpu.wait async
    %1 = gpu.wait async
    %c1 = arith.constant 1 : index
    %2 = gpu.launch_func async [%0] @kernels::@kernel
        blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1)
        args(%memref: memref<i32>)
    %3 = gpu.launch_func async [%1] @kernels::@kernel
        blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1)
        args(%memref: memref<i32>)
    gpu.wait [%2, %3]
    %u = memref.cast %memref : memref<i32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %memref : memref<i32>
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
