// func.call in kernels: the callee (here in the kernel's gpu.module) runs in place for all
// threads of the block, with uniform or varying arguments, nested calls, and a callee of several
// blocks whose threads return from different blocks.
// RUN: %gpuinterp %s | FileCheck %s
// x * 10 + clamp(x, 2, 5), then + the uniform 100 from a call with uniform arguments:
// CHECK: [102,  112,  122,  133,  144,  155,  165,  175]
module attributes {gpu.container_module} {
  gpu.module @k {
    func.func @clamp(%x: i32, %lo: i32, %hi: i32) -> i32 {
      %below = arith.cmpi slt, %x, %lo : i32
      cf.cond_br %below, ^low, ^rest
    ^low:
      return %lo : i32
    ^rest:
      %above = arith.cmpi sgt, %x, %hi : i32
      %r = arith.select %above, %hi, %x : i32
      return %r : i32
    }
    func.func @scaled(%x: i32, %f: i32) -> i32 {
      %m = arith.muli %x, %f : i32
      %lo = arith.constant 2 : i32
      %hi = arith.constant 5 : i32
      %c = func.call @clamp(%x, %lo, %hi) : (i32, i32, i32) -> i32
      %s = arith.addi %m, %c : i32
      return %s : i32
    }
    func.func @hundred() -> i32 {
      %h = arith.constant 100 : i32
      return %h : i32
    }
    gpu.func @kernel(%o: memref<8xi32>) kernel {
      %tx = gpu.thread_id x
      %x = arith.index_cast %tx : index to i32
      %ten = arith.constant 10 : i32
      %v = func.call @scaled(%x, %ten) : (i32, i32) -> i32
      %h = func.call @hundred() : () -> i32
      %w = arith.addi %v, %h : i32
      memref.store %w, %o[%tx] : memref<8xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %o = gpu.alloc host_shared () : memref<8xi32>
    gpu.launch_func @k::@kernel blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%o : memref<8xi32>)
    %u = memref.cast %o : memref<8xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %o : memref<8xi32>
    return
  }
}
