// A kernel that calls a ROCm device library function: math.sin becomes a call of __ocml_sin_f32,
// which gpu-module-to-binary links from ocml.bc (device-libs.test, launch-module.test).
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @sine(%out: memref<4xf32>) kernel {
      %tx = gpu.thread_id x
      %v = memref.load %out[%tx] : memref<4xf32>
      %s = math.sin %v : f32
      memref.store %s, %out[%tx] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %d = gpu.alloc () : memref<4xf32>
    gpu.launch_func @m::@sine blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xf32>)
    gpu.dealloc %d : memref<4xf32>
    vector.print str "done\n"
    return
  }
}
