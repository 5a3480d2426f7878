// A pipeline where every dependency orders two conflicting accesses and every op shows in the
// output: copies in and out, a 2-D dynamic copy, a kernel, 32- and 16-bit memsets, ops with two
// dependencies (a write after a read, a read after a write), and host reads after the waits.
// No dependency is on a stream that holds only allocations (mgpuMemAlloc is synchronous, so
// waiting for one orders nothing) and no wait is implied by another: every wait matters.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @twice_plus(%a: memref<8xf32>, %b: memref<8xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<8xf32>
      %y = memref.load %b[%i] : memref<8xf32>
      %s = arith.addf %x, %x : f32
      %r = arith.addf %s, %y : f32
      memref.store %r, %a[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefI16(memref<*xi16>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %one = arith.constant 1.0 : f32
    %five = arith.constant 5.0 : f32
    %seven = arith.constant 7 : i16
    %h = memref.alloc() : memref<8xf32>
    %out = memref.alloc() : memref<8xf32>
    %out2 = memref.alloc(%c2) : memref<?x4xf32>
    %hs = memref.alloc() : memref<8xi16>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %h[%i] : memref<8xf32>
    }
    %a, %ta = gpu.alloc async () : memref<8xf32>
    %b, %tb = gpu.alloc async () : memref<8xf32>
    %s, %ts = gpu.alloc async () : memref<8xi16>
    // a <- h, b <- 1.0 on two streams; the kernel needs both
    %t1 = gpu.memcpy async [%ta] %a, %h : memref<8xf32>, memref<8xf32>
    %t2 = gpu.memset async [%tb] %b, %one : memref<8xf32>, f32
    %t3 = gpu.launch_func async [%t1, %t2] @k::@twice_plus blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<8xf32>, %b : memref<8xf32>)
    // out <- a reads the kernel's result; c <- 5.0 meanwhile; then a <- c, after both (a write
    // after the read of a, a read after the write of c), and a goes to the 2-D buffer
    %t4 = gpu.memcpy async [%t3] %out, %a : memref<8xf32>, memref<8xf32>
    %c, %tc = gpu.alloc async () : memref<8xf32>
    %tc5 = gpu.memset async [%tc] %c, %five : memref<8xf32>, f32
    %t5 = gpu.memcpy async [%t4, %tc5] %a, %c : memref<8xf32>, memref<8xf32>
    %v = memref.reinterpret_cast %a to offset: [0], sizes: [2, 4], strides: [4, 1] : memref<8xf32> to memref<2x4xf32>
    %vd = memref.cast %v : memref<2x4xf32> to memref<?x4xf32>
    %d2, %td = gpu.alloc async [%t5] (%c2) : memref<?x4xf32>
    %t6 = gpu.memcpy async [%td] %d2, %vd : memref<?x4xf32>, memref<?x4xf32>
    %t7 = gpu.memcpy async [%t6] %out2, %d2 : memref<?x4xf32>, memref<?x4xf32>
    %t8 = gpu.memset async [%ts] %s, %seven : memref<8xi16>, i16
    %t9 = gpu.memcpy async [%t8] %hs, %s : memref<8xi16>, memref<8xi16>
    gpu.wait [%t7, %t9]
    %x = memref.load %out[%c4] : memref<8xf32>
    %y = memref.load %out2[%c1, %c2] : memref<?x4xf32>
    vector.print %x : f32
    vector.print %y : f32
    %u = memref.cast %out : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %u2 = memref.cast %out2 : memref<?x4xf32> to memref<*xf32>
    call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
    %u3 = memref.cast %hs : memref<8xi16> to memref<*xi16>
    call @printMemrefI16(%u3) : (memref<*xi16>) -> ()
    gpu.dealloc %a : memref<8xf32>
    gpu.dealloc %b : memref<8xf32>
    gpu.dealloc %s : memref<8xi16>
    gpu.dealloc %d2 : memref<?x4xf32>
    gpu.dealloc %c : memref<8xf32>
    return
  }
}
