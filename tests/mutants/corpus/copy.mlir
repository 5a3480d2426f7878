// Host -> device -> host through two async copies ordered by tokens, then print the result.
//   ./x run --backend=sim examples/copy.mlir
//   build/gpuinterp --sched=serial --trace=copy.trace examples/copy.mlir   (what ran, and when)
module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %host = memref.alloc() : memref<4xf32>
    %back = memref.alloc() : memref<4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %host[%i] : memref<4xf32>
    }
    %t0 = gpu.wait async
    %dev, %t1 = gpu.alloc async [%t0] () : memref<4xf32>
    %t2 = gpu.memcpy async [%t1] %dev, %host : memref<4xf32>, memref<4xf32>
    %t3 = gpu.memcpy async [%t2] %back, %dev : memref<4xf32>, memref<4xf32>
    %t4 = gpu.dealloc async [%t3] %dev : memref<4xf32>
    gpu.wait [%t4]
    %u = memref.cast %back : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %host : memref<4xf32>
    memref.dealloc %back : memref<4xf32>
    return
  }
}
