// A warp reduction with gpu.shuffle xor (shfl.sync.bfly in PTX) over 2 warps of 32 lanes; lane 0
// of each warp writes its warp's sum of thread ids: [496, 1520].
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @warpsum(%out: memref<2xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %w = arith.constant 32 : i32
      %tx = gpu.thread_id x
      %v0 = arith.index_cast %tx : index to i32
      %o16 = arith.constant 16 : i32
      %o8 = arith.constant 8 : i32
      %o4 = arith.constant 4 : i32
      %o2 = arith.constant 2 : i32
      %o1 = arith.constant 1 : i32
      %s16, %k16 = gpu.shuffle xor %v0, %o16, %w : i32
      %v1 = arith.addi %v0, %s16 : i32
      %s8, %k8 = gpu.shuffle xor %v1, %o8, %w : i32
      %v2 = arith.addi %v1, %s8 : i32
      %s4, %k4 = gpu.shuffle xor %v2, %o4, %w : i32
      %v3 = arith.addi %v2, %s4 : i32
      %s2, %k2 = gpu.shuffle xor %v3, %o2, %w : i32
      %v4 = arith.addi %v3, %s2 : i32
      %s1, %k1 = gpu.shuffle xor %v4, %o1, %w : i32
      %v5 = arith.addi %v4, %s1 : i32
      %lane = arith.remui %tx, %c32 : index
      %warp = arith.divui %tx, %c32 : index
      %first = arith.cmpi eq, %lane, %c0 : index
      scf.if %first {
        memref.store %v5, %out[%warp] : memref<2xi32>
      }
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %h = memref.alloc() : memref<2xi32>
    %d = gpu.alloc () : memref<2xi32>
    gpu.launch_func @k::@warpsum blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%d : memref<2xi32>)
    gpu.memcpy %h, %d : memref<2xi32>, memref<2xi32>
    gpu.dealloc %d : memref<2xi32>
    %u = memref.cast %h : memref<2xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %h : memref<2xi32>
    return
  }
}
