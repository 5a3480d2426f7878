// Adds a row of ones to a buffer on the device four times, one kernel launch per trip of an
// scf.for that carries the async token, then copies the result back and prints it.
//
// MLIR 22's gpu-to-llvm lowers this wrongly: the loop's token is a block argument, which it
// treats as an event while the loop passes the stream in, so the ordering between trips and the
// final wait are lost. Run it, lower it, and let --diff compare the two:
//   ./x run examples/token-loop.mlir
//   build/gpuinterp --lower examples/token-loop.mlir                  (our lowering)
//   build/gpuinterp --diff examples/token-loop.mlir                   (agrees: exit 0)
//   mlir-opt --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm),gpu-to-llvm)' \
//     -mlir-print-debuginfo examples/token-loop.mlir -o /tmp/token-loop.22.mlir
//   build/gpuinterp --diff examples/token-loop.mlir --against /tmp/token-loop.22.mlir   (exit 1)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @add_one(%buf: memref<8xf32>) kernel {
      %i = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      %x = memref.load %buf[%i] : memref<8xf32>
      %y = arith.addf %x, %one : f32
      memref.store %y, %buf[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %host = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %host[%i] : memref<8xf32>
    }
    %t0 = gpu.wait async
    %dev, %t1 = gpu.alloc async [%t0] () : memref<8xf32>
    %t2 = gpu.memcpy async [%t1] %dev, %host : memref<8xf32>, memref<8xf32>
    %t3 = scf.for %k = %c0 to %c4 step %c1 iter_args(%t = %t2) -> (!gpu.async.token) {
      %n = gpu.launch_func async [%t] @kernels::@add_one blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%dev : memref<8xf32>)
      scf.yield %n : !gpu.async.token
    }
    %t4 = gpu.memcpy async [%t3] %host, %dev : memref<8xf32>, memref<8xf32>
    %t5 = gpu.dealloc async [%t4] %dev : memref<8xf32>
    gpu.wait [%t5]
    %u = memref.cast %host : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %host : memref<8xf32>
    return
  }
}
