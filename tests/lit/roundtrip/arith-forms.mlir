// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// The forms of ir/custom_arith.c: extended arith, casts with overflow, rounding
// and fastmath clauses, the scaling casts, the math ops beyond the common ones,
// func.constant and func.call_indirect, and the vector ops GPU tests use
// (vector.print in all its spellings, extract/insert with static and dynamic
// positions, load/store, from_elements, reduction, fma, step, broadcast,
// shuffle, masks, masked and gather/scatter accesses, transfer_read/write
// with default and explicit permutation maps, in_bounds and inferred masks,
// reductions, scans, outer products and contractions).

#map0 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>

func.func @extended(%a: i32, %b: i32, %v: vector<4xi64>, %t: i1) {
  %0:2 = arith.addui_extended %a, %b : i32, i1
  %1:2 = arith.addui_extended %v, %v {x.tag} : vector<4xi64>, vector<4xi1>
  %2:2 = arith.addui_extended %t, %t : i1, i1
  %3:2 = arith.mulsi_extended %a, %b : i32
  %4:2 = arith.mului_extended %v, %v : vector<4xi64>
  %5:2 = "arith.mulsi_extended"(%a, %b) : (i32, i32) -> (i32, i32)
  %6 = arith.addi %0#0, %3#1 : i32
  %7 = arith.andi %0#1, %2#1 : i1
  return
}

