// gpu.all_reduce with every operation on i32 and f32 (two blocks of six threads, one row of data
// each), the region form (upstream's all-reduce-region.mlir: xor of 0..34 over 35 threads), several
// reductions in one kernel (multiple-all-reduce.mlir) and gpu.subgroup_reduce with clusters.
// RUN: %gpuinterp %s | FileCheck %s
// RUN: %gpuinterp --sched=random:3 %s | FileCheck %s
// CHECK: rank = 2 offset = 0 sizes = [9, 2]
// CHECK-NEXT: {{\[\[}}31,   33],
// CHECK-NEXT:  [0,   -27720],
// CHECK-NEXT:  [0,   -3],
// CHECK-NEXT:  [0,   2],
// CHECK-NEXT:  [16,   11],
// CHECK-NEXT:  [16,   -3],
// CHECK-NEXT:  [0,   0],
// CHECK-NEXT:  [31,   -1],
// CHECK-NEXT:  [31,   -1]]
// CHECK: rank = 2 offset = 0 sizes = [6, 2]
// CHECK-NEXT: {{\[\[}}31,   33],
// CHECK-NEXT:  [0,   -27720],
// CHECK-NEXT:  [0,   -3],
// CHECK-NEXT:  [16,   11],
// CHECK-NEXT:  [0,   -3],
// CHECK-NEXT:  [16,   11]]
// CHECK: {{\[}}35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35,  35]
// subgroup_reduce add over 40 threads: warps of 32 (sums of 0..31 and 32..39), then clusters
// of 4 consecutive threads, then clusters of 2 at stride 4
// CHECK: {{\[\[}}496,   496,
// CHECK-SAME: 496,   284,   284,   284,   284,   284,   284,   284,   284],
// CHECK-NEXT: [6,   6,   6,   6,   22,   22,
// CHECK-NEXT: [4,   6,   8,   10,   4,   6,   8,   10,   20,

