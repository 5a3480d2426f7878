// One load that reads two registrations of host memory side by side: the halves of one buffer,
// each registered on its own, and a kernel whose threads 0-31 read the last 32 elements of the
// first half and threads 32-63 the first 32 of the second, through a memref picked per thread by
// arith.select. The threads' accesses are consecutive, so the engine merges them into one range
// of one op across both registrations; where each registration is an allocation of its own (the
// fake driver's device, libmgpusim.so's), that range is checked allocation by allocation, not
// reported as running past the first one's end.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @pick(%a: memref<256xf32>, %b: memref<256xf32>, %o: memref<64xf32>) kernel {
      %t = gpu.thread_id x
      %c32 = arith.constant 32 : index
      %c224 = arith.constant 224 : index
      %lo = arith.cmpi ult, %t, %c32 : index
      %m = arith.select %lo, %a, %b : memref<256xf32>
      %ia = arith.addi %t, %c224 : index
      %ib = arith.subi %t, %c32 : index
      %i = arith.select %lo, %ia, %ib : index
      %x = memref.load %m[%i] : memref<256xf32>
      memref.store %x, %o[%t] : memref<64xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %k = arith.constant 1000.0 : f32
    %buf = memref.alloc() : memref<2048xi8>
    %a = memref.view %buf[%c0][] : memref<2048xi8> to memref<256xf32>
    %b = memref.view %buf[%c1024][] : memref<2048xi8> to memref<256xf32>
    scf.for %i = %c0 to %c256 step %c1 {
      %v = arith.index_cast %i : index to i32
      %f = arith.sitofp %v : i32 to f32
      %g = arith.addf %f, %k : f32
      memref.store %f, %a[%i] : memref<256xf32>
      memref.store %g, %b[%i] : memref<256xf32>
    }
    %ua = memref.cast %a : memref<256xf32> to memref<*xf32>
    %ub = memref.cast %b : memref<256xf32> to memref<*xf32>
    gpu.host_register %ua : memref<*xf32>
    gpu.host_register %ub : memref<*xf32>
    %out = gpu.alloc () : memref<64xf32>
    gpu.launch_func @k::@pick blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<256xf32>, %b : memref<256xf32>, %out : memref<64xf32>)
    %h = memref.alloc() : memref<64xf32>
    gpu.memcpy %h, %out : memref<64xf32>, memref<64xf32>
    %s = memref.subview %h[28] [8] [1] : memref<64xf32> to memref<8xf32, strided<[1], offset: 28>>
    %u = memref.cast %s : memref<8xf32, strided<[1], offset: 28>> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.host_unregister %ua : memref<*xf32>
    gpu.host_unregister %ub : memref<*xf32>
    gpu.dealloc %out : memref<64xf32>
    memref.dealloc %h : memref<64xf32>
    memref.dealloc %buf : memref<2048xi8>
    return
  }
}
