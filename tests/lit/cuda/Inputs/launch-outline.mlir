// gpu.launch bodies run on the cuda backend (launch-outline.test): each is outlined into a kernel
// of its own, compiled by mlir-opt to PTX and launched with the host values its body uses, in
// the order of their first use there (memrefs as their descriptors' fields).
module attributes {gpu.container_module} {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %x = arith.constant 10 : i32
    %f = arith.constant 2.5 : f32
    %smem = arith.constant 64 : i32
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    %e, %t2 = gpu.alloc async [%t1] () : memref<2x4xf32>
    // async, after its dependency: uses %d, then %x
    %t3 = gpu.launch async [%t2] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %v = memref.load %d[%tx] : memref<4xi32>
      %w = arith.addi %v, %x : i32
      memref.store %w, %d[%tx] : memref<4xi32>
      gpu.terminator
    }
    gpu.wait [%t3]
    // synchronous, with dynamic shared memory; an index, a float, and a 2-d memref first used in
    // a nested region
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem {
      %sh = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %i = arith.addi %tx, %c1 : index
      %g = arith.index_cast %i : index to i32
      %h = arith.sitofp %g : i32 to f32
      %p = arith.mulf %h, %f : f32
      %b = arith.cmpi ult, %tx, %c4 : index
      scf.if %b {
        memref.store %p, %e[%bx, %tx] : memref<2x4xf32>
      }
      gpu.terminator
    }
    %t4 = gpu.dealloc async %e : memref<2x4xf32>
    %t5 = gpu.dealloc async [%t4] %d : memref<4xi32>
    gpu.wait [%t5]
    vector.print str "done\n"
    return
  }
}
