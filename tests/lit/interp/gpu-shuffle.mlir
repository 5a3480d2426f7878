// gpu.shuffle xor/up/down/idx with a width and the valid flag: upstream's
// Integration/GPU/CUDA/shuffle.mlir (xor 4 over 13 threads, -1 where the source is invalid), and
// the other modes over 16 threads with width 8. The first kernel branches with cf.cond_br.
// RUN: %gpuinterp %s | FileCheck %s
// CHECK: [4,  5,  6,  7,  0,  1,  2,  3,  12,  -1,  -1,  -1,  8]
// up 3:   a thread below 3 in its segment of 8 has no source
// CHECK: [-1,  -1,  -1,  0,  1,  2,  3,  4,  -1,  -1,  -1,  8,  9,  10,  11,  12]
// down 3: nor a thread above 4
// CHECK: [3,  4,  5,  6,  7,  -1,  -1,  -1,  11,  12,  13,  14,  15,  -1,  -1,  -1]
// idx 5:  every thread reads thread 5 of its segment
// CHECK: [5,  5,  5,  5,  5,  5,  5,  5,  13,  13,  13,  13,  13,  13,  13,  13]

func.func @main() {
  %arg = memref.alloc() : memref<13xf32>
  %dst = memref.cast %arg : memref<13xf32> to memref<?xf32>
  %one = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %sx = memref.dim %dst, %c0 : memref<?xf32>
  %cast_dst = memref.cast %dst : memref<?xf32> to memref<*xf32>
  gpu.host_register %cast_dst : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%grid_x = %one, %grid_y = %one, %grid_z = %one)
             threads(%tx, %ty, %tz) in (%block_x = %sx, %block_y = %one, %block_z = %one) {
    %t0 = arith.index_cast %tx : index to i32
    %val = arith.sitofp %t0 : i32 to f32
    %width = arith.index_cast %block_x : index to i32
    %offset = arith.constant 4 : i32
    %shfl, %valid = gpu.shuffle xor %val, %offset, %width : f32
    cf.cond_br %valid, ^bb1(%shfl : f32), ^bb0
  ^bb0:
    %m1 = arith.constant -1.0 : f32
    cf.br ^bb1(%m1 : f32)
  ^bb1(%value : f32):
    memref.store %value, %dst[%tx] : memref<?xf32>
    gpu.terminator
  }
  call @printMemrefF32(%cast_dst) : (memref<*xf32>) -> ()

  %c16 = arith.constant 16 : index
  %r = gpu.alloc host_shared () : memref<3x16xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%grid_x = %one, %grid_y = %one, %grid_z = %one)
             threads(%tx, %ty, %tz) in (%block_x = %c16, %block_y = %one, %block_z = %one) {
    %v = arith.index_cast %tx : index to i32
    %w = arith.constant 8 : i32
    %o3 = arith.constant 3 : i32
    %o5 = arith.constant 5 : i32
    %m1 = arith.constant -1 : i32
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %up, %upok = gpu.shuffle up %v, %o3, %w : i32
    %dn, %dnok = gpu.shuffle down %v, %o3, %w : i32
    %ix, %ixok = gpu.shuffle idx %v, %o5, %w : i32
    %a = arith.select %upok, %up, %m1 : i32
    %b = arith.select %dnok, %dn, %m1 : i32
    %c = arith.select %ixok, %ix, %m1 : i32
    memref.store %a, %r[%c0, %tx] : memref<3x16xi32>
    memref.store %b, %r[%c1, %tx] : memref<3x16xi32>
    memref.store %c, %r[%c2, %tx] : memref<3x16xi32>
    gpu.terminator
  }
  %s0 = memref.subview %r[0, 0] [1, 16] [1, 1] : memref<3x16xi32> to memref<16xi32, strided<[1]>>
  %s1 = memref.subview %r[1, 0] [1, 16] [1, 1] : memref<3x16xi32> to memref<16xi32, strided<[1], offset: 16>>
  %s2 = memref.subview %r[2, 0] [1, 16] [1, 1] : memref<3x16xi32> to memref<16xi32, strided<[1], offset: 32>>
  %u0 = memref.cast %s0 : memref<16xi32, strided<[1]>> to memref<*xi32>
  %u1 = memref.cast %s1 : memref<16xi32, strided<[1], offset: 16>> to memref<*xi32>
  %u2 = memref.cast %s2 : memref<16xi32, strided<[1], offset: 32>> to memref<*xi32>
  call @printMemrefI32(%u0) : (memref<*xi32>) -> ()
  call @printMemrefI32(%u1) : (memref<*xi32>) -> ()
  call @printMemrefI32(%u2) : (memref<*xi32>) -> ()
  gpu.dealloc %r : memref<3x16xi32>
  return
}

func.func private @printMemrefF32(%ptr : memref<*xf32>)
func.func private @printMemrefI32(%ptr : memref<*xi32>)
