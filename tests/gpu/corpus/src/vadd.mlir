// c = a + b on 256 f32 elements, 4 blocks of 64 threads; prints c.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @vadd(%a: memref<256xf32>, %b: memref<256xf32>, %c: memref<256xf32>) kernel {
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %tx = gpu.thread_id x
      %i0 = arith.muli %bx, %bd : index
      %i = arith.addi %i0, %tx : index
      %x = memref.load %a[%i] : memref<256xf32>
      %y = memref.load %b[%i] : memref<256xf32>
      %z = arith.addf %x, %y : f32
      memref.store %z, %c[%i] : memref<256xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %n = arith.constant 256 : index
    %ha = memref.alloc() : memref<256xf32>
    %hb = memref.alloc() : memref<256xf32>
    %hc = memref.alloc() : memref<256xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %g = arith.addf %f, %f : f32
      memref.store %f, %ha[%i] : memref<256xf32>
      memref.store %g, %hb[%i] : memref<256xf32>
    }
    %t0 = gpu.wait async
    %da, %t1 = gpu.alloc async [%t0] () : memref<256xf32>
    %db, %t2 = gpu.alloc async [%t0] () : memref<256xf32>
    %dc, %t3 = gpu.alloc async [%t0] () : memref<256xf32>
    %t4 = gpu.memcpy async [%t1] %da, %ha : memref<256xf32>, memref<256xf32>
    %t5 = gpu.memcpy async [%t2] %db, %hb : memref<256xf32>, memref<256xf32>
    %t6 = gpu.launch_func async [%t4, %t5, %t3] @k::@vadd blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1) args(%da : memref<256xf32>, %db : memref<256xf32>, %dc : memref<256xf32>)
    %t7 = gpu.memcpy async [%t6] %hc, %dc : memref<256xf32>, memref<256xf32>
    gpu.wait [%t7]
    gpu.dealloc %da : memref<256xf32>
    gpu.dealloc %db : memref<256xf32>
    gpu.dealloc %dc : memref<256xf32>
    %u = memref.cast %hc : memref<256xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %ha : memref<256xf32>
    memref.dealloc %hb : memref<256xf32>
    memref.dealloc %hc : memref<256xf32>
    return
  }
}
