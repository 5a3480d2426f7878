// vector.print in every form upstream lowers (vectors of every rank, scalars, strings,
// punctuation), and the vector ops that move words: extract/insert with static and dynamic
// positions, broadcast, from_elements, shape_cast, reduction, fma, load/store. Upstream's
// lowering and mlir-runner print the same.
// RUN: %gpuinterp %s > %t.ours
// RUN: %mlir_opt %s --convert-vector-to-scf --convert-scf-to-cf --convert-vector-to-llvm --expand-strided-metadata --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm --reconcile-unrealized-casts | %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 > %t.upstream
// RUN: cmp %t.upstream %t.ours
// RUN: FileCheck %s < %t.ours

func.func @main() {
  // CHECK: ( 1.5, -2, 3.25e+10, 0.1 )
  // CHECK-NEXT: ( ( 1, 2 ), ( 3, -4 ) )
  // CHECK-NEXT: ( 1, 0 )
  // CHECK-NEXT: ( -56, 100 )
  // CHECK-NEXT: 7
  // CHECK-NEXT: 18446744073709551609
  // CHECK-NEXT: 2.5
  // CHECK-NEXT: 2.5
  // CHECK-NEXT: 2.5
  // CHECK-NEXT: 1
  // CHECK-NEXT: -3
  // CHECK-NEXT: ( 1 )
  // CHECK-NEXT: hello
  // CHECK-NEXT: -3, -3(  )
  // CHECK-NEXT: ( 5 )
  // CHECK-NEXT: 5000000000
  %v = arith.constant dense<[1.5, -2.0, 3.25e10, 0.1]> : vector<4xf32>
  vector.print %v : vector<4xf32>
  %w = arith.constant dense<[[1, 2], [3, -4]]> : vector<2x2xi32>
  vector.print %w : vector<2x2xi32>
  %b = arith.constant dense<[true, false]> : vector<2xi1>
  vector.print %b : vector<2xi1>
  %u = arith.constant dense<[200, 100]> : vector<2xi8>
  vector.print %u : vector<2xi8>
  %x = arith.constant 7 : index
  vector.print %x : index
  %m = arith.constant -7 : index
  vector.print %m : index
  %f = arith.constant 2.5 : f64
  vector.print %f : f64
  %h = arith.constant 2.5 : f16
  vector.print %h : f16
  %bf = arith.constant 2.5 : bf16
  vector.print %bf : bf16
  %t = arith.constant true
  vector.print %t : i1
  %i = arith.constant -3 : i32
  vector.print %i : i32
  %e = arith.constant dense<1.0> : vector<1xf32>
  vector.print %e : vector<1xf32>
  vector.print str "hello\n"
  vector.print %i : i32 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %i : i32 punctuation <open>
  vector.print punctuation <close>
  vector.print punctuation <newline>
  %s = arith.constant dense<5> : vector<i32>
  vector.print %s : vector<i32>
  %l = arith.constant 5000000000 : i64
  vector.print %l : i64

  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %m3 = arith.constant dense<[[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]]> : vector<2x3x2xi64>
  // CHECK-NEXT: 10
  // CHECK-NEXT: ( 5, 6 )
  // CHECK-NEXT: ( ( 7, 8 ), ( 9, 10 ), ( 11, 12 ) )
  %x1 = vector.extract %m3[1, 1, 1] : i64 from vector<2x3x2xi64>
  vector.print %x1 : i64
  %x2 = vector.extract %m3[0, %c2] : vector<2xi64> from vector<2x3x2xi64>
  vector.print %x2 : vector<2xi64>
  %x3 = vector.extract %m3[%c1] : vector<3x2xi64> from vector<2x3x2xi64>
  vector.print %x3 : vector<3x2xi64>
  // CHECK-NEXT: ( ( ( 1, 2 ), ( 3, 4 ), ( 5, 6 ) ), ( ( 7, -1 ), ( 0, 0 ), ( 11, 12 ) ) )
  %minus = arith.constant -1 : i64
  %y1 = vector.insert %minus, %m3[1, 0, %c1] : i64 into vector<2x3x2xi64>
  %zz = arith.constant dense<0> : vector<2xi64>
  %y2 = vector.insert %zz, %y1[1, 1] : vector<2xi64> into vector<2x3x2xi64>
  vector.print %y2 : vector<2x3x2xi64>
  // CHECK-NEXT: ( 0.5, 0.5, 0.5 )
  // CHECK-NEXT: ( ( 1, 2 ), ( 1, 2 ), ( 1, 2 ) )
  // CHECK-NEXT: ( ( 1, 1, 1 ), ( 2, 2, 2 ) )
  %half = arith.constant 0.5 : f32
  %bc = vector.broadcast %half : f32 to vector<3xf32>
  vector.print %bc : vector<3xf32>
  %row = arith.constant dense<[1, 2]> : vector<2xi32>
  %bc2 = vector.broadcast %row : vector<2xi32> to vector<3x2xi32>
  vector.print %bc2 : vector<3x2xi32>
  %col = arith.constant dense<[[1], [2]]> : vector<2x1xi32>
  %bc3 = vector.broadcast %col : vector<2x1xi32> to vector<2x3xi32>
  vector.print %bc3 : vector<2x3xi32>
  // CHECK-NEXT: ( 7, -3, 7 )
  // CHECK-NEXT: ( 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 )
  %c7 = arith.constant 7 : i32
  %fe = vector.from_elements %c7, %i, %c7 : vector<3xi32>
  vector.print %fe : vector<3xi32>
  %flat = vector.shape_cast %m3 : vector<2x3x2xi64> to vector<12xi64>
  vector.print %flat : vector<12xi64>
  // CHECK-NEXT: 78, 479001600, 12, 1, 12, 15
  %r1 = vector.reduction <add>, %flat : vector<12xi64> into i64
  %r2 = vector.reduction <mul>, %flat : vector<12xi64> into i64
  %r3 = vector.reduction <maxsi>, %flat : vector<12xi64> into i64
  %r4 = vector.reduction <minui>, %flat : vector<12xi64> into i64
  %r5 = vector.reduction <xor>, %flat : vector<12xi64> into i64
  %r6 = vector.reduction <or>, %flat : vector<12xi64> into i64
  vector.print %r1 : i64 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %r2 : i64 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %r3 : i64 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %r4 : i64 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %r5 : i64 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %r6 : i64
  // CHECK-NEXT: 3.25e+10, 3.25e+10, -2, 3.25e+10
  %q1 = vector.reduction <add>, %v : vector<4xf32> into f32
  %q2 = vector.reduction <maxnumf>, %v : vector<4xf32> into f32
  %q3 = vector.reduction <minimumf>, %v : vector<4xf32> into f32
  %q4 = vector.reduction <maximumf>, %v, %half : vector<4xf32> into f32
  vector.print %q1 : f32 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %q2 : f32 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %q3 : f32 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %q4 : f32
  // CHECK-NEXT: ( 2.75, 4.5, 1.05625e+21, 0.51 )
  %bc4 = vector.broadcast %half : f32 to vector<4xf32>
  %fm = vector.fma %v, %v, %bc4 : vector<4xf32>
  vector.print %fm : vector<4xf32>
  // load and store through a memref, at an offset and through a subview
  // CHECK-NEXT: ( 0, 0, 1.5, -2, 3.25e+10, 0.1, 0, 0 )
  // CHECK-NEXT: ( -2, 3.25e+10 )
  %mem = memref.alloc() : memref<8xf32>
  %zero = arith.constant dense<0.0> : vector<8xf32>
  vector.store %zero, %mem[%c0] : memref<8xf32>, vector<8xf32>
  vector.store %v, %mem[%c2] : memref<8xf32>, vector<4xf32>
  %all = vector.load %mem[%c0] : memref<8xf32>, vector<8xf32>
  vector.print %all : vector<8xf32>
  %sv = memref.subview %mem[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  %mid = vector.load %sv[%c1] : memref<4xf32, strided<[1], offset: 2>>, vector<2xf32>
  vector.print %mid : vector<2xf32>
  memref.dealloc %mem : memref<8xf32>
  return
}
