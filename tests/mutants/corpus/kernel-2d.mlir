module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%buf: memref<?x4xf32>, %f: f32) kernel {
      %i = gpu.thread_id x
      %j = gpu.thread_id y
      %v = memref.load %buf[%i, %j] : memref<?x4xf32>
      %w = arith.mulf %v, %f : f32
      memref.store %w, %buf[%i, %j] : memref<?x4xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %f = arith.constant 3.0 : f32
    %host = memref.alloc(%c2) : memref<?x4xf32>
    scf.for %i = %c0 to %c2 step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        %ii = arith.index_cast %j : index to i32
        %v = arith.sitofp %ii : i32 to f32
        memref.store %v, %host[%i, %j] : memref<?x4xf32>
      }
    }
    %t0 = gpu.wait async
    %dev, %t1 = gpu.alloc async [%t0] (%c2) : memref<?x4xf32>
    %t2 = gpu.memcpy async [%t1] %dev, %host : memref<?x4xf32>, memref<?x4xf32>
    %t3 = gpu.launch_func async [%t2] @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c2, %c4, %c1) args(%dev : memref<?x4xf32>, %f : f32)
    %t4 = gpu.memcpy async [%t3] %host, %dev : memref<?x4xf32>, memref<?x4xf32>
    %t5 = gpu.dealloc async [%t4] %dev : memref<?x4xf32>
    gpu.wait [%t5]
    %u = memref.cast %host : memref<?x4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
