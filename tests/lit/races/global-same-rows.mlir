// Blocks of one launch touching the same row of elements through one op: each block's accesses
// are logged for the inter-block check, not only the first block's of a run (a memo whose range
// the blocks before logged starts anew). In both forms, and with kernels lowered to llvm + nvvm:
//   @ww  every block of 64 threads stores its id plus the thread's to elements 0..63: a
//        write-write race of different values;
//   @rw  every block loads elements 0..63 and block 0 stores to them after: blocks 1 and 2 read
//        what block 0 writes, a read-write race.
// RUN: not %gpuinterp --sched=serial -e ww %s 2>&1 | FileCheck %s --check-prefix=WW
// RUN: not %gpuinterp --sched=serial -e rw %s 2>&1 | FileCheck %s --check-prefix=RW
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' -o %t.nvvm.mlir
// RUN: not %gpuinterp --sched=serial -e ww %t.nvvm.mlir 2>&1 | FileCheck %s --check-prefix=WW-LLVM
// RUN: not %gpuinterp --sched=serial -e rw %t.nvvm.mlir 2>&1 | FileCheck %s --check-prefix=RW-LLVM
// WW: error: 'memref.store' op data race in global memory: block (1, 0, 0) writes a different value to 256 bytes at 0x{{[0-9a-f]+}}, which block (0, 0, 0) writes at 'memref.store' ({{[0-9]+}}:7); blocks of one launch are not ordered
// WW-NOT: error:
// RW: error: 'memref.store' op data race in global memory: block (0, 0, 0) writes 256 bytes at 0x{{[0-9a-f]+}}, which block (1, 0, 0) reads at 'memref.load' ({{[0-9]+}}:12); blocks of one launch are not ordered
// RW-NOT: error:
// WW-LLVM: error: 'llvm.store' op data race in global memory: block (1, 0, 0) writes a different value to 256 bytes at 0x{{[0-9a-f]+}}, which block (0, 0, 0) writes at 'llvm.store' ({{[0-9]+}}:7); blocks of one launch are not ordered
// WW-LLVM-NOT: error:
// RW-LLVM: error: 'llvm.store' op data race in global memory: block (0, 0, 0) writes 256 bytes at 0x{{[0-9a-f]+}}, which block (1, 0, 0) reads at 'llvm.load' ({{[0-9]+}}:{{[0-9]+}}); blocks of one launch are not ordered
// RW-LLVM-NOT: error:
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @ww(%c: memref<64xf32>) kernel {
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %v = arith.addi %bx, %tx : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      memref.store %vf, %c[%tx] : memref<64xf32>
      gpu.return
    }
    gpu.func @rw(%c: memref<64xf32>) kernel {
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %x = memref.load %c[%tx] : memref<64xf32>
      %first = arith.cmpi eq, %bx, %c0 : index
      scf.if %first {
        %one = arith.constant 1.0 : f32
        %y = arith.addf %x, %one : f32
        memref.store %y, %c[%tx] : memref<64xf32>
      }
      gpu.return
    }
  }
  func.func @ww() {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c64 = arith.constant 64 : index
    %c = gpu.alloc () : memref<64xf32>
    gpu.launch_func @k::@ww blocks in (%c3, %c1, %c1) threads in (%c64, %c1, %c1) args(%c : memref<64xf32>)
    gpu.wait
    gpu.dealloc %c : memref<64xf32>
    return
  }
  func.func @rw() {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c64 = arith.constant 64 : index
    %c = gpu.alloc () : memref<64xf32>
    %z = arith.constant 0.0 : f32
    gpu.memset %c, %z : memref<64xf32>, f32
    gpu.launch_func @k::@rw blocks in (%c3, %c1, %c1) threads in (%c64, %c1, %c1) args(%c : memref<64xf32>)
    gpu.wait
    gpu.dealloc %c : memref<64xf32>
    return
  }
}
