// A gpu.module with a device function call, gpu.printf, a shuffle and an atomic, for mlir-opt's
// NVPTX output (see ../README.md).
module attributes {gpu.container_module} {
  gpu.module @calls {
    func.func @axpy(%a: f32, %x: f32, %y: f32) -> f32 attributes {passthrough = ["noinline"]} {
      %m = arith.mulf %a, %x : f32
      %s = arith.addf %m, %y : f32
      return %s : f32
    }
    gpu.func @calls_kernel(%p: memref<64xf32>, %q: memref<1xi32>, %a: f32) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %p[%tid] : memref<64xf32>
      %r = func.call @axpy(%a, %v, %v) : (f32, f32, f32) -> f32
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %sh, %ok = gpu.shuffle xor %r, %c1, %c32 : f32
      memref.store %sh, %p[%tid] : memref<64xf32>
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
      %old = memref.atomic_rmw addi %one, %q[%c0] : (i32, memref<1xi32>) -> i32
      gpu.printf "tid %d old %d\n", %tid, %old : index, i32
      gpu.return
    }
  }
}
