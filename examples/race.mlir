// Copies four numbers to the device, doubles them in a kernel and copies them back, but the
// launch waits only for the allocation (%t1), not for the copy in (%t2): the two race.
// docs/tutorial.md finds the race, reads its trace and fixes it (examples/race-fixed.mlir).
//   build/gpuinterp examples/race.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @double(%buf: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %buf[%i] : memref<4xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %buf[%i] : memref<4xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %host = memref.alloc() : memref<4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %host[%i] : memref<4xf32>
    }
    %t0 = gpu.wait async
    %dev, %t1 = gpu.alloc async [%t0] () : memref<4xf32>
    %t2 = gpu.memcpy async [%t1] %dev, %host : memref<4xf32>, memref<4xf32>
    %t3 = gpu.launch_func async [%t1] @kernels::@double blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%dev : memref<4xf32>)
    %t4 = gpu.memcpy async [%t2, %t3] %host, %dev : memref<4xf32>, memref<4xf32>
    %t5 = gpu.dealloc async [%t4] %dev : memref<4xf32>
    gpu.wait [%t5]
    %u = memref.cast %host : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %host : memref<4xf32>
    return
  }
}
