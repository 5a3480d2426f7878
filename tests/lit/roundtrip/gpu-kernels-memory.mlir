// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// Kernels that use every kind of GPU memory: global memrefs, workgroup
// attributions, private attributions, dynamic shared memory (through
// gpu.dynamic_shared_memory and a view of it), plus shuffles, barriers and
// printf; launched with dynamic_shared_memory_size. Input of
// lowered-kernels-memory-full.mlir (tests/corpus-tools/gen-lowered.sh).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reverse(%in: memref<64xf32>, %out: memref<64xf32>)
        workgroup(%tile : memref<64xf32, #gpu.address_space<workgroup>>)
        private(%tmp : memref<1xf32, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %c63 = arith.constant 63 : index
      %tx = gpu.thread_id x
      %v = memref.load %in[%tx] : memref<64xf32>
      memref.store %v, %tmp[%c0] : memref<1xf32, #gpu.address_space<private>>
      %w = memref.load %tmp[%c0] : memref<1xf32, #gpu.address_space<private>>
      memref.store %w, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = arith.subi %c63, %tx : index
      %x = memref.load %tile[%r] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %x, %out[%tx] : memref<64xf32>
      gpu.return
    }

    gpu.func @dynamic_shared(%out: memref<64xi32>) kernel {
      %c0 = arith.constant 0 : index
      %shmem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %view = memref.view %shmem[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xi32, #gpu.address_space<workgroup>>
      %tx = gpu.thread_id x
      %i = arith.index_cast %tx : index to i32
      memref.store %i, %view[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %off = arith.constant 1 : i32
      %width = arith.constant 32 : i32
      %y = memref.load %view[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
      %s, %ok = gpu.shuffle down %y, %off, %width : i32
      %lane = gpu.lane_id
      gpu.printf "lane %lld got %d\n", %lane, %s : index, i32
      memref.store %s, %out[%tx] : memref<64xi32>
      gpu.return
    }
  }

  func.func @main(%in: memref<64xf32>, %out: memref<64xf32>, %iout: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %bytes = arith.constant 256 : i32
    gpu.launch_func @kernels::@reverse blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%in : memref<64xf32>, %out : memref<64xf32>)
    gpu.launch_func @kernels::@dynamic_shared blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) dynamic_shared_memory_size %bytes args(%iout : memref<64xi32>)
    return
  }
}
