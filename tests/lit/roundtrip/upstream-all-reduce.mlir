// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// In the style of mlir/test/Integration/GPU/CUDA/all-reduce-{and,or,xor,
// max,min,op,region}.mlir: a 2x6 block reduces its elements with each
// all_reduce kind in the op form, and with a region form computing the
// sum, the result written by every thread; plus the multiple-all-reduce
// shape: two reductions of different data in one kernel.

func.func @main() {
  %data = memref.alloc() : memref<2x6xi32>
  %fdata = memref.alloc() : memref<2x6xf32>
  %sum = memref.alloc() : memref<7xi32>
  %fsum = memref.alloc() : memref<3xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index

  %cst0 = arith.constant 0 : i32
  %cst1 = arith.constant 1 : i32
  %cst2 = arith.constant 2 : i32
  %cst4 = arith.constant 4 : i32
  %cst8 = arith.constant 8 : i32
  %cst16 = arith.constant 16 : i32
  %cst3 = arith.constant 3 : i32
  %cst6 = arith.constant 6 : i32
  %cst7 = arith.constant 7 : i32
  %cst10 = arith.constant 10 : i32
  %cst11 = arith.constant 11 : i32

  memref.store %cst0, %data[%c0, %c0] : memref<2x6xi32>
  memref.store %cst1, %data[%c0, %c1] : memref<2x6xi32>
  memref.store %cst2, %data[%c0, %c2] : memref<2x6xi32>
  memref.store %cst4, %data[%c0, %c3] : memref<2x6xi32>
  memref.store %cst8, %data[%c0, %c4] : memref<2x6xi32>
  memref.store %cst16, %data[%c0, %c5] : memref<2x6xi32>
  memref.store %cst2, %data[%c1, %c0] : memref<2x6xi32>
  memref.store %cst3, %data[%c1, %c1] : memref<2x6xi32>
  memref.store %cst6, %data[%c1, %c2] : memref<2x6xi32>
  memref.store %cst7, %data[%c1, %c3] : memref<2x6xi32>
  memref.store %cst10, %data[%c1, %c4] : memref<2x6xi32>
  memref.store %cst11, %data[%c1, %c5] : memref<2x6xi32>

  gpu.launch blocks(%bx, %by, %bz) in (%grid_x = %c1, %grid_y = %c1, %grid_z = %c1)
             threads(%tx, %ty, %tz) in (%block_x = %c6, %block_y = %c2, %block_z = %c1) {
    %val = memref.load %data[%ty, %tx] : memref<2x6xi32>
    %fval = memref.load %fdata[%ty, %tx] : memref<2x6xf32>
    %r_and = gpu.all_reduce and %val uniform {} : (i32) -> (i32)
    %r_or = gpu.all_reduce or %val uniform {} : (i32) -> (i32)
    %r_xor = gpu.all_reduce xor %val uniform {} : (i32) -> (i32)
    %r_max = gpu.all_reduce maxsi %val uniform {} : (i32) -> (i32)
    %r_min = gpu.all_reduce minui %val uniform {} : (i32) -> (i32)
    %r_add = gpu.all_reduce add %val {} : (i32) -> (i32)
    %r_region = gpu.all_reduce %val {
    ^bb(%lhs : i32, %rhs : i32):
      %xor = arith.xori %lhs, %rhs : i32
      "gpu.yield"(%xor) : (i32) -> ()
    } : (i32) -> (i32)
    %f_max = gpu.all_reduce maxnumf %fval uniform {} : (f32) -> (f32)
    %f_min = gpu.all_reduce minimumf %fval {} : (f32) -> (f32)
    %f_add = gpu.all_reduce add %fval {} : (f32) -> (f32)
    memref.store %r_and, %sum[%c0] : memref<7xi32>
    memref.store %r_or, %sum[%c1] : memref<7xi32>
    memref.store %r_xor, %sum[%c2] : memref<7xi32>
    memref.store %r_max, %sum[%c3] : memref<7xi32>
    memref.store %r_min, %sum[%c4] : memref<7xi32>
    memref.store %r_add, %sum[%c5] : memref<7xi32>
    memref.store %r_region, %sum[%c6] : memref<7xi32>
    memref.store %f_max, %fsum[%c0] : memref<3xf32>
    memref.store %f_min, %fsum[%c1] : memref<3xf32>
    memref.store %f_add, %fsum[%c2] : memref<3xf32>
    gpu.terminator
  }

  %any = memref.cast %sum : memref<7xi32> to memref<*xi32>
  call @printMemrefI32(%any) : (memref<*xi32>) -> ()
  %fany = memref.cast %fsum : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%fany) : (memref<*xf32>) -> ()
  return
}

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)
