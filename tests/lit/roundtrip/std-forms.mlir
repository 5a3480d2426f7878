// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// Custom forms of ir/custom_std.c: scf.for/if/while/condition, memref
// alloc/alloca/dealloc/copy/dim/global/get_global/extract_aligned_pointer_as_index,
// cf.cond_br/assert, arith.select, math.fma, index.constant and index casts.

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
    cf.cond_br %c, ^bb2, ^bb1(%z : f32) {tag}
  ^bb2:
    return %x : f32
  }
}
