// An access through an address space 3 pointer past the block's shared memory, in an nvvm kernel:
// reported at the op with the offset, the shared memory's size and the thread.
// RUN: not %gpuinterp %s 2>&1 | FileCheck %s
// CHECK: nvvm-shared-oob.mlir:[[@LINE+12]]:7: error: 'llvm.store' op out-of-bounds access: 4 bytes at offset 16 of the block's shared memory (16 bytes) (thread (2, 0, 0) of block (0, 0, 0))
// CHECK-NOT: error:
module attributes {gpu.container_module} {
  gpu.module @k {
    llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4 x i32>
    llvm.func @f() attributes {gpu.kernel, nvvm.kernel} {
      %base = llvm.mlir.addressof @buf : !llvm.ptr<3>
      %tx32 = nvvm.read.ptx.sreg.tid.x : i32
      %c2 = llvm.mlir.constant(2 : i32) : i32
      %i = llvm.mul %tx32, %c2 : i32
      %p = llvm.getelementptr %base[%i] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
      // threads 0 and 1 store at elements 0 and 2; thread 2 at element 4, past the end
      llvm.store %tx32, %p : i32, !llvm.ptr<3>
      llvm.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
    return
  }
}
