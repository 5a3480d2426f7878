// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// In the style of mlir/test/Integration/GPU/CUDA/two-modules.mlir: two
// gpu.launch regions in one function write to the same registered host
// buffer; after outlining they become kernels of two gpu.modules. Both the
// region form and the outlined form are here.

module attributes {gpu.container_module} {
  func.func @before_outlining() {
    %buf = memref.alloc() : memref<8xi32>
    %any = memref.cast %buf : memref<8xi32> to memref<*xi32>
    gpu.host_register %any : memref<*xi32>
    %one = arith.constant 1 : index
    %eight = arith.constant 8 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %one, %gz = %one)
               threads(%tx, %ty, %tz) in (%sx = %eight, %sy = %one, %sz = %one) {
      %v = arith.index_cast %tx : index to i32
      memref.store %v, %buf[%tx] : memref<8xi32>
      gpu.terminator
    }
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %one, %gz = %one)
               threads(%tx, %ty, %tz) in (%sx = %eight, %sy = %one, %sz = %one) {
      %v = memref.load %buf[%tx] : memref<8xi32>
      %w = arith.muli %v, %v : i32
      memref.store %w, %buf[%tx] : memref<8xi32>
      gpu.terminator
    }
    call @printMemrefI32(%any) : (memref<*xi32>) -> ()
    return
  }

  gpu.module @first_kernel {
    gpu.func @first_kernel(%buf: memref<8xi32>) kernel attributes {known_block_size = array<i32: 8, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
      %tx = gpu.thread_id x
      %v = arith.index_cast %tx : index to i32
      memref.store %v, %buf[%tx] : memref<8xi32>
      gpu.return
    }
  }
  gpu.module @second_kernel {
    gpu.func @second_kernel(%buf: memref<8xi32>) kernel attributes {known_block_size = array<i32: 8, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
      %tx = gpu.thread_id x
      %v = memref.load %buf[%tx] : memref<8xi32>
      %w = arith.muli %v, %v : i32
      memref.store %w, %buf[%tx] : memref<8xi32>
      gpu.return
    }
  }

  func.func @after_outlining() {
    %buf = memref.alloc() : memref<8xi32>
    %any = memref.cast %buf : memref<8xi32> to memref<*xi32>
    gpu.host_register %any : memref<*xi32>
    %one = arith.constant 1 : index
    %eight = arith.constant 8 : index
    gpu.launch_func @first_kernel::@first_kernel blocks in (%one, %one, %one) threads in (%eight, %one, %one) args(%buf : memref<8xi32>)
    gpu.launch_func @second_kernel::@second_kernel blocks in (%one, %one, %one) threads in (%eight, %one, %one) args(%buf : memref<8xi32>)
    call @printMemrefI32(%any) : (memref<*xi32>) -> ()
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
}
