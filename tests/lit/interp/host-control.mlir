// Host control flow: scf.parallel with scf.reduce (run in row-major order), scf.forall on the host,
// scf.index_switch and cf.switch. Upstream's lowering and mlir-runner print the same.
// RUN: %gpuinterp %s > %t.ours
// RUN: %mlir_opt %s --scf-forall-to-parallel --convert-scf-to-cf --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts | %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 > %t.upstream
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' %t.ours > %t.ours.norm
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' %t.upstream > %t.upstream.norm
// RUN: cmp %t.upstream.norm %t.ours.norm
// RUN: FileCheck %s < %t.ours

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printI64(i64)
func.func private @printF32(f32)
func.func private @printComma()
func.func private @printNewline()

func.func @classify(%x: i8) -> i64 {
  cf.switch %x : i8, [
    default: ^other(%x : i8),
    -1: ^neg,
    7: ^seven,
    42: ^same(%x, %x : i8, i8)
  ]
^other(%o: i8):
  %r = arith.extsi %o : i8 to i64
  %c1000 = arith.constant 1000 : i64
  %s = arith.addi %r, %c1000 : i64
  return %s : i64
^neg:
  %m = arith.constant -100 : i64
  return %m : i64
^seven:
  %sv = arith.constant 70 : i64
  return %sv : i64
^same(%a: i8, %b: i8):
  %ab = arith.addi %a, %b : i8
  %r2 = arith.extsi %ab : i8 to i64
  return %r2 : i64
}

func.func @pick(%i: index) -> i64 {
  %r = scf.index_switch %i -> i64
  case 0 {
    %c = arith.constant 10 : i64
    scf.yield %c : i64
  }
  case 5 {
    %c = arith.constant 50 : i64
    scf.yield %c : i64
  }
  default {
    %c = arith.constant -1 : i64
    scf.yield %c : i64
  }
  return %r : i64
}

func.func @print(%x: i64) {
  call @printI64(%x) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %m = memref.alloc() : memref<3x4xi32>

  // a 2-D parallel loop writing every cell (step 1 and 2), then a row-major fill order check
  // CHECK: {{\[\[}}0,   1,   2,   3],
  // CHECK-NEXT:  [10,   11,   12,   13],
  // CHECK-NEXT:  [20,   -1,   22,   -1]]
  scf.parallel (%i, %j) = (%c0, %c0) to (%c3, %c4) step (%c1, %c1) {
    %c10 = arith.constant 10 : index
    %a = arith.muli %i, %c10 : index
    %b = arith.addi %a, %j : index
    %v = arith.index_cast %b : index to i32
    memref.store %v, %m[%i, %j] : memref<3x4xi32>
  }
  scf.parallel (%j) = (%c1) to (%c4) step (%c2) {
    %neg = arith.constant -1 : i32
    memref.store %neg, %m[%c2, %j] : memref<3x4xi32>
  }
  %um = memref.cast %m : memref<3x4xi32> to memref<*xi32>
  call @printMemrefI32(%um) : (memref<*xi32>) -> ()

  // two reductions at once: sum and max over the matrix
  // CHECK-NEXT: 92
  // CHECK-NEXT: 22
  %zero = arith.constant 0 : i64
  %lo = arith.constant -1000 : i64
  %sum, %max = scf.parallel (%i, %j) = (%c0, %c0) to (%c3, %c4) step (%c1, %c1) init (%zero, %lo) -> (i64, i64) {
    %v = memref.load %m[%i, %j] : memref<3x4xi32>
    %w = arith.extsi %v : i32 to i64
    scf.reduce(%w, %w : i64, i64) {
    ^bb0(%l: i64, %r: i64):
      %s = arith.addi %l, %r : i64
      scf.reduce.return %s : i64
    }, {
    ^bb0(%l: i64, %r: i64):
      %s = arith.maxsi %l, %r : i64
      scf.reduce.return %s : i64
    }
  }
  call @print(%sum) : (i64) -> ()
  call @print(%max) : (i64) -> ()

  // an empty iteration space yields the init
  // CHECK-NEXT: 2.5
  %init = arith.constant 2.5 : f32
  %e = scf.parallel (%i) = (%c3) to (%c1) step (%c1) init (%init) -> f32 {
    %one = arith.constant 1.0 : f32
    scf.reduce(%one : f32) {
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      scf.reduce.return %s : f32
    }
  }
  call @printF32(%e) : (f32) -> ()
  call @printNewline() : () -> ()

  // scf.forall on the host: clear the upper-left 2x2 block
  // CHECK-NEXT: Unranked
  // CHECK-NEXT: {{\[\[}}7,   7,   2,   3],
  // CHECK-NEXT:  [7,   7,   12,   13],
  // CHECK-NEXT:  [20,   -1,   22,   -1]]
  scf.forall (%i, %j) in (2, 2) {
    %seven = arith.constant 7 : i32
    memref.store %seven, %m[%i, %j] : memref<3x4xi32>
  }
  call @printMemrefI32(%um) : (memref<*xi32>) -> ()

  // CHECK-NEXT: 10
  // CHECK-NEXT: 50
  // CHECK-NEXT: -1
  %p0 = call @pick(%c0) : (index) -> i64
  call @print(%p0) : (i64) -> ()
  %c5 = arith.constant 5 : index
  %p5 = call @pick(%c5) : (index) -> i64
  call @print(%p5) : (i64) -> ()
  %p3 = call @pick(%c3) : (index) -> i64
  call @print(%p3) : (i64) -> ()

  // cf.switch on i8: -1 (matches case -1, written 255 in no form), 7, 42 (42 + 42 wraps), default
  // CHECK-NEXT: -100
  // CHECK-NEXT: 70
  // CHECK-NEXT: 84
  // CHECK-NEXT: 1003
  %xm1 = arith.constant -1 : i8
  %x7 = arith.constant 7 : i8
  %x42 = arith.constant 42 : i8
  %x3 = arith.constant 3 : i8
  %r1 = call @classify(%xm1) : (i8) -> i64
  call @print(%r1) : (i64) -> ()
  %r2 = call @classify(%x7) : (i8) -> i64
  call @print(%r2) : (i64) -> ()
  %r3 = call @classify(%x42) : (i8) -> i64
  call @print(%r3) : (i64) -> ()
  %r4 = call @classify(%x3) : (i8) -> i64
  call @print(%r4) : (i64) -> ()
  memref.dealloc %m : memref<3x4xi32>
  return
}
