// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// gpu, nvvm and async custom forms: device ids with upper bounds, subgroup
// queries, barrier, shuffle, all_reduce (op and region forms, uniform),
// subgroup_reduce with clusters, printf, nvvm special registers and shfl.sync,
// gpu.func with attributions and known sizes; host alloc (async, host_shared),
// dealloc, memset, host_register, set_default_device, launch_func (async deps,
// stream object, clusters, i32 dims, shared memory, args), launch (clusters,
// attributions, attributes), binary with objects and a handler; async execute
// with token and value dependencies, await of tokens and values.

module attributes {gpu.container_module} {
gpu.module @k {
  gpu.func @f(%a: memref<?xf32>, %n: index) workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>>) private(%pv : memref<1xf32, #gpu.address_space<private>>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = gpu.thread_id x
    %t2 = gpu.thread_id y upper_bound 32
    %b = gpu.block_id z
    %bd = gpu.block_dim x
    %gd = gpu.grid_dim x
    %g = gpu.global_id x
    %l = gpu.lane_id
    %l2 = gpu.lane_id upper_bound 32
    %s = gpu.subgroup_id : index
    %ss = gpu.subgroup_size : index
    %ns = gpu.num_subgroups : index
    gpu.barrier
    %c = arith.constant 1 : i32
    %w32 = arith.constant 32 : i32
    %f = arith.constant 1.0 : f32
    %r, %v = gpu.shuffle xor %f, %c, %w32 : f32
    %r2, %v2 = gpu.shuffle idx %f, %c, %w32 : f32
    %sum = gpu.all_reduce add %f uniform {} : (f32) -> (f32)
    %sum2 = gpu.all_reduce %f {
    ^bb(%lhs : f32, %rhs : f32):
      gpu.yield %lhs : f32
    } : (f32) -> (f32)
    %sr = gpu.subgroup_reduce add %f : (f32) -> f32
    %sr2 = gpu.subgroup_reduce maxnumf %f uniform cluster(size = 4, stride = 2) : (f32) -> f32
    gpu.printf "Hello %d\n", %c : i32
    gpu.printf "Hello"
    %i0 = nvvm.read.ptx.sreg.tid.x : i32
    nvvm.barrier0
    %sh = nvvm.shfl.sync bfly %c, %c, %c, %c : i32 -> i32
    gpu.return
  }
  gpu.func @g() kernel {
    gpu.return
  }
}
  gpu.binary @b [#gpu.object<#nvvm.target, "BLOB">]
  gpu.binary @b2 <#gpu.select_object<1 : i64>> [#gpu.object<#nvvm.target, "A">, #gpu.object<#nvvm.target<chip = "sm_90">, properties = {O = 2 : i32}, "B">]
  func.func @main(%n: index, %t0: !gpu.async.token, %s: i32) {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
      gpu.barrier
      gpu.terminator
    }
    %t = gpu.launch async [%t0] clusters(%cx, %cy, %cz) in (%ccx = %n, %ccy = %n, %ccz = %n) blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) dynamic_shared_memory_size %s workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>>) private(%p : memref<1xf32, #gpu.address_space<private>>) {
      gpu.terminator
    }
    %tk, %v = async.execute -> !async.value<f32> {
      %f = arith.constant 1.0 : f32
      async.yield %f : f32
    }
    %tok, %v2 = async.execute [%tk] (%v as %vv : !async.value<f32>) -> !async.value<f32> {
      async.yield %vv : f32
    }
    %tok0 = async.execute {
      async.yield
    }
    async.await %tok0 : !async.token
    %r = async.await %v2 : !async.value<f32>
    return
  }
  gpu.module @k2 {
    gpu.func @f(%a: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @host(%n: index, %m: memref<?xf32>, %t0: !gpu.async.token, %s: !llvm.ptr, %i: i32) {
    %c1 = arith.constant 1 : index
    %f = arith.constant 1.0 : f32
    %0 = gpu.alloc (%n) : memref<?xf32>
    %1, %t1 = gpu.alloc async [%t0] host_shared (%n) : memref<?xf32>
    %t2 = gpu.dealloc async [%t1] %1 : memref<?xf32>
    gpu.dealloc %0 : memref<?xf32>
    gpu.memset %m, %f : memref<?xf32>, f32
    %t3 = gpu.memset async [%t2] %m, %f : memref<?xf32>, f32
    %u = memref.cast %m : memref<?xf32> to memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    gpu.host_unregister %u : memref<*xf32>
    gpu.set_default_device %i
    gpu.launch_func @k2::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>)
    %t4 = gpu.launch_func async [%t3] @k2::@f clusters in (%c1, %c1, %c1) blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %i args(%m : memref<?xf32>)
    gpu.launch_func <%s : !llvm.ptr> @k2::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>)
    %ci = arith.constant 1 : i32
    gpu.launch_func @k2::@f blocks in (%ci, %ci, %ci) threads in (%ci, %ci, %ci) : i32 args(%m : memref<?xf32>)
    gpu.launch_func @k2::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>) {foo}
    return
  }
  gpu.module @more <#gpu.select_object<0 : i64>> [#nvvm.target] {
    gpu.func @h(%x: f32 {llvm.noundef}, %y: i32) -> f32 workgroup(%w : memref<8xf32, #gpu.address_space<workgroup>>) {
      %ci = gpu.cluster_id x
      %cd = gpu.cluster_dim y upper_bound 4
      %cb = gpu.cluster_block_id z
      %cdb = gpu.cluster_dim_blocks x
      %sm = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %t = nvvm.read.ptx.sreg.tid.x range <i32, 0, 1024> : i32
      %wid = nvvm.read.ptx.sreg.warpid : i32
      %clk = nvvm.read.ptx.sreg.clock64 : i64
      %p = arith.constant true
      %b = nvvm.vote.sync ballot %y, %p -> i32
      %a = nvvm.vote.sync any %y, %p -> i1
      nvvm.bar.warp.sync %y : i32
      %s = nvvm.shfl.sync bfly %y, %x, %y, %y {return_value_and_is_valid} : f32 -> !llvm.struct<(f32, i1)>
      %u, %ok = gpu.shuffle down %x, %y, %y : f32
      %m = gpu.all_reduce maxnumf %x {} : (f32) -> (f32)
      %v = gpu.subgroup_reduce mul %y cluster(size = 8) : (i32) -> i32
      gpu.barrier {tag}
      gpu.return %x : f32
    }
  }
  func.func @more_host(%n: index, %gsize: index) {
    %t0 = async.execute {
      async.yield
    }
    %t1, %v:2 = async.execute [%t0] -> (!async.value<f32>, !async.value<i32>) {
      %a = arith.constant 1.0 : f32
      %b = arith.constant 2 : i32
      async.yield %a, %b : f32, i32
    }
    %g = async.create_group %gsize : !async.group
    %i0 = async.add_to_group %t1, %g : !async.token
    async.await_all %g
    %r = async.await %v#1 : !async.value<i32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) module(@m) function(@f) {
      gpu.terminator {tag}
    }
    %t2 = gpu.wait async
    %t3 = gpu.launch_func async [%t2] @k::@g blocks in (%n, %n, %n) threads in (%n, %n, %n)
    gpu.wait [%t3]
    return
  }
}
