// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// Custom forms of ir/custom_std.c: scf.for/if/while/condition, memref
// alloc/alloca/dealloc/copy/dim/global/get_global/extract_aligned_pointer_as_index,
// cf.cond_br/assert, arith.select, math.fma, index constants, casts, cmp, sizeof;
// scf.parallel/reduce/execute_region, memref subview/reinterpret_cast/view/
// expand_shape/collapse_shape/atomic_rmw, cf.switch; memref rank/assume_alignment/
// extract_strided_metadata/generic_atomic_rmw/transpose, scf.index_switch, scf.forall.

module {
  memref.global "private" constant @cst : memref<4xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> {alignment = 64 : i64}
  memref.global @g : memref<2xi32> = uninitialized
  memref.global "private" @h : memref<2xi32>
  memref.global "public" @k : memref<2x2xi32> = dense<7>

  func.func @loops(%lb: index, %ub: index, %st: index, %m: memref<?xf32>, %c: i1, %x: f32, %i: i32) -> f32 {
    scf.for %iv = %lb to %ub step %st {
      memref.store %x, %m[%iv] : memref<?xf32>
    }
    scf.for %iv = %lb to %ub step %st {
      scf.for %jv = %lb to %ub step %st {
      }
      scf.yield
    }
    %s = scf.for %iv = %lb to %ub step %st iter_args(%a = %x) -> (f32) {
      scf.yield %a : f32
    }
    %k = scf.for unsigned %j = %i to %i step %i iter_args(%y = %i) -> (i32) : i32 {
      scf.yield %y : i32
    }
    scf.for %j = %i to %i step %i : i32 {
    } {tag}
    scf.if %c {
      memref.store %x, %m[%lb] : memref<?xf32>
    }
    scf.if %c {
    } else {
    }
    %r = scf.if %c -> (f32) {
      scf.yield %x : f32
    } else {
      scf.yield %s : f32
    } {tag = 1 : i32}
    %w:2 = scf.while (%a = %i, %b = %x) : (i32, f32) -> (i32, f32) {
      %cmp = arith.cmpi slt, %a, %a : i32
      scf.condition(%cmp) %a, %b : i32, f32
    } do {
    ^bb0(%a2: i32, %b2: f32):
      scf.yield %a2, %b2 : i32, f32
    }
    %w2 = scf.while (%a = %i) : (i32) -> i32 {
      scf.condition(%c) %a : i32
    } do {
    ^bb0(%a2: i32):
      scf.yield %a2 : i32
    } attributes {tag}
    scf.while : () -> () {
      scf.condition(%c)
    } do {
      scf.yield
    }
    return %r : f32
  }

  func.func @misc(%m: memref<?xf32>, %c: i1, %x: f32, %v: vector<4xf32>, %vc: vector<4xi1>, %i: i32, %n: index) -> f32 {
    %sel = arith.select %c, %x, %x : f32
    %vsel = arith.select %vc, %v, %v : vector<4xi1>, vector<4xf32>
    %ssel = arith.select %c, %v, %v {tag} : vector<4xf32>
    %fma = math.fma %x, %x, %x fastmath<fast> : f32
    %fma2 = math.fma %x, %x, %x : f32
    %fma3 = math.fma %v, %v, %v fastmath<nnan,ninf> : vector<4xf32>
    %a1 = memref.alloc(%n) : memref<?xf32>
    %a2 = memref.alloc(%n)[%n] {alignment = 64 : i64} : memref<?xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
    %a3 = memref.alloca() : memref<4xf32, 3>
    %a4 = memref.alloca(%n, %n) {alignment = 16 : i64} : memref<?x?xf32>
    memref.dealloc %a1 : memref<?xf32>
    memref.copy %m, %a2 : memref<?xf32> to memref<?xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
    %d = memref.dim %m, %n : memref<?xf32>
    %gg = memref.get_global @cst : memref<4xf32>
    %p = memref.extract_aligned_pointer_as_index %m : memref<?xf32> -> index
    %ic = index.constant 42
    %in = index.constant -3
    %ic2 = index.casts %i : i32 to index
    %ic3 = index.castu %ic : index to i32
    cf.assert %c, "it \"failed\""
    cf.cond_br %c, ^bb1(%x : f32), ^bb2
  ^bb1(%z: f32):
    cf.cond_br %c weights([90, 10]), ^bb2, ^bb1(%z : f32) {tag}
  ^bb2:
    return %x : f32
  }

  func.func @parallel(%lb: index, %ub: index, %st: index, %m: memref<?x?xf32>, %x: f32, %i: i32) -> (f32, i32) {
    scf.parallel (%a, %b) = (%lb, %lb) to (%ub, %ub) step (%st, %st) {
      memref.store %x, %m[%a, %b] : memref<?x?xf32>
    }
    scf.parallel (%a) = (%lb) to (%ub) step (%st) {
      scf.reduce
    } {tag}
    %r:2 = scf.parallel (%a) = (%lb) to (%ub) step (%st) init (%x, %i) -> (f32, i32) {
      scf.reduce(%x, %i : f32, i32) {
      ^bb0(%l: f32, %rr: f32):
        %s = arith.maximumf %l, %rr fastmath<fast> : f32
        scf.reduce.return %s : f32
      }, {
      ^bb0(%l: i32, %rr: i32):
        %s = arith.maxsi %l, %rr : i32
        scf.reduce.return %s : i32
      }
    }
    %e = scf.execute_region -> f32 {
      cf.br ^bb1
    ^bb1:
      scf.yield %x : f32
    }
    %e2:2 = scf.execute_region -> (f32, i32) no_inline {
      scf.yield %x, %i : f32, i32
    } {tag}
    scf.execute_region {
      scf.yield
    }
    return %r#0, %r#1 : f32, i32
  }

  func.func @views(%m: memref<?x?xf32>, %buf: memref<2048xi8>, %n: index, %x: f32, %i: i32, %g: memref<4xi32, 1>) {
    %sv = memref.subview %m[%n, 2] [4, %n] [1, 1] : memref<?x?xf32> to memref<4x?xf32, strided<[?, 1], offset: ?>>
    %sv2 = memref.subview %buf[0] [16] [2] : memref<2048xi8> to memref<16xi8, strided<[2]>>
    %rc = memref.reinterpret_cast %m to offset: [0], sizes: [%n, 4], strides: [4, 1] : memref<?x?xf32> to memref<?x4xf32>
    %rc2 = memref.reinterpret_cast %m to offset: [%n], sizes: [10], strides: [%n] {tag} : memref<?x?xf32> to memref<10xf32, strided<[?], offset: ?>>
    %v = memref.view %buf[%n][%n] : memref<2048xi8> to memref<?x4xf32>
    %v2 = memref.view %buf[%n][] : memref<2048xi8> to memref<8x4xf32>
    %a0 = memref.atomic_rmw addf %x, %m[%n, %n] : (f32, memref<?x?xf32>) -> f32
    %a1 = memref.atomic_rmw addi %i, %g[%n] : (i32, memref<4xi32, 1>) -> i32
    %a2 = memref.atomic_rmw maxs %i, %g[%n] : (i32, memref<4xi32, 1>) -> i32
    %a3 = memref.atomic_rmw xori %i, %g[%n] {tag} : (i32, memref<4xi32, 1>) -> i32
    %a4 = memref.atomic_rmw assign %i, %g[%n] : (i32, memref<4xi32, 1>) -> i32
    %c4 = memref.alloc() : memref<4x8xf32>
    %col = memref.collapse_shape %c4 [[0, 1]] : memref<4x8xf32> into memref<32xf32>
    %ex = memref.expand_shape %col [[0, 1]] output_shape [4, 8] : memref<32xf32> into memref<4x8xf32>
    %d = memref.alloc(%n) : memref<?x8xf32>
    %col2 = memref.collapse_shape %d [[0], [1]] : memref<?x8xf32> into memref<?x8xf32>
    %ex2 = memref.expand_shape %d [[0, 1], [2]] output_shape [%n, 2, 8] : memref<?x8xf32> into memref<?x2x8xf32>
    return
  }

  func.func @switches(%i: i32, %x: f32, %j: i64) -> f32 {
    cf.switch %i : i32, [
      default: ^bb1(%x : f32),
      42: ^bb1(%x : f32),
      -3: ^bb2
    ]
  ^bb1(%z: f32):
    cf.switch %j : i64, [
      default: ^bb2
    ]
  ^bb2:
    cf.switch %i : i32, [
      default: ^bb3,
      7: ^bb3
    ] {tag}
  ^bb3:
    cf.switch %i : i32, [default: ^bb4, 5: ^bb4, 5: ^bb3]
  ^bb4:
    return %x : f32
  }

  func.func @index_leftovers(%a: index, %b: index) -> i1 {
    %t = index.bool.constant true
    %f = index.bool.constant {tag} false
    %k = index.constant {tag} 7
    %d = index.divs %a, %b
    %x = index.xor %d, %b
    %c = index.cmp uge(%a, %x)
    %c2 = index.cmp eq(%a, %b) {tag}
    %s = index.sizeof
    return %c : i1
  }

  func.func @more_memref(%u: memref<*xf32>, %m: memref<?xi32>, %s: memref<?x?xf32, strided<[?, 1], offset: ?>>, %i: index, %v: i32) -> i32 {
    %r = memref.rank %u : memref<*xf32>
    %ts = memref.alloc() : memref<2x3x4xf32>
    %tr = memref.transpose %ts (a, b, c) -> (c, a, b) {tag} : memref<2x3x4xf32> to memref<4x2x3xf32, strided<[1, 12, 4]>>
    %aa = memref.assume_alignment %m, 16 : memref<?xi32>
    %base, %off, %sz:2, %st:2 = memref.extract_strided_metadata %s : memref<?x?xf32, strided<[?, 1], offset: ?>> -> memref<f32>, index, index, index, index, index
    %g = memref.generic_atomic_rmw %m[%i] : memref<?xi32> {
    ^bb0(%cur: i32):
      %n = arith.maxsi %cur, %v : i32
      memref.atomic_yield %n : i32
    }
    %sw = scf.index_switch %i -> i32
    case 2 {
      %c = arith.constant 1 : i32
      scf.yield %c : i32
    }
    case -5 {
      scf.yield %v : i32
    }
    default {
      scf.yield %g : i32
    }
    scf.index_switch %i {tag}
    case 1 {
      scf.yield
    }
    default {
    }
    return %sw : i32
  }

  func.func @forall(%m: memref<8x8xf32>, %v: f32, %t: tensor<8xf32>, %n: index) -> tensor<8xf32> {
    scf.forall (%i, %j) in (8, 8) {
      memref.store %v, %m[%i, %j] : memref<8x8xf32>
    }
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c2 = arith.constant 2 : index
    scf.forall (%i) = (%c0) to (%c8) step (%c2) {
      memref.store %v, %m[%i, %i] : memref<8x8xf32>
    } {mapping = [#gpu.thread<x>]}
    scf.forall (%i, %j) = (0, %n) to (%n, 8) step (1, 2) {
    }
    scf.forall (%i) in (%n) {
      scf.forall.in_parallel {
      }
    }
    %r = scf.forall (%i) in (8) shared_outs(%o = %t) -> (tensor<8xf32>) {
      scf.forall.in_parallel {
      }
    }
    return %r : tensor<8xf32>
  }
}
