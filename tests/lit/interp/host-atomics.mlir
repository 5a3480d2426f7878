// Host atomics upstream's LLVM lowering does not take (atomic_rmw muli/mulf, generic_atomic_rmw):
// the body gets the current value, atomic_yield's value is stored, the result is the old value.
// RUN: %gpuinterp %s | FileCheck %s

func.func private @printF32(f32)
func.func private @printI64(i64)
func.func private @printNewline()

func.func @main() {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %flat = memref.alloc() : memref<12xf32>
  %five = arith.constant 5.0 : f32
  memref.store %five, %flat[%c5] : memref<12xf32>
  // CHECK: 5
  // CHECK-NEXT: 26
  %g = memref.generic_atomic_rmw %flat[%c5] : memref<12xf32> {
  ^bb0(%cur: f32):
    %sq = arith.mulf %cur, %cur : f32
    %one = arith.constant 1.0 : f32
    %nv = arith.addf %sq, %one : f32
    memref.atomic_yield %nv : f32
  }
  call @printF32(%g) : (f32) -> ()
  call @printNewline() : () -> ()
  %gn = memref.load %flat[%c5] : memref<12xf32>
  call @printF32(%gn) : (f32) -> ()
  call @printNewline() : () -> ()
  // CHECK-NEXT: 26
  // CHECK-NEXT: 52
  %two = arith.constant 2.0 : f32
  %m = memref.atomic_rmw mulf %two, %flat[%c5] : (f32, memref<12xf32>) -> f32
  call @printF32(%m) : (f32) -> ()
  call @printNewline() : () -> ()
  %mn = memref.load %flat[%c5] : memref<12xf32>
  call @printF32(%mn) : (f32) -> ()
  call @printNewline() : () -> ()
  // i8 wraps: 100 * 3 = 300 = 44 (mod 256)
  // CHECK-NEXT: 100
  // CHECK-NEXT: 44
  %b = memref.alloc() : memref<1xi8>
  %h = arith.constant 100 : i8
  memref.store %h, %b[%c0] : memref<1xi8>
  %three = arith.constant 3 : i8
  %o = memref.atomic_rmw muli %three, %b[%c0] : (i8, memref<1xi8>) -> i8
  %o64 = arith.extsi %o : i8 to i64
  call @printI64(%o64) : (i64) -> ()
  call @printNewline() : () -> ()
  %n = memref.load %b[%c0] : memref<1xi8>
  %n64 = arith.extsi %n : i8 to i64
  call @printI64(%n64) : (i64) -> ()
  call @printNewline() : () -> ()
  memref.dealloc %flat : memref<12xf32>
  memref.dealloc %b : memref<1xi8>
  return
}
