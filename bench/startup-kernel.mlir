// A small kernel program for bench/startup.sh: fill two buffers on the device, add them in a
// kernel (4 blocks of 64 threads), copy the sum back and print it.
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
      %s = arith.addf %x, %y : f32
      memref.store %s, %c[%i] : memref<256xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %a = gpu.alloc () : memref<256xf32>
    %b = gpu.alloc () : memref<256xf32>
    %c = gpu.alloc () : memref<256xf32>
    gpu.memset %a, %one : memref<256xf32>, f32
    gpu.memset %b, %two : memref<256xf32>, f32
    gpu.launch_func @k::@vadd blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%a : memref<256xf32>, %b : memref<256xf32>, %c : memref<256xf32>)
    %h = memref.alloc() : memref<256xf32>
    gpu.memcpy %h, %c : memref<256xf32>, memref<256xf32>
    %u = memref.cast %h : memref<256xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %h : memref<256xf32>
    gpu.dealloc %a : memref<256xf32>
    gpu.dealloc %b : memref<256xf32>
    gpu.dealloc %c : memref<256xf32>
    return
  }
}
