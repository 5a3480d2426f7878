// A host load of device memory (memory.test).
module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : i32
    %d = gpu.alloc () : memref<4xi32>
    gpu.memset %d, %c1 : memref<4xi32>, i32
    %v = memref.load %d[%c0] : memref<4xi32>
    vector.print %v : i32
    gpu.dealloc %d : memref<4xi32>
    return
  }
}
