// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// gpu.module and gpu.func: kernels and device functions, workgroup and
// private attributions, known block/grid sizes, every id op, barrier,
// shuffle (xor/up/down/idx), all_reduce (op and region forms, uniform),
// subgroup_reduce (incl. cluster), printf, func.call of a device function,
// gpu.module targets and offloading handler.

module attributes {gpu.container_module} {
  gpu.module @device_ops [#nvvm.target<chip = "sm_80">] {
    gpu.func @ids(%out: memref<?xindex>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %dz = gpu.block_dim z
      %gx = gpu.grid_dim x
      %gy = gpu.grid_dim y
      %gz = gpu.grid_dim z
      %lane = gpu.lane_id
      %sg = gpu.subgroup_id : index
      %nsg = gpu.num_subgroups : index
      %sgs = gpu.subgroup_size : index
      %gid = gpu.global_id x
      %txb = gpu.thread_id x upper_bound 128
      %lane2 = gpu.lane_id upper_bound 32
      memref.store %tx, %out[%bx] : memref<?xindex>
      gpu.return
    }

    gpu.func @attributions(%m: memref<?xf32>) workgroup(%ws : memref<32xf32, #gpu.address_space<workgroup>>, %wi : memref<4xi32, #gpu.address_space<workgroup>>) private(%p : memref<1xf32, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %tx = gpu.thread_id x
      %v = memref.load %m[%tx] : memref<?xf32>
      memref.store %v, %ws[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %ws[%c0] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %w, %p[%c0] : memref<1xf32, #gpu.address_space<private>>
      gpu.return
    }

    gpu.func @known_sizes() kernel attributes {known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 4, 1, 1>} {
      gpu.return
    }

    gpu.func @shuffles(%x: f32, %i: i32, %out: memref<?xf32>) kernel {
      %off = arith.constant 1 : i32
      %width = arith.constant 32 : i32
      %r0, %v0 = gpu.shuffle xor %x, %off, %width : f32
      %r1, %v1 = gpu.shuffle up %x, %off, %width : f32
      %r2, %v2 = gpu.shuffle down %i, %off, %width : i32
      %r3, %v3 = gpu.shuffle idx %x, %off, %width : f32
      %c0 = arith.constant 0 : index
      memref.store %r0, %out[%c0] : memref<?xf32>
      gpu.return
    }

    gpu.func @reductions(%x: f32, %i: i32) kernel {
      %0 = gpu.all_reduce add %x {} : (f32) -> f32
      %1 = gpu.all_reduce mul %x uniform {} : (f32) -> f32
      %2 = gpu.all_reduce minnumf %x {} : (f32) -> f32
      %3 = gpu.all_reduce maximumf %x {} : (f32) -> f32
      %4 = gpu.all_reduce and %i {} : (i32) -> i32
      %5 = gpu.all_reduce or %i {} : (i32) -> i32
      %6 = gpu.all_reduce xor %i {} : (i32) -> i32
      %7 = gpu.all_reduce minsi %i {} : (i32) -> i32
      %8 = gpu.all_reduce maxui %i {} : (i32) -> i32
      %9 = gpu.all_reduce %x {
      ^bb(%lhs : f32, %rhs : f32):
        %s = arith.addf %lhs, %rhs : f32
        gpu.yield %s : f32
      } : (f32) -> (f32)
      %10 = gpu.all_reduce %i uniform {
      ^bb(%lhs : i32, %rhs : i32):
        %s = arith.maxsi %lhs, %rhs : i32
        gpu.yield %s : i32
      } : (i32) -> (i32)
      %11 = gpu.subgroup_reduce add %x : (f32) -> f32
      %12 = gpu.subgroup_reduce maxsi %i uniform : (i32) -> i32
      %13 = gpu.subgroup_reduce add %x cluster(size = 4) : (f32) -> f32
      %14 = gpu.subgroup_reduce mul %x cluster(size = 8, stride = 2) : (f32) -> f32
      gpu.return
    }

    gpu.func @print(%x: f32, %i: i32) kernel {
      gpu.printf "Hello\n"
      gpu.printf "x = %f, i = %d\n", %x, %i : f32, i32
      gpu.printf "quote \" tab \t backslash \\ done\n"
      gpu.return
    }

    gpu.func @device_fn(%a: f32) -> f32 {
      %b = arith.mulf %a, %a : f32
      gpu.return %b : f32
    }

    func.func @plain_device_fn(%a: i32) -> i32 {
      return %a : i32
    }

    gpu.func @calls(%a: f32, %i: i32) kernel {
      %r = func.call @plain_device_fn(%i) : (i32) -> i32
      gpu.return
    }
  }

  gpu.module @empty_module {
  }

  gpu.module @with_handler <#gpu.select_object<0>> [#nvvm.target, #rocdl.target<chip = "gfx90a">] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
