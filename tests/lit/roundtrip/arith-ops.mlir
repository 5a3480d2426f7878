// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// arith: every op family on scalars and vectors: integer arithmetic with
// overflow flags, division and remainder variants, bit ops and shifts,
// min/max, extended arithmetic, float arithmetic with fastmath flags,
// rounding modes, comparisons with every predicate, casts, select.

func.func @integer(%a: i32, %b: i32, %x: index, %y: index, %v: vector<4xi32>) {
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %a, %b overflow<nsw> : i32
  %2 = arith.subi %a, %b overflow<nuw> : i32
  %3 = arith.muli %a, %b overflow<nsw, nuw> : i32
  %4 = arith.divsi %a, %b : i32
  %5 = arith.divui %a, %b : i32
  %6 = arith.ceildivsi %a, %b : i32
  %7 = arith.ceildivui %a, %b : i32
  %8 = arith.floordivsi %a, %b : i32
  %9 = arith.remsi %a, %b : i32
  %10 = arith.remui %a, %b : i32
  %11 = arith.andi %a, %b : i32
  %12 = arith.ori %a, %b : i32
  %13 = arith.xori %a, %b : i32
  %14 = arith.shli %a, %b : i32
  %15 = arith.shli %a, %b overflow<nsw> : i32
  %16 = arith.shrsi %a, %b : i32
  %17 = arith.shrui %a, %b : i32
  %18 = arith.maxsi %a, %b : i32
  %19 = arith.maxui %a, %b : i32
  %20 = arith.minsi %a, %b : i32
  %21 = arith.minui %a, %b : i32
  %22:2 = arith.addui_extended %a, %b : i32, i1
  %23:2 = arith.mulsi_extended %a, %b : i32
  %24:2 = arith.mului_extended %a, %b : i32
  %25 = arith.addi %x, %y : index
  %26 = arith.muli %x, %y : index
  %27 = arith.addi %v, %v : vector<4xi32>
  %28 = arith.shrsi %v, %v : vector<4xi32>
  %29:2 = arith.addui_extended %v, %v : vector<4xi32>, vector<4xi1>
  return
}

func.func @float(%a: f32, %b: f32, %h: f16, %d: f64, %v: vector<2xf32>) {
  %0 = arith.addf %a, %b : f32
  %1 = arith.subf %a, %b fastmath<fast> : f32
  %2 = arith.mulf %a, %b fastmath<nnan, ninf> : f32
  %3 = arith.divf %a, %b fastmath<reassoc, nsz, arcp, contract, afn> : f32
  %4 = arith.remf %a, %b : f32
  %5 = arith.negf %a : f32
  %6 = arith.maximumf %a, %b : f32
  %7 = arith.minimumf %a, %b : f32
  %8 = arith.maxnumf %a, %b : f32
  %9 = arith.minnumf %a, %b fastmath<nnan> : f32
  %10 = arith.addf %h, %h : f16
  %11 = arith.mulf %d, %d fastmath<none> : f64
  %12 = arith.addf %v, %v : vector<2xf32>
  %13 = arith.negf %v fastmath<fast> : vector<2xf32>
  return
}

func.func @compare(%a: i32, %b: i32, %f: f32, %g: f32, %x: index, %v: vector<4xi32>, %w: vector<4xf64>) {
  %0 = arith.cmpi eq, %a, %b : i32
  %1 = arith.cmpi ne, %a, %b : i32
  %2 = arith.cmpi slt, %a, %b : i32
  %3 = arith.cmpi sle, %a, %b : i32
  %4 = arith.cmpi sgt, %a, %b : i32
  %5 = arith.cmpi sge, %a, %b : i32
  %6 = arith.cmpi ult, %a, %b : i32
  %7 = arith.cmpi ule, %a, %b : i32
  %8 = arith.cmpi ugt, %a, %b : i32
  %9 = arith.cmpi uge, %a, %b : i32
  %10 = arith.cmpi slt, %x, %x : index
  %11 = arith.cmpi eq, %v, %v : vector<4xi32>
  %12 = arith.cmpf false, %f, %g : f32
  %13 = arith.cmpf oeq, %f, %g : f32
  %14 = arith.cmpf ogt, %f, %g : f32
  %15 = arith.cmpf oge, %f, %g : f32
  %16 = arith.cmpf olt, %f, %g : f32
  %17 = arith.cmpf ole, %f, %g : f32
  %18 = arith.cmpf one, %f, %g : f32
  %19 = arith.cmpf ord, %f, %g : f32
  %20 = arith.cmpf ueq, %f, %g : f32
  %21 = arith.cmpf ugt, %f, %g : f32
  %22 = arith.cmpf uge, %f, %g : f32
  %23 = arith.cmpf ult, %f, %g : f32
  %24 = arith.cmpf ule, %f, %g : f32
  %25 = arith.cmpf une, %f, %g : f32
  %26 = arith.cmpf uno, %f, %g : f32
  %27 = arith.cmpf true, %f, %g : f32
  %28 = arith.cmpf olt, %f, %g fastmath<nnan> : f32
  %29 = arith.cmpf ult, %w, %w : vector<4xf64>
  %30 = arith.select %0, %a, %b : i32
  %31 = arith.select %11, %v, %v : vector<4xi1>, vector<4xi32>
  %32 = arith.select %0, %v, %v : vector<4xi32>
  return
}

func.func @casts(%i: i32, %s: i8, %f: f32, %h: f16, %d: f64, %x: index, %b: bf16, %v: vector<4xi16>) {
  %0 = arith.extsi %s : i8 to i32
  %1 = arith.extui %s : i8 to i32
  %2 = arith.trunci %i : i32 to i8
  %3 = arith.trunci %i overflow<nsw> : i32 to i8
  %4 = arith.extf %f : f32 to f64
  %5 = arith.extf %h fastmath<fast> : f16 to f32
  %6 = arith.truncf %d : f64 to f32
  %7 = arith.truncf %f to_nearest_even : f32 to bf16
  %8 = arith.sitofp %i : i32 to f32
  %9 = arith.uitofp %i : i32 to f64
  %10 = arith.fptosi %f : f32 to i32
  %11 = arith.fptoui %d : f64 to i64
  %12 = arith.index_cast %i : i32 to index
  %13 = arith.index_cast %x : index to i64
  %14 = arith.index_castui %x : index to i32
  %15 = arith.bitcast %f : f32 to i32
  %16 = arith.bitcast %h : f16 to bf16
  %17 = arith.extsi %v : vector<4xi16> to vector<4xi64>
  %20 = arith.extf %b : bf16 to f32
  return
}
