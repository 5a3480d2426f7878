// The two halves of one page-aligned 2048-byte buffer registered one after the other
// (gpu.host_register, cuMemHostRegister), side by side on one page, then read by a kernel; prints
// the last sums. On the simulator each half registers on its own, as the device keeps each range;
// a driver that refused the second half (its page being registered already) fails this program.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @add(%a: memref<256xf32>, %b: memref<256xf32>, %o: memref<256xf32>) kernel {
      %i = gpu.thread_id x
      %bi = gpu.block_id x
      %bd = gpu.block_dim x
      %s = arith.muli %bi, %bd : index
      %j = arith.addi %s, %i : index
      %x = memref.load %a[%j] : memref<256xf32>
      %y = memref.load %b[%j] : memref<256xf32>
      %z = arith.addf %x, %y : f32
      memref.store %z, %o[%j] : memref<256xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %cb = arith.constant 4 : index
    %cn = arith.constant 256 : index
    %coff = arith.constant 1024 : index
    %one = arith.constant 1.0 : f32
    %buf = memref.alloc() {alignment = 4096 : i64} : memref<2048xi8>
    %a = memref.view %buf[%c0][] : memref<2048xi8> to memref<256xf32>
    %b = memref.view %buf[%coff][] : memref<2048xi8> to memref<256xf32>
    scf.for %i = %c0 to %cn step %c1 {
      memref.store %one, %a[%i] : memref<256xf32>
      memref.store %one, %b[%i] : memref<256xf32>
    }
    %ua = memref.cast %a : memref<256xf32> to memref<*xf32>
    %ub = memref.cast %b : memref<256xf32> to memref<*xf32>
    gpu.host_register %ua : memref<*xf32>
    gpu.host_register %ub : memref<*xf32>
    %out = gpu.alloc () : memref<256xf32>
    gpu.launch_func @k::@add blocks in (%cb, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<256xf32>, %b : memref<256xf32>, %out : memref<256xf32>)
    %h = memref.alloc() : memref<256xf32>
    gpu.memcpy %h, %out : memref<256xf32>, memref<256xf32>
    %s = memref.subview %h[252] [4] [1] : memref<256xf32> to memref<4xf32, strided<[1], offset: 252>>
    %u = memref.cast %s : memref<4xf32, strided<[1], offset: 252>> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.host_unregister %ua : memref<*xf32>
    gpu.host_unregister %ub : memref<*xf32>
    gpu.dealloc %out : memref<256xf32>
    memref.dealloc %h : memref<256xf32>
    memref.dealloc %buf : memref<2048xi8>
    return
  }
}
