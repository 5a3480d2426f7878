module attributes {gpu.container_module} {
  func.func @main() {
    %m = gpu.alloc () : memref<4xi32>
    gpu.dealloc %m : memref<4xi32>
    gpu.dealloc %m : memref<4xi32>
    %h = gpu.alloc () : memref<8xi32>
    %u = memref.alloc () : memref<8xi32>
    gpu.memcpy %u, %h : memref<8xi32>, memref<8xi32>
    memref.dealloc %u : memref<8xi32>
    return
  }
}
