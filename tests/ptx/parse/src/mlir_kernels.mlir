// A gpu.module lowered by mlir-opt's NVVM pipeline to PTX text (see ../README).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%a: memref<?xf32>, %s: f32, %n: index) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %t0 = arith.muli %bid, %bdim : index
      %i = arith.addi %t0, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %v = memref.load %a[%i] : memref<?xf32>
        %w = arith.mulf %v, %s : f32
        memref.store %w, %a[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @tile_sum(%a: memref<128xi32>, %out: memref<1xi32>) workgroup(%buf: memref<128xi32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %a[%tid] : memref<128xi32>
      memref.store %v, %buf[%tid] : memref<128xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c128 = arith.constant 128 : index
      %z = arith.constant 0 : i32
      %is0 = arith.cmpi eq, %tid, %c0 : index
      scf.if %is0 {
        %s = scf.for %k = %c0 to %c128 step %c1 iter_args(%acc = %z) -> i32 {
          %e = memref.load %buf[%k] : memref<128xi32, #gpu.address_space<workgroup>>
          %n = arith.addi %acc, %e : i32
          scf.yield %n : i32
        }
        memref.store %s, %out[%c0] : memref<1xi32>
      }
      gpu.return
    }
  }
}
