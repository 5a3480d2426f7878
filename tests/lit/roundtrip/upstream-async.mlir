// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// In the style of mlir/test/Integration/GPU/CUDA/async.mlir: host memory
// registered with the device, a diamond of async.execute regions (fork and
// join) that allocate and copy device buffers, values passed between them
// as !async.value operands spelled over several lines, and a gpu.launch in
// the join region that sums two buffers into host memory.

func.func @main() {
  %c0    = arith.constant 0 : index
  %c1    = arith.constant 1 : index
  %n     = arith.constant 4 : index

  %host = memref.alloc(%n) : memref<?xf32>
  %host_any = memref.cast %host : memref<?xf32> to memref<*xf32>
  gpu.host_register %host_any : memref<*xf32>
  %init = arith.constant 1.25 : f32
  scf.for %i = %c0 to %n step %c1 {
    memref.store %init, %host[%i] : memref<?xf32>
  }

  %ta, %fa = async.execute () -> !async.value<memref<?xf32>> {
    %dev = gpu.alloc(%n) : memref<?xf32>
    gpu.memcpy %dev, %host : memref<?xf32>, memref<?xf32>
    async.yield %dev : memref<?xf32>
  }

  %tb, %fb = async.execute [%ta] (
    %fa as %src : !async.value<memref<?xf32>>
  ) -> !async.value<memref<?xf32>> {
    %copy = gpu.alloc(%n) : memref<?xf32>
    gpu.memcpy %copy, %src : memref<?xf32>, memref<?xf32>
    async.yield %copy : memref<?xf32>
  }
  %tc, %fc = async.execute [%ta] (
    %fa as %src : !async.value<memref<?xf32>>
  ) -> !async.value<memref<?xf32>> {
    %copy = gpu.alloc(%n) : memref<?xf32>
    gpu.memcpy %copy, %src : memref<?xf32>, memref<?xf32>
    async.yield %copy : memref<?xf32>
  }

  %td = async.execute [%tb, %tc] (
    %fb as %x : !async.value<memref<?xf32>>,
    %fc as %y : !async.value<memref<?xf32>>
  ) {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
      %a = memref.load %x[%tx] : memref<?xf32>
      %b = memref.load %y[%tx] : memref<?xf32>
      %s = arith.addf %a, %b : f32
      memref.store %s, %host[%tx] : memref<?xf32>
      gpu.terminator
    }
    async.yield
  }

  async.await %td : !async.token
  call @printMemrefF32(%host_any) : (memref<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(memref<*xf32>)
