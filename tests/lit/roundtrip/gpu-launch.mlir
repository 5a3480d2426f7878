// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// gpu.launch: the region form (before outlining): blocks/threads, async
// with dependencies, dynamic_shared_memory_size, workgroup and private
// attributions, clusters, kernel function/module names, and the id ops
// inside the body as well as the launch's own region arguments.

func.func @launch(%m: memref<?xf32>, %n: index, %smem: i32) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %i = arith.muli %bx, %sx : index
    %j = arith.addi %i, %tx : index
    %v = memref.load %m[%j] : memref<?xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %m[%j] : memref<?xf32>
    gpu.terminator
  }
  %t0 = gpu.wait async
  %t1 = gpu.launch async [%t0] blocks(%a, %b, %c) in (%d = %c1, %e = %c1, %f = %c1)
             threads(%g, %h, %i) in (%j = %c4, %k = %c1, %l = %c1)
             dynamic_shared_memory_size %smem {
    %tid = gpu.thread_id x
    gpu.terminator
  }
  gpu.wait [%t1]
  gpu.launch blocks(%a, %b, %c) in (%d = %c1, %e = %c1, %f = %c1)
             threads(%g, %h, %i) in (%j = %c4, %k = %c1, %l = %c1)
             workgroup(%shared : memref<32xf32, #gpu.address_space<workgroup>>)
             private(%priv : memref<1xf32, #gpu.address_space<private>>, %priv2 : memref<2xi32, #gpu.address_space<private>>) {
    %c0 = arith.constant 0 : index
    %x = memref.load %shared[%g] : memref<32xf32, #gpu.address_space<workgroup>>
    memref.store %x, %priv[%c0] : memref<1xf32, #gpu.address_space<private>>
    gpu.barrier
    gpu.terminator
  }
  gpu.launch clusters(%ca, %cb, %cc) in (%cd = %c1, %ce = %c1, %cf = %c1)
             blocks(%a, %b, %c) in (%d = %c1, %e = %c1, %f = %c1)
             threads(%g, %h, %i) in (%j = %c1, %k = %c1, %l = %c1) {
    %cid = gpu.cluster_id x
    %cdim = gpu.cluster_dim y
    %cbid = gpu.cluster_block_id z
    gpu.terminator
  }
  %t2 = gpu.launch async blocks(%a, %b, %c) in (%d = %c1, %e = %c1, %f = %c1)
             threads(%g, %h, %i) in (%j = %c1, %k = %c1, %l = %c1) {
    gpu.terminator
  } {test.launch_attr = 7 : i32}
  gpu.wait [%t2]
  return
}