func.func @casts(%i: i32, %f: f32, %h: f16, %d: f64, %v: vector<4xf32>,
                 %s: vector<4xf8E8M0FNU>, %q: vector<4xf4E2M1FN>) {
  %0 = arith.trunci %i : i32 to i8
  %1 = arith.trunci %i overflow<nsw, nuw> : i32 to i16
  %2 = "arith.trunci"(%i) <{overflowFlags = #arith.overflow<none>}> : (i32) -> i8
  %3 = arith.extf %h : f16 to f32
  %4 = arith.extf %f fastmath<nnan,ninf> : f32 to f64
  %5 = arith.truncf %d : f64 to f32
  %6 = arith.truncf %d to_nearest_even : f64 to f32
  %7 = arith.truncf %d downward : f64 to f16
  %8 = arith.truncf %d upward fastmath<fast> : f64 to bf16
  %9 = arith.truncf %f toward_zero : f32 to f16
  %10 = arith.truncf %f to_nearest_away {x.note = "away"} : f32 to bf16
  %11 = "arith.truncf"(%d) <{roundingmode = 3 : i32, fastmath = #arith.fastmath<afn>}> : (f64) -> f32
  %12 = arith.scaling_extf %q, %s : vector<4xf4E2M1FN>, vector<4xf8E8M0FNU> to vector<4xf32>
  %13 = arith.scaling_extf %q, %s fastmath<fast> : vector<4xf4E2M1FN>, vector<4xf8E8M0FNU> to vector<4xf32>
  %14 = arith.scaling_truncf %v, %s : vector<4xf32>, vector<4xf8E8M0FNU> to vector<4xf4E2M1FN>
  %15 = arith.scaling_truncf %v, %s toward_zero fastmath<contract> : vector<4xf32>, vector<4xf8E8M0FNU> to vector<4xf4E2M1FN>
  return
}

func.func @math(%x: f32, %y: f32, %z: f32, %n: i32, %v: vector<4xf32>, %w: vector<[4]xf64>, %u: vector<2xi16>, %k: vector<4xi32>) {
  %0 = math.asinh %x : f32
  %1 = math.acosh %x fastmath<fast> : f32
  %2 = math.atanh %v : vector<4xf32>
  %3 = math.erfc %x : f32
  %4 = math.atan2 %v, %v fastmath<nnan> : vector<4xf32>
  %5 = math.copysign %x, %y fastmath<nsz> : f32
  %6 = math.ipowi %u, %u : vector<2xi16>
  %7 = math.fpowi %x, %n fastmath<fast> : f32, i32
  %8 = math.fpowi %v, %k : vector<4xf32>, vector<4xi32>
  %9 = math.isnan %v : vector<4xf32>
  %10 = math.isinf %w : vector<[4]xf64>
  %11 = math.isfinite %x {fastmath = #arith.fastmath<nnan>} : f32
  %12 = math.isnormal %x : f32
  %13:2 = math.sincos %x : f32
  %14:2 = math.sincos %v fastmath<afn> : vector<4xf32>
  %15 = math.clampf %x to [%y, %z] : f32
  %16 = math.clampf %v to [%v, %v] fastmath<fast> : vector<4xf32>
  %17 = math.fma %x, %y, %z : f32
  %18 = math.fma %v, %v, %v fastmath<contract> {x.tag} : vector<4xf32>
  %19 = math.ctlz %u : vector<2xi16>
  %20 = math.cttz %n : i32
  %21 = math.absi %n : i32
  %22 = "math.isnan"(%x) : (f32) -> i1
  return
}

func.func private @callee(i32, f32) -> (i32, f32)
func.func private @nothing()

func.func @func_values(%a: i32, %b: f32, %g: (i32) -> ((f32) -> f32)) -> i32 {
  %f = func.constant @callee : (i32, f32) -> (i32, f32)
  %e = func.constant {x.tag = 1 : i32} @nothing : () -> ()
  %r:2 = func.call_indirect %f(%a, %b) : (i32, f32) -> (i32, f32)
  func.call_indirect %e() {x.unit} : () -> ()
  %h = func.call_indirect %g(%a) : (i32) -> ((f32) -> f32)
  %c = func.call_indirect %h(%b) : (f32) -> f32
  %s:2 = "func.call_indirect"(%f, %a, %b) <{arg_attrs = [{x.a}, {}], res_attrs = [{}, {x.r}]}> : ((i32, f32) -> (i32, f32), i32, f32) -> (i32, f32)
  return %r#0 : i32
}

gpu.module @kernels {
  gpu.func @k(%m: memref<16xf32>) kernel {
    %f = func.constant @helper : (f32) -> f32
    %c0 = arith.constant 0 : index
    %x = memref.load %m[%c0] : memref<16xf32>
    %y = func.call_indirect %f(%x) : (f32) -> f32
    vector.print %y : f32
    gpu.return
  }
  func.func @helper(%x: f32) -> f32 {
    return %x : f32
  }
}

func.func @prints(%i: i32, %f: f32, %v: vector<4xf32>, %w: vector<2x3xi64>, %x: index) {
  vector.print %i : i32
  vector.print %v : vector<4xf32>
  vector.print %w : vector<2x3xi64> punctuation <no_punctuation>
  vector.print %x : index punctuation <comma>
  vector.print punctuation <open>
  vector.print punctuation <close>
  vector.print punctuation <comma>
  vector.print str "done: \"quoted\"\n"
  vector.print str "tab\tnl\n"
  vector.print {x.tag}
  "vector.print"(%f) : (f32) -> ()
  "vector.print"() <{punctuation = #vector.punctuation<newline>}> : () -> ()
  %0 = arith.addf %f, %f : f32
  vector.print
  return
}

func.func @vectors(%f: f32, %v: vector<4xf32>, %w: vector<2x4xf32>, %i: index, %j: index,
                   %m: memref<?xf32>, %m2: memref<4x8xf32, 3>) {
  %0 = vector.broadcast %f : f32 to vector<4xf32>
  %1 = vector.broadcast %v : vector<4xf32> to vector<3x4xf32>
  %2 = vector.extract %v[0] : f32 from vector<4xf32>
  %3 = vector.extract %w[1] : vector<4xf32> from vector<2x4xf32>
  %4 = vector.extract %w[1, 3] : f32 from vector<2x4xf32>
  %5 = vector.extract %w[%i, 2] : f32 from vector<2x4xf32>
  %6 = vector.extract %w[%i, %j] {x.tag} : f32 from vector<2x4xf32>
  %7 = vector.extract %w[] : vector<2x4xf32> from vector<2x4xf32>
  %8 = vector.insert %f, %v [2] : f32 into vector<4xf32>
  %9 = vector.insert %v, %w [0] : vector<4xf32> into vector<2x4xf32>
  %10 = vector.insert %f, %w [%i, %j] : f32 into vector<2x4xf32>
  %11 = vector.load %m[%i] : memref<?xf32>, vector<4xf32>
  %12 = vector.load %m2[%i, %j] {nontemporal = true} : memref<4x8xf32, 3>, vector<8xf32>
  %13 = vector.load %m[%i] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
  vector.store %11, %m[%j] : memref<?xf32>, vector<4xf32>
  vector.store %12, %m2[%i, %j] {nontemporal = false} : memref<4x8xf32, 3>, vector<8xf32>
  %14 = vector.from_elements %f, %2, %4, %5 : vector<4xf32>
  %15 = vector.from_elements %f, %f, %f, %f, %f, %f : vector<2x3xf32>
  %16 = vector.from_elements %f : vector<f32>
  %17 = vector.reduction <add>, %v : vector<4xf32> into f32
  %18 = vector.reduction <maxnumf>, %v, %f fastmath<nnan> : vector<4xf32> into f32
  %19 = vector.fma %v, %v, %v : vector<4xf32>
  %20 = vector.bitcast %v : vector<4xf32> to vector<4xi32>
  %21 = vector.shape_cast %w : vector<2x4xf32> to vector<8xf32>
  %22 = vector.step : vector<4xindex>
  return
}

func.func @more_vectors(%a: vector<2xf32>, %b: vector<3xf32>, %i: index, %j: index, %m: memref<?xf32>,
                        %mask: vector<4xi1>, %pass: vector<4xf32>, %idx: vector<4xi32>, %v8: vector<8xf32>,
                        %w: vector<2x3xf32>, %s: vector<f32>, %mm: memref<8x8xf32>) {
  %0 = vector.shuffle %a, %b [0, 3, 4] : vector<2xf32>, vector<3xf32>
  %1 = vector.shuffle %s, %s [0, 1] {x.tag} : vector<f32>, vector<f32>
  %2 = vector.shuffle %w, %w [3, 0] : vector<2x3xf32>, vector<2x3xf32>
  %3 = vector.create_mask %i, %j : vector<4x3xi1>
  %4 = vector.create_mask %i : vector<i1>
  %5 = vector.constant_mask [3, 2] : vector<4x3xi1>
  %6 = vector.maskedload %m[%i], %mask, %pass : memref<?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  %7 = vector.maskedload %mm[%i, %j], %mask, %pass {alignment = 8 : i64} : memref<8x8xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.maskedstore %m[%i], %mask, %pass : memref<?xf32>, vector<4xi1>, vector<4xf32>
  %8 = vector.gather %m[%i] [%idx], %mask, %pass : memref<?xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.scatter %mm[%i, %j] [%idx], %mask, %pass : memref<8x8xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32>
  %9:2 = vector.to_elements %a : vector<2xf32>
  %10 = vector.to_elements %s {x.tag} : vector<f32>
  %11 = vector.interleave %pass, %pass : vector<4xf32> -> vector<8xf32>
  %12:2 = vector.deinterleave %v8 : vector<8xf32> -> vector<4xf32>
  %13 = vector.transpose %w, [1, 0] : vector<2x3xf32> to vector<3x2xf32>
  %14 = vector.extract_strided_slice %v8 {offsets = [2], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
  %15 = vector.insert_strided_slice %a, %pass {offsets = [2], strides = [1]} : vector<2xf32> into vector<4xf32>
  %16 = vector.vscale
  %17 = vector.type_cast %mm : memref<8x8xf32> to memref<vector<8x8xf32>>
  return
}

func.func @transfers(%m: memref<?xf32>, %m2: memref<?x?xf32>, %m3: memref<?x?x?xf32>, %i: index, %j: index, %f: f32, %mask: vector<4xi1>, %mask2: vector<4x2xi1>, %v: vector<f32>, %v4: vector<4xf32>, %v24: vector<2x4xf32>, %mv: memref<?xvector<4xf32>>, %sm: vector<[4]xi1>) {
  %0 = vector.transfer_read %m[%i], %f : memref<?xf32>, vector<4xf32>
  %1 = vector.transfer_read %m2[%i, %j], %f {in_bounds = [true]} : memref<?x?xf32>, vector<4xf32>
  %2 = vector.transfer_read %m2[%i, %j], %f, %mask {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<?x?xf32>, vector<4xf32>
  vector.transfer_write %v4, %m[%i] : vector<4xf32>, memref<?xf32>
  vector.transfer_write %v4, %m2[%i, %j], %mask {in_bounds = [false]} : vector<4xf32>, memref<?x?xf32>
  %3 = vector.transfer_read %m2[%i, %j], %f {in_bounds = [false, true]} : memref<?x?xf32>, vector<2x4xf32>
  %4 = vector.transfer_read %m[%i], %f : memref<?xf32>, vector<f32>
  %5 = vector.transfer_read %m3[%i, %i, %i], %f {permutation_map = affine_map<(d0, d1, d2) -> (0, d2)>} : memref<?x?x?xf32>, vector<2x4xf32>
  %6 = vector.transfer_read %mv[%i], %v4 : memref<?xvector<4xf32>>, vector<2x4xf32>
  vector.transfer_write %v, %m[%i] : vector<f32>, memref<?xf32>
  %7 = vector.transfer_read %m3[%i, %i, %j], %f, %mask2 {permutation_map = affine_map<(d0, d1, d2) -> (d2, d0)>} : memref<?x?x?xf32>, vector<2x4xf32>
  %8 = vector.transfer_read %m[%i], %f, %sm : memref<?xf32>, vector<[4]xf32>
  vector.transfer_write %v24, %m3[%i, %j, %j] {permutation_map = affine_map<(d0, d1, d2) -> (d2, d1)>, x.tag} : vector<2x4xf32>, memref<?x?x?xf32>
  %9 = vector.transfer_read %m2[%i, %j], %f, %mask {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (d1)>} : memref<?x?xf32>, vector<4xf32>
  return
}

func.func @tensor_transfers(%t: tensor<?x8xf32>, %i: index, %f: f32, %v: vector<4xf32>) -> tensor<?x8xf32> {
  %0 = vector.transfer_read %t[%i, %i], %f : tensor<?x8xf32>, vector<4xf32>
  %1 = vector.transfer_write %v, %t[%i, %i] {in_bounds = [true]} : vector<4xf32>, tensor<?x8xf32>
  return %1 : tensor<?x8xf32>
}

func.func @reductions(%m: memref<?xf32>, %i: index, %mask: vector<4xi1>, %pass: vector<4xf32>, %w: vector<2x4xf32>, %acc: vector<2xf32>, %a: vector<2xf32>, %f: f32, %s: vector<[8]xf32>, %acc2: vector<2x4xf32>) {
  %0 = vector.expandload %m[%i], %mask, %pass : memref<?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.compressstore %m[%i], %mask, %pass : memref<?xf32>, vector<4xi1>, vector<4xf32>
  %1 = vector.multi_reduction <add>, %w, %acc [1] : vector<2x4xf32> to vector<2xf32>
  %2 = vector.outerproduct %a, %pass : vector<2xf32>, vector<4xf32>
  %3 = vector.outerproduct %a, %pass, %acc2 {kind = #vector.kind<maxnumf>} : vector<2xf32>, vector<4xf32>
  %4 = vector.outerproduct %a, %f : vector<2xf32>, f32
  %5 = vector.scalable.insert %pass, %s[0] : vector<4xf32> into vector<[8]xf32>
  %6 = vector.scalable.extract %s[4] : vector<4xf32> from vector<[8]xf32>
  %9:2 = vector.scan <add>, %w, %acc {inclusive = true, reduction_dim = 1 : i64} : vector<2x4xf32>, vector<2xf32>
  %10 = vector.multi_reduction <mul>, %w, %f [0, 1] : vector<2x4xf32> to f32
  return
}
func.func @outer_products(%a: vector<[4]xf32>, %b: vector<[8]xf32>, %acc: vector<[4]x[8]xf32>, %b8: vector<8xf32>, %x: vector<4xf32>, %y: vector<[2]xi32>, %z: vector<4xi32>, %zy: vector<4x[2]xi32>) {
  %0 = vector.outerproduct %a, %b, %acc : vector<[4]xf32>, vector<[8]xf32>
  %1 = vector.outerproduct %x, %b8 {kind = #vector.kind<add>} : vector<4xf32>, vector<8xf32>
  %2 = "vector.outerproduct"(%x, %b8) : (vector<4xf32>, vector<8xf32>) -> vector<4x8xf32>
  %3 = vector.outerproduct %z, %y, %zy {kind = #vector.kind<minsi>, x.t} : vector<4xi32>, vector<[2]xi32>
  %4 = vector.reduction <minui>, %z : vector<4xi32> into i32
  return
}

func.func @contractions(%a: vector<2x3xf32>, %b: vector<3x4xf32>, %c: vector<2x4xf32>) -> vector<2x4xf32> {
  %0 = vector.contract {indexing_maps = [#map0, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  %1 = vector.contract {indexing_maps = [#map0, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<maxnumf>, x.t} %a, %b, %0 : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  return %1 : vector<2x4xf32>
}
func.func @dot(%a: vector<3xf32>, %b: vector<3xf32>, %c: f32) -> f32 {
  %0 = vector.contract {iterator_types = ["reduction"], indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>]} %a, %b, %c {x.y = 1 : i32} : vector<3xf32>, vector<3xf32> into f32
  return %0 : f32
}
