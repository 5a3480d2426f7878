// Frames outlive launches (kernel/kernel.c): a launch of the same kernel with another block shape
// of the same size must not see the thread ids of the last one, and a second launch must see its
// own arguments. Each thread stores x + 10 y + 100 z + its argument at its linear index.
// RUN: %gpuinterp %s 2>&1 | FileCheck %s
// RUN: %gpuinterp --sched=serial %s 2>&1 | FileCheck %s
// CHECK:      [0,  1,  2,  3,  10,  11,  12,  13]
// CHECK:      [1000,  1001,  1002,  1003,  1004,  1005,  1006,  1007]
// CHECK:      [0,  1,  10,  11,  100,  101,  110,  111]
// CHECK-NOT: error
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @ids(%o: memref<8xi32>, %add: i32) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %c10 = arith.constant 10 : index
      %c100 = arith.constant 100 : index
      %y10 = arith.muli %ty, %c10 : index
      %z100 = arith.muli %tz, %c100 : index
      %s0 = arith.addi %tx, %y10 : index
      %s = arith.addi %s0, %z100 : index
      %row = arith.muli %tz, %by : index
      %row2 = arith.addi %row, %ty : index
      %l0 = arith.muli %row2, %bx : index
      %l = arith.addi %l0, %tx : index
      %v0 = arith.index_cast %s : index to i32
      %v = arith.addi %v0, %add : i32
      memref.store %v, %o[%l] : memref<8xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %z = arith.constant 0 : i32
    %k = arith.constant 1000 : i32
    %o = gpu.alloc host_shared () : memref<8xi32>
    %u = memref.cast %o : memref<8xi32> to memref<*xi32>
    gpu.launch_func @k::@ids blocks in (%c1, %c1, %c1) threads in (%c4, %c2, %c1) args(%o : memref<8xi32>, %z : i32)
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.launch_func @k::@ids blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%o : memref<8xi32>, %k : i32)
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.launch_func @k::@ids blocks in (%c1, %c1, %c1) threads in (%c2, %c2, %c2) args(%o : memref<8xi32>, %z : i32)
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %o : memref<8xi32>
    return
  }
}
