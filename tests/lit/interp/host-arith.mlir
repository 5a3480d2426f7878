// arith, math and index on the host, scalar and elementwise on vectors, printed with vector.print.
// Upstream's lowering and mlir-runner print the same.
// RUN: %gpuinterp %s > %t.ours
// RUN: %mlir_opt %s --convert-math-to-funcs=convert-ctlz --arith-expand --convert-vector-to-scf --convert-scf-to-cf --convert-vector-to-llvm --convert-math-to-llvm --convert-math-to-libm --convert-index-to-llvm --convert-func-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm --reconcile-unrealized-casts | %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 > %t.upstream
// RUN: cmp %t.upstream %t.ours
// RUN: FileCheck %s < %t.ours

func.func @ints(%a: i32, %b: i32) {
  %s, %o = arith.addui_extended %a, %b : i32, i1
  %l, %h = arith.mulsi_extended %a, %b : i32
  %ul, %uh = arith.mului_extended %a, %b : i32
  vector.print %s : i32 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %o : i1 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %l : i32 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %h : i32 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %ul : i32 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %uh : i32 punctuation <no_punctuation>
  vector.print punctuation <comma>
  %c0 = math.ctlz %a : i32
  %c1 = math.cttz %a : i32
  %c2 = math.ctpop %a : i32
  %c3 = math.absi %a : i32
  vector.print %c0 : i32 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %c1 : i32 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %c2 : i32 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %c3 : i32
  return
}

func.func @main() {
  // sum, carry, mulsi low/high, mului low/high, ctlz, cttz, ctpop, absi
  // CHECK: 2, 1, -3, -1, -3, 2, 0, 0, 32, 1
  // CHECK-NEXT: 0, 0, 0, 0, 0, 0, 32, 32, 0, 0
  // CHECK-NEXT: -1589934592, 0, -329777152, 396983861, -329777152, 396983861, 2, 9, 13, 1000000000
  // CHECK-NEXT: -2147483647, 0, -2147483648, -1, -2147483648, 0, 0, 31, 1, -2147483648
  %m1 = arith.constant -1 : i32
  %p3 = arith.constant 3 : i32
  %z = arith.constant 0 : i32
  %big = arith.constant 1000000000 : i32
  %bigger = arith.constant 1705032704 : i32
  %min = arith.constant -2147483648 : i32
  %one = arith.constant 1 : i32
  call @ints(%m1, %p3) : (i32, i32) -> ()
  call @ints(%z, %z) : (i32, i32) -> ()
  call @ints(%big, %bigger) : (i32, i32) -> ()
  call @ints(%min, %one) : (i32, i32) -> ()

  // ipowi, fpowi, float classes
  // CHECK-NEXT: 243, -8, 0, 1, -1
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %cm2 = arith.constant -2 : i32
  %cm3 = arith.constant -3 : i32
  %p1 = math.ipowi %c3, %c5 : i32
  %p2 = math.ipowi %cm2, %c3 : i32
  %p3b = math.ipowi %c3, %cm2 : i32
  %p4 = math.ipowi %one, %cm3 : i32
  %p5 = math.ipowi %m1, %cm3 : i32
  vector.print %p1 : i32 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %p2 : i32 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %p3b : i32 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %p4 : i32 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %p5 : i32
  // CHECK-NEXT: 0.125
  %two = arith.constant 2.0 : f32
  %fp = math.fpowi %two, %cm3 : f32, i32
  vector.print %fp : f32

  // elementwise on vectors
  // CHECK-NEXT: ( 1.5, 3, 4.5, 6 )
  // CHECK-NEXT: ( 1, 1.41421, 1.73205, 2 )
  // CHECK-NEXT: ( 0, 1, 1, 1 )
  // CHECK-NEXT: ( 1, 2, 3, 4 )
  // CHECK-NEXT: ( 1.5, 2, 4.5, 4 )
  %v = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
  %h = arith.constant dense<1.5> : vector<4xf32>
  %vm = arith.mulf %v, %h : vector<4xf32>
  vector.print %vm : vector<4xf32>
  %vs = math.sqrt %v : vector<4xf32>
  vector.print %vs : vector<4xf32>
  %cmp = arith.cmpf ogt, %v, %h : vector<4xf32>
  vector.print %cmp : vector<4xi1>
  %vi = arith.fptosi %v : vector<4xf32> to vector<4xi32>
  vector.print %vi : vector<4xi32>
  %odd = arith.constant dense<[true, false, true, false]> : vector<4xi1>
  %sel = arith.select %odd, %vm, %v : vector<4xi1>, vector<4xf32>
  vector.print %sel : vector<4xf32>
  // CHECK-NEXT: ( ( 2, 4 ), ( 6, 8 ) )
  // CHECK-NEXT: ( ( 36, 35 ), ( 0, 40 ) )
  %w = arith.constant dense<[[1, 2], [3, 4]]> : vector<2x2xi8>
  %w2 = arith.addi %w, %w : vector<2x2xi8>
  vector.print %w2 : vector<2x2xi8>
  %wl = math.ctlz %w2 : vector<2x2xi8>
  %odd2 = arith.constant dense<[[true, true], [false, true]]> : vector<2x2xi1>
  %wy = arith.extui %wl : vector<2x2xi8> to vector<2x2xi32>
  %wz = arith.addi %wy, %wy : vector<2x2xi32>
  %wc = arith.constant dense<[[24, 25], [-8, 32]]> : vector<2x2xi32>
  %wr = arith.addi %wz, %wc : vector<2x2xi32>
  %wm = arith.maxsi %wr, %wz : vector<2x2xi32>
  %zero4 = arith.constant dense<0> : vector<2x2xi32>
  %wq = arith.select %odd2, %wm, %zero4 : vector<2x2xi1>, vector<2x2xi32>
  vector.print %wq : vector<2x2xi32>

  // index
  // CHECK-NEXT: 64, 7, 1, 18446744073709551614
  %sz = index.sizeof
  %ia = index.constant 22
  %ib = index.constant 3
  %iq = index.divs %ia, %ib
  %ir = index.remu %ia, %ib
  %ineg = index.constant -2
  vector.print %sz : index punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %iq : index punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %ir : index punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %ineg : index
  // CHECK-NEXT: 1, 0, 1, 1, 0
  %nan = arith.constant 0x7FC00000 : f32
  %inf = arith.constant 0x7F800000 : f32
  %tiny = arith.constant 1.0e-40 : f32
  %a1 = math.isnan %nan : f32
  %a2 = math.isnan %inf : f32
  %a3 = math.isinf %inf : f32
  %a4 = math.isfinite %tiny : f32
  %a5 = math.isnormal %tiny : f32
  vector.print %a1 : i1 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %a2 : i1 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %a3 : i1 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %a4 : i1 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %a5 : i1
  // CHECK-NEXT: 0.523599, 1.0472, 1.1752, 1.54308, 0.881374, 0.549306, 0.157299
  %half = arith.constant 0.5 : f64
  %onef = arith.constant 1.0 : f64
  %f1 = math.asin %half : f64
  %f2 = math.acos %half : f64
  %f3 = math.sinh %onef : f64
  %f4 = math.cosh %onef : f64
  %f5 = math.asinh %onef : f64
  %f6 = math.atanh %half : f64
  %f7 = math.erfc %onef : f64
  vector.print %f1 : f64 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %f2 : f64 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %f3 : f64 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %f4 : f64 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %f5 : f64 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %f6 : f64 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %f7 : f64
  return
}
