// Threads of one block that touch the same element of shared memory with no gpu.barrier in
// between, one of them writing, race: reported at the second access with both threads and the
// first access's location. The same kernel with the barrier is fine.
// RUN: not %gpuinterp %s 2>&1 | FileCheck %s
// With --no-race-check nothing checks the threads' shared-memory accesses.
// RUN: %gpuinterp --no-race-check %s 2>&1 | FileCheck --check-prefix=OFF %s
// OFF-NOT: error
// CHECK: Unranked Memref
// CHECK-NEXT: [1,  2,  3,  0]
// CHECK: gpu-shared-race.mlir:[[@LINE+14]]:12: error: 'memref.load' op data race in shared memory: reads bytes [4, 8), which thread (1, 0, 0) wrote at 'memref.store' ([[@LINE+8]]:7) with no gpu.barrier in between (thread (0, 0, 0) of block (0, 0, 0))
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @rotate(%o: memref<4xi32>, %sync: i1) workgroup(%sh: memref<4xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %n = gpu.block_dim x
      %c1 = arith.constant 1 : index
      %v = arith.index_cast %tx : index to i32
      memref.store %v, %sh[%tx] : memref<4xi32, #gpu.address_space<workgroup>>
      scf.if %sync {
        gpu.barrier
      }
      %j0 = arith.addi %tx, %c1 : index
      %j = arith.remui %j0, %n : index
      %w = memref.load %sh[%j] : memref<4xi32, #gpu.address_space<workgroup>>
      memref.store %w, %o[%tx] : memref<4xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %true = arith.constant true
    %false = arith.constant false
    %o = gpu.alloc host_shared () : memref<4xi32>
    gpu.launch_func @k::@rotate blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%o : memref<4xi32>, %true : i1)
    %u = memref.cast %o : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.launch_func @k::@rotate blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%o : memref<4xi32>, %false : i1)
    gpu.dealloc %o : memref<4xi32>
    return
  }
}
