// A histogram by atomics: 4 blocks of 64 threads each add 1 to bucket (global id mod 8) with
// memref.atomic_rmw (atom.global.add in PTX); every bucket ends at 32.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @hist(%h: memref<8xi32>) kernel {
      %c8 = arith.constant 8 : index
      %one = arith.constant 1 : i32
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %tx = gpu.thread_id x
      %g0 = arith.muli %bx, %bd : index
      %g = arith.addi %g0, %tx : index
      %b = arith.remui %g, %c8 : index
      %old = memref.atomic_rmw addi %one, %h[%b] : (i32, memref<8xi32>) -> i32
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %h = memref.alloc() : memref<8xi32>
    %d = gpu.alloc () : memref<8xi32>
    gpu.memset %d, %c0 : memref<8xi32>, i32
    gpu.launch_func @k::@hist blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1) args(%d : memref<8xi32>)
    gpu.memcpy %h, %d : memref<8xi32>, memref<8xi32>
    gpu.dealloc %d : memref<8xi32>
    %u = memref.cast %h : memref<8xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %h : memref<8xi32>
    return
  }
}
