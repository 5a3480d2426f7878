// Two async copies ordered by tokens: host -> device -> host.
module attributes {gpu.container_module} {
  func.func @main() {
    %c4 = arith.constant 4 : index
    %host = memref.alloc() : memref<4xf32>
    %back = memref.alloc() : memref<4xf32>
    %t0 = gpu.wait async
    %dev, %t1 = gpu.alloc async [%t0] () : memref<4xf32>
    %t2 = gpu.memcpy async [%t1] %dev, %host : memref<4xf32>, memref<4xf32>
    %t3 = gpu.memcpy async [%t2] %back, %dev : memref<4xf32>, memref<4xf32>
    gpu.wait [%t3]
    return
  }
}
