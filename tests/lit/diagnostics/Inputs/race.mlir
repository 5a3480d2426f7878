module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%m: memref<32xi32>, %v: i32) kernel {
      %tx = gpu.thread_id x
      memref.store %v, %m[%tx] : memref<32xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %m = gpu.alloc () : memref<32xi32>
    %t0 = gpu.wait async
    %a = gpu.launch_func async [%t0] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%m : memref<32xi32>, %one : i32)
    %b = gpu.launch_func async [%t0] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%m : memref<32xi32>, %two : i32)
    gpu.wait [%a, %b]
    gpu.dealloc %m : memref<32xi32>
    return
  }
}
