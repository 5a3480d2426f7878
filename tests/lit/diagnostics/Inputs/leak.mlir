module attributes {gpu.container_module} {
  func.func @main() {
    %m = gpu.alloc () : memref<4xi32>
    %n = gpu.alloc () : memref<4xi32>
    return
  }
}
