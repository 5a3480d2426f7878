// A cf.cond_br in a kernel whose condition is the same for every thread (a kernel argument) sends
// every thread to the successor it names, with that successor's arguments; a varying condition in
// the same kernel still splits the threads.
// RUN: %gpuinterp --timeout=60 %s | FileCheck %s
// CHECK:      [1,  1,  1,  1]
// CHECK:      [2,  2,  2,  2]
// CHECK:      [11,  11,  12,  12]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<4xi32>, %flag: i1) kernel {
      %tx = gpu.thread_id x
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      cf.cond_br %flag, ^a(%one : i32), ^b(%two : i32)
    ^a(%x: i32):
      memref.store %x, %m[%tx] : memref<4xi32>
      gpu.return
    ^b(%y: i32):
      memref.store %y, %m[%tx] : memref<4xi32>
      gpu.return
    }
    gpu.func @g(%m: memref<4xi32>) kernel {
      %tx = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %low = arith.cmpi ult, %tx, %c2 : index
      %v11 = arith.constant 11 : i32
      %v12 = arith.constant 12 : i32
      cf.cond_br %low, ^a(%v11 : i32), ^b(%v12 : i32)
    ^a(%x: i32):
      memref.store %x, %m[%tx] : memref<4xi32>
      gpu.return
    ^b(%y: i32):
      memref.store %y, %m[%tx] : memref<4xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t = arith.constant true
    %fl = arith.constant false
    %m = gpu.alloc host_shared () : memref<4xi32>
    %u = memref.cast %m : memref<4xi32> to memref<*xi32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<4xi32>, %t : i1)
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<4xi32>, %fl : i1)
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.launch_func @k::@g blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<4xi32>)
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %m : memref<4xi32>
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
