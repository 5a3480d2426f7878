// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// scf: for (plain, iter_args, integer induction variable, unsigned), if
// (with and without results and else), while/condition (before/after
// regions with different types), parallel/reduce (with reduction regions),
// execute_region (with several blocks), index_switch, forall.

func.func @loops(%lb: index, %ub: index, %step: index, %m: memref<?xf32>, %init: f32) -> f32 {
  scf.for %i = %lb to %ub step %step {
    memref.store %init, %m[%i] : memref<?xf32>
  }
  %sum = scf.for %i = %lb to %ub step %step iter_args(%acc = %init) -> (f32) {
    %v = memref.load %m[%i] : memref<?xf32>
    %n = arith.addf %acc, %v : f32
    scf.yield %n : f32
  }
  %r:2 = scf.for %i = %lb to %ub step %step iter_args(%a = %init, %b = %lb) -> (f32, index) {
    %b1 = arith.addi %b, %i : index
    scf.yield %a, %b1 : f32, index
  }
  %c0 = arith.constant 0 : i32
  %c10 = arith.constant 10 : i32
  %c1 = arith.constant 1 : i32
  %k = scf.for %j = %c0 to %c10 step %c1 iter_args(%x = %c0) -> (i32) : i32 {
    %y = arith.addi %x, %j : i32
    scf.yield %y : i32
  }
  scf.for unsigned %j = %c0 to %c10 step %c1 : i32 {
  }
  return %sum : f32
}

func.func @branches(%c: i1, %a: i32, %b: i32, %m: memref<1xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  scf.if %c {
    memref.store %a, %m[%c0] : memref<1xi32>
  }
  scf.if %c {
    memref.store %a, %m[%c0] : memref<1xi32>
  } else {
    memref.store %b, %m[%c0] : memref<1xi32>
  }
  %r = scf.if %c -> (i32) {
    scf.yield %a : i32
  } else {
    scf.yield %b : i32
  }
  %p:2 = scf.if %c -> (i32, f32) {
    %f = arith.constant 1.0 : f32
    scf.yield %a, %f : i32, f32
  } else {
    %g = arith.constant 2.0 : f32
    scf.yield %b, %g : i32, f32
  }
  return %r : i32
}

func.func @while_loop(%n: i32) -> (i32, f32) {
  %c0 = arith.constant 0 : i32
  %f0 = arith.constant 0.0 : f32
  %r:2 = scf.while (%i = %c0, %acc = %f0) : (i32, f32) -> (i32, f32) {
    %cond = arith.cmpi slt, %i, %n : i32
    scf.condition(%cond) %i, %acc : i32, f32
  } do {
  ^bb0(%i2: i32, %acc2: f32):
    %c1 = arith.constant 1 : i32
    %next = arith.addi %i2, %c1 : i32
    %one = arith.constant 1.0 : f32
    %acc3 = arith.addf %acc2, %one : f32
    scf.yield %next, %acc3 : i32, f32
  }
  %w = scf.while (%x = %c0) : (i32) -> f32 {
    %t = arith.constant true
    %xf = arith.sitofp %x : i32 to f32
    scf.condition(%t) %xf : f32
  } do {
  ^bb0(%y: f32):
    %yi = arith.fptosi %y : f32 to i32
    scf.yield %yi : i32
  }
  scf.while : () -> () {
    %f = arith.constant false
    scf.condition(%f)
  } do {
    scf.yield
  }
  return %r#0, %r#1 : i32, f32
}

func.func @parallel(%lb: index, %ub: index, %st: index, %m: memref<?x?xf32>) -> (f32, f32) {
  scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %ub) step (%st, %st) {
    %v = memref.load %m[%i, %j] : memref<?x?xf32>
    memref.store %v, %m[%j, %i] : memref<?x?xf32>
    scf.reduce
  }
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %r:2 = scf.parallel (%i) = (%lb) to (%ub) step (%st) init (%zero, %one) -> (f32, f32) {
    %v = memref.load %m[%i, %i] : memref<?x?xf32>
    scf.reduce(%v, %v : f32, f32) {
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      scf.reduce.return %s : f32
    }, {
    ^bb0(%l: f32, %r: f32):
      %p = arith.mulf %l, %r : f32
      scf.reduce.return %p : f32
    }
  }
  return %r#0, %r#1 : f32, f32
}

func.func @regions(%c: i1, %x: index) -> i32 {
  %a = scf.execute_region -> i32 {
    %v = arith.constant 1 : i32
    scf.yield %v : i32
  }
  %b = scf.execute_region -> i32 no_inline {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    %one = arith.constant 1 : i32
    cf.br ^bb3(%one : i32)
  ^bb2:
    %two = arith.constant 2 : i32
    cf.br ^bb3(%two : i32)
  ^bb3(%r: i32):
    scf.yield %r : i32
  }
  scf.execute_region {
    scf.yield
  }
  %s = scf.index_switch %x -> i32
  case 2 {
    %t = arith.constant 20 : i32
    scf.yield %t : i32
  }
  case 5 {
    %t = arith.constant 50 : i32
    scf.yield %t : i32
  }
  default {
    scf.yield %b : i32
  }
  return %s : i32
}

func.func @forall(%m: memref<8x8xf32>, %v: f32) {
  scf.forall (%i, %j) in (8, 8) {
    memref.store %v, %m[%i, %j] : memref<8x8xf32>
  }
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c2 = arith.constant 2 : index
  scf.forall (%i) = (%c0) to (%c8) step (%c2) {
    memref.store %v, %m[%i, %i] : memref<8x8xf32>
  } {mapping = [#gpu.thread<x>]}
  return
}
