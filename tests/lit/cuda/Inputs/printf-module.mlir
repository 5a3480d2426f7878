// Kernels that print, in a gpu.module that gpuinterp compiles to PTX with mlir-opt on the cuda
// backend (printf.test): @fill writes out[i] = in[i] + 1, @show prints what each thread sees.
// The host prints around the launches; a GPU prints its kernels' lines when the host
// synchronizes, so on the device they come after "after the launches", before "after the wait".
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%in: memref<4xi32>, %out: memref<4xi32>) kernel {
      %tx = gpu.thread_id x
      %v = memref.load %in[%tx] : memref<4xi32>
      %one = arith.constant 1 : i32
      %w = arith.addi %v, %one : i32
      memref.store %w, %out[%tx] : memref<4xi32>
      gpu.return
    }
    gpu.func @show(%in: memref<4xi32>, %out: memref<4xi32>) kernel {
      %tx = gpu.thread_id x
      %i = arith.index_cast %tx : index to i32
      %a = memref.load %in[%tx] : memref<4xi32>
      %b = memref.load %out[%tx] : memref<4xi32>
      gpu.printf "thread %d: in %d, out %d\n", %i, %a, %b : i32, i32, i32
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c10 = arith.constant 10 : i32
    %h = memref.alloc() : memref<4xi32>
    scf.for %i = %c0 to %c4 step %c1 {
      %v = arith.index_cast %i : index to i32
      %w = arith.muli %v, %c10 : i32
      memref.store %w, %h[%i] : memref<4xi32>
    }
    %t0 = gpu.wait async
    %in, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    %out, %t2 = gpu.alloc async [%t1] () : memref<4xi32>
    %t3 = gpu.memcpy async [%t2] %in, %h : memref<4xi32>, memref<4xi32>
    vector.print str "before the launches\n"
    %t4 = gpu.launch_func async [%t3] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%in : memref<4xi32>, %out : memref<4xi32>)
    %t5 = gpu.launch_func async [%t4] @k::@show blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%in : memref<4xi32>, %out : memref<4xi32>)
    vector.print str "after the launches\n"
    gpu.wait [%t5]
    vector.print str "after the wait\n"
    %r = memref.alloc() : memref<4xi32>
    %t6 = gpu.memcpy async [%t5] %r, %out : memref<4xi32>, memref<4xi32>
    %t7 = gpu.dealloc async [%t6] %in : memref<4xi32>
    %t8 = gpu.dealloc async [%t7] %out : memref<4xi32>
    gpu.wait [%t8]
    %u = memref.cast %r : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %h : memref<4xi32>
    memref.dealloc %r : memref<4xi32>
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
