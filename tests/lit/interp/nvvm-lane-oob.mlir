// An out-of-bounds load among a lane vector's in a lowered kernel: the threads of rows 3..8 of an
// 8x8 memref, the last row past its end. The block's addresses are not in the memref's range as
// a whole, so its threads are checked one by one and the first one out of bounds is reported as
// before, with its element and thread; the launch before it, all in bounds, runs.
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' -o %t.mlir
// RUN: not %gpuinterp %t.mlir 2>&1 | FileCheck %s
// RUN: not %gpuinterp --sched=serial %t.mlir 2>&1 | FileCheck %s
// CHECK: error: 'llvm.load' op out-of-bounds load: bytes [256, 260) of the memref passed as kernel operand 0: element 64 is not in [0, 64) (thread (0, 5, 0) of block (0, 0, 0))
// CHECK-NOT: error:
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @tiles(%a: memref<8x8xf32>, %c: memref<8x8xf32>) kernel {
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %c3 = arith.constant 3 : index
      %row = arith.addi %ty, %c3 : index
      %col = arith.addi %tx, %bx : index
      %x = memref.load %a[%row, %col] : memref<8x8xf32>
      memref.store %x, %c[%ty, %tx] : memref<8x8xf32>
      gpu.return
    }
    gpu.func @race(%out: memref<16xf32>) workgroup(%sh: memref<16xf32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c15 = arith.constant 15 : index
      %f = arith.constant 1.0 : f32
      memref.store %f, %sh[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
      %j0 = arith.addi %tx, %c1 : index
      %j = arith.minui %j0, %c15 : index
      %v = memref.load %sh[%j] : memref<16xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%tx] : memref<16xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %a = gpu.alloc () : memref<8x8xf32>
    %c = gpu.alloc () : memref<8x8xf32>
    %o = gpu.alloc () : memref<16xf32>
    %f = arith.constant 2.0 : f32
    gpu.memset %a, %f : memref<8x8xf32>, f32
    gpu.launch_func @k::@tiles blocks in (%c1, %c1, %c1) threads in (%c8, %c5, %c1) args(%a : memref<8x8xf32>, %c : memref<8x8xf32>)
    gpu.launch_func @k::@tiles blocks in (%c2, %c1, %c1) threads in (%c8, %c6, %c1) args(%a : memref<8x8xf32>, %c : memref<8x8xf32>)
    %t = gpu.wait async
    gpu.wait [%t]
    gpu.dealloc %a : memref<8x8xf32>
    gpu.dealloc %c : memref<8x8xf32>
    gpu.dealloc %o : memref<16xf32>
    return
  }
}
