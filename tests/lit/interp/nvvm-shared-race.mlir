// Shared-memory races between the threads of a block in a kernel lowered to llvm + nvvm (an
// addr_space 3 global, llvm.load and llvm.store, nvvm.barrier0): the same kernel as
// gpu-shared-race.mlir, run as mlir-opt lowers it. With the barrier it is fine; without, the
// load that reads another thread's element is reported with both threads.
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' -o %t.mlir
// RUN: not %gpuinterp %t.mlir 2>&1 | FileCheck %s
// RUN: %gpuinterp --no-race-check %t.mlir 2>&1 | FileCheck --check-prefix=OFF %s
// OFF-NOT: error
// CHECK: Unranked Memref
// CHECK-NEXT: [1,  2,  3,  0]
// CHECK: error: 'llvm.load' op data race in shared memory: reads bytes [4, 8), which thread (1, 0, 0) wrote at '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}) with no gpu.barrier in between (thread (0, 0, 0) of block (0, 0, 0))
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