memref.global "private" constant @rows : memref<2x6xi32> = dense<[[0, 1, 2, 4, 8, 16], [2, -3, 6, 7, 10, 11]]>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %rows = memref.get_global @rows : memref<2x6xi32>
  %data = gpu.alloc () : memref<2x6xi32>
  gpu.memcpy %data, %rows : memref<2x6xi32>, memref<2x6xi32>
  %ri = gpu.alloc host_shared () : memref<9x2xi32>
  %rf = gpu.alloc host_shared () : memref<6x2xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c6, %sy = %c1, %sz = %c1) {
    %v = memref.load %data[%bx, %tx] : memref<2x6xi32>
    %f = arith.sitofp %v : i32 to f32
    %i0 = gpu.all_reduce add %v uniform {} : (i32) -> (i32)
    %k0 = arith.constant 0 : index
    memref.store %i0, %ri[%k0, %bx] : memref<9x2xi32>
    %i1 = gpu.all_reduce mul %v uniform {} : (i32) -> (i32)
    %k1 = arith.constant 1 : index
    memref.store %i1, %ri[%k1, %bx] : memref<9x2xi32>
    %i2 = gpu.all_reduce minsi %v uniform {} : (i32) -> (i32)
    %k2 = arith.constant 2 : index
    memref.store %i2, %ri[%k2, %bx] : memref<9x2xi32>
    %i3 = gpu.all_reduce minui %v uniform {} : (i32) -> (i32)
    %k3 = arith.constant 3 : index
    memref.store %i3, %ri[%k3, %bx] : memref<9x2xi32>
    %i4 = gpu.all_reduce maxsi %v uniform {} : (i32) -> (i32)
    %k4 = arith.constant 4 : index
    memref.store %i4, %ri[%k4, %bx] : memref<9x2xi32>
    %i5 = gpu.all_reduce maxui %v uniform {} : (i32) -> (i32)
    %k5 = arith.constant 5 : index
    memref.store %i5, %ri[%k5, %bx] : memref<9x2xi32>
    %i6 = gpu.all_reduce and %v uniform {} : (i32) -> (i32)
    %k6 = arith.constant 6 : index
    memref.store %i6, %ri[%k6, %bx] : memref<9x2xi32>
    %i7 = gpu.all_reduce or %v uniform {} : (i32) -> (i32)
    %k7 = arith.constant 7 : index
    memref.store %i7, %ri[%k7, %bx] : memref<9x2xi32>
    %i8 = gpu.all_reduce xor %v uniform {} : (i32) -> (i32)
    %k8 = arith.constant 8 : index
    memref.store %i8, %ri[%k8, %bx] : memref<9x2xi32>
    %f0 = gpu.all_reduce add %f {} : (f32) -> (f32)
    %g0 = arith.constant 0 : index
    memref.store %f0, %rf[%g0, %bx] : memref<6x2xf32>
    %f1 = gpu.all_reduce mul %f {} : (f32) -> (f32)
    %g1 = arith.constant 1 : index
    memref.store %f1, %rf[%g1, %bx] : memref<6x2xf32>
    %f2 = gpu.all_reduce minnumf %f {} : (f32) -> (f32)
    %g2 = arith.constant 2 : index
    memref.store %f2, %rf[%g2, %bx] : memref<6x2xf32>
    %f3 = gpu.all_reduce maxnumf %f {} : (f32) -> (f32)
    %g3 = arith.constant 3 : index
    memref.store %f3, %rf[%g3, %bx] : memref<6x2xf32>
    %f4 = gpu.all_reduce minimumf %f {} : (f32) -> (f32)
    %g4 = arith.constant 4 : index
    memref.store %f4, %rf[%g4, %bx] : memref<6x2xf32>
    %f5 = gpu.all_reduce maximumf %f {} : (f32) -> (f32)
    %g5 = arith.constant 5 : index
    memref.store %f5, %rf[%g5, %bx] : memref<6x2xf32>
    gpu.terminator
  }
  %ui = memref.cast %ri : memref<9x2xi32> to memref<*xi32>
  call @printMemrefI32(%ui) : (memref<*xi32>) -> ()
  %uf = memref.cast %rf : memref<6x2xf32> to memref<*xf32>
  call @printMemrefF32(%uf) : (memref<*xf32>) -> ()

  %arg = memref.alloc() : memref<35xf32>
  %dst = memref.cast %arg : memref<35xf32> to memref<?xf32>
  %sx = memref.dim %dst, %c0 : memref<?xf32>
  %cast_dst = memref.cast %dst : memref<?xf32> to memref<*xf32>
  gpu.host_register %cast_dst : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%grid_x = %c1, %grid_y = %c1, %grid_z = %c1)
             threads(%tx, %ty, %tz) in (%block_x = %sx, %block_y = %c1, %block_z = %c1) {
    %val = arith.index_cast %tx : index to i32
    %xor = gpu.all_reduce %val uniform {
    ^bb(%lhs : i32, %rhs : i32):
      %xor = arith.xori %lhs, %rhs : i32
      "gpu.yield"(%xor) : (i32) -> ()
    } : (i32) -> (i32)
    %res = arith.sitofp %xor : i32 to f32
    memref.store %res, %dst[%tx] : memref<?xf32>
    gpu.terminator
  }
  call @printMemrefF32(%cast_dst) : (memref<*xf32>) -> ()

  %c40 = arith.constant 40 : index
  %rs = gpu.alloc host_shared () : memref<3x40xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%grid_x = %c1, %grid_y = %c1, %grid_z = %c1)
             threads(%tx, %ty, %tz) in (%block_x = %c40, %block_y = %c1, %block_z = %c1) {
    %val = arith.index_cast %tx : index to i32
    %a = gpu.subgroup_reduce add %val : (i32) -> (i32)
    %b = gpu.subgroup_reduce add %val cluster(size = 4) : (i32) -> (i32)
    %c = gpu.subgroup_reduce add %val cluster(size = 2, stride = 4) : (i32) -> (i32)
    memref.store %a, %rs[%c0, %tx] : memref<3x40xi32>
    memref.store %b, %rs[%c1, %tx] : memref<3x40xi32>
    memref.store %c, %rs[%c2, %tx] : memref<3x40xi32>
    gpu.terminator
  }
  %us = memref.cast %rs : memref<3x40xi32> to memref<*xi32>
  call @printMemrefI32(%us) : (memref<*xi32>) -> ()
  gpu.dealloc %data : memref<2x6xi32>
  gpu.dealloc %ri : memref<9x2xi32>
  gpu.dealloc %rf : memref<6x2xf32>
  gpu.dealloc %rs : memref<3x40xi32>
  return
}

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)
