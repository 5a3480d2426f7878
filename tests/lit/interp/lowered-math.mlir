// Math lowered the three ways upstream does it, run by our interpreter and by mlir-runner: to LLVM
// intrinsics (convert-math-to-llvm: exp, tanh, atan2, is.fpclass, abs, ctlz, ...), to libm calls
// (convert-math-to-libm: erff) and to generated functions (convert-math-to-funcs: fpowi, ipowi).
// The high-level form prints the same.

// RUN: %mlir_opt %s --convert-math-to-funcs=convert-ctlz=false --convert-math-to-llvm --convert-math-to-libm --convert-scf-to-cf --convert-vector-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts --mlir-print-op-generic > %t.ll.mlir
// RUN: %gpuinterp %t.ll.mlir > %t.ours
// RUN: %mlir_runner %t.ll.mlir -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 | diff %t.ours -
// RUN: %gpuinterp %s | diff %t.ours -
// RUN: FileCheck %s < %t.ours
// RUN: FileCheck --check-prefix=LOWERED %s < %t.ll.mlir

// LOWERED-DAG: "llvm.intr.tanh"
// LOWERED-DAG: "llvm.intr.is.fpclass"
// LOWERED-DAG: callee = @erff
// LOWERED-DAG: callee = @__mlir_math_fpowi_f64_i32

// CHECK:      0.604368
// CHECK-NEXT: 2.01375
// CHECK-NEXT: 15.625
// CHECK-NEXT: 0
// CHECK-NEXT: 7
// CHECK-NEXT: 30
// CHECK-NEXT: 3
// CHECK-NEXT: 0.677801
// CHECK-NEXT: 0.785398
// CHECK-NEXT: -343
// CHECK-NEXT: 0.530628
// CHECK-NEXT: 0.632456
// CHECK-NEXT: 0.644218

func.func @compute(%x: f32, %d: f64, %i: i32, %n: i32) {
  %a = math.tanh %x : f32
  %b = math.exp %x : f32
  %c = math.fpowi %d, %n : f64, i32
  %e = math.isnan %x : f32
  %f = math.absi %i : i32
  %g = math.ctlz %n : i32
  %h = math.round %d : f64
  %k = math.erf %x : f32
  %l = math.atan2 %x, %x : f32
  %m = math.ipowi %i, %n : i32
  %o = math.log1p %x : f32
  %p = math.rsqrt %d : f64
  %r = math.sin %x : f32
  vector.print %a : f32
  vector.print %b : f32
  vector.print %c : f64
  vector.print %e : i1
  vector.print %f : i32
  vector.print %g : i32
  vector.print %h : f64
  vector.print %k : f32
  vector.print %l : f32
  vector.print %m : i32
  vector.print %o : f32
  vector.print %p : f64
  vector.print %r : f32
  return
}

func.func @main() {
  %x = arith.constant 0.7 : f32
  %d = arith.constant 2.5 : f64
  %i = arith.constant -7 : i32
  %n = arith.constant 3 : i32
  call @compute(%x, %d, %i, %n) : (f32, f64, i32, i32) -> ()
  return
}
