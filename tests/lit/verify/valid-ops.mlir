// Forms the checks of ir/verify_ops.c must let through: both tools accept them.
// RUN: %mlir_opt %s -o /dev/null
// RUN: %gpuinterp --emit=mlir %s -o /dev/null

func.func @ok_ops(%a: vector<4xf32>, %m: memref<?x4xf32>, %n: index, %i: i32, %f: f32) {
  %r = vector.broadcast %a : vector<4xf32> to vector<2x4xf32>
  %s = vector.broadcast %f : f32 to vector<4xf32>
  %c = memref.cast %m : memref<?x4xf32> to memref<*xf32>
  %d = memref.cast %c : memref<*xf32> to memref<3x4xf32>
  %e = arith.extf %a : vector<4xf32> to vector<4xf64>
  %g = arith.index_cast %n : index to i32
  %h = arith.bitcast %i : i32 to f32
  %k = arith.fptosi %f : f32 to i64
  %l = arith.uitofp %i : i32 to f16
  %sc = vector.shape_cast %a : vector<4xf32> to vector<2x2xf32>
  %bc = vector.bitcast %a : vector<4xf32> to vector<8xf16>
  %cm = vector.constant_mask [2] : vector<4xi1>
  %mk = vector.create_mask %n : vector<i1>
  %x = vector.extract %r[1] : vector<4xf32> from vector<2x4xf32>
  %y = vector.extract %r[%n, 3] : f32 from vector<2x4xf32>
  %z = vector.insert %y, %r[0, %n] : f32 into vector<2x4xf32>
  %p = vector.extract %r[-1, 0] : f32 from vector<2x4xf32>
  %t = vector.transpose %r, [1, 0] : vector<2x4xf32> to vector<4x2xf32>
  %ss = vector.extract_strided_slice %r {offsets = [1], sizes = [1], strides = [1]} : vector<2x4xf32> to vector<1x4xf32>
  %is = vector.insert_strided_slice %a, %r {offsets = [1, 0], strides = [1]} : vector<4xf32> into vector<2x4xf32>
  %a2 = memref.alloc(%n) : memref<?x4xf32>
  %v = memref.load %a2[%n, %n] : memref<?x4xf32>
  memref.store %v, %a2[%n, %n] : memref<?x4xf32>
  %vl = vector.load %a2[%n, %n] : memref<?x4xf32>, vector<4xf32>
  %sv = memref.subview %a2[0, 0][2, 4][1, 1] : memref<?x4xf32> to memref<2x4xf32, strided<[4, 1]>>
  %rc = memref.reinterpret_cast %a2 to offset: [0], sizes: [8], strides: [1] : memref<?x4xf32> to memref<8xf32>
  %tr = memref.transpose %sv (i, j) -> (j, i) : memref<2x4xf32, strided<[4, 1]>> to memref<4x2xf32, strided<[1, 4]>>
  %ra = vector.reduction <add>, %a : vector<4xf32> into f32
  %rm = vector.reduction <maximumf>, %a : vector<4xf32> into f32
  %vi = vector.broadcast %i : i32 to vector<4xi32>
  %rx = vector.reduction <xor>, %vi : vector<4xi32> into i32
  %rs = vector.reduction <maxsi>, %vi : vector<4xi32> into i32
  memref.dealloc %a2 : memref<?x4xf32>
  return
}
