module attributes {gpu.container_module} {
  gpu.module @k {
    func.func @put(%m: memref<4xi32>, %i: index, %v: i32) {
      memref.store %v, %m[%i] : memref<4xi32>
      return
    }
    func.func @twice(%m: memref<4xi32>, %i: index, %v: i32) {
      func.call @put(%m, %i, %v) : (memref<4xi32>, index, i32) -> ()
      return
    }
    gpu.func @fill(%m: memref<4xi32>) kernel {
      %tx = gpu.thread_id x
      %v = arith.constant 7 : i32
      func.call @twice(%m, %tx, %v) : (memref<4xi32>, index, i32) -> ()
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %m = gpu.alloc () : memref<4xi32>
    gpu.launch_func @k::@fill blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%m : memref<4xi32>)
    gpu.dealloc %m : memref<4xi32>
    return
  }
}
