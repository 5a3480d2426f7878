// A gpu.launch body (kernels.test): on the cuda backend it is outlined into a kernel and compiled
// by mlir-opt; the hip backend refuses it by name.
module attributes {gpu.container_module} {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %d = gpu.alloc () : memref<4xi32>
    %t0 = gpu.wait async
    %t1 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %v = arith.index_cast %tx : index to i32
      memref.store %v, %d[%tx] : memref<4xi32>
      gpu.terminator
    }
    gpu.wait [%t1]
    vector.print str "after the launch\n"
    gpu.dealloc %d : memref<4xi32>
    return
  }
  // @sync: a synchronous gpu.launch, whose token the interpreter releases at once
  func.func @sync() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %d = gpu.alloc host_shared () : memref<4xi32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %v = arith.index_cast %tx : index to i32
      memref.store %v, %d[%tx] : memref<4xi32>
      gpu.terminator
    }
    vector.print str "not reached\n"
    gpu.dealloc %d : memref<4xi32>
    return
  }
}
