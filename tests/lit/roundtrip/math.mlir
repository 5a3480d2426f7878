// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// math: unary and binary float ops, integer ops, fastmath flags, vectors.

func.func @unary(%x: f32, %d: f64, %h: f16, %v: vector<4xf32>) {
  %0 = math.absf %x : f32
  %1 = math.sqrt %x : f32
  %2 = math.rsqrt %d : f64
  %3 = math.exp %x : f32
  %4 = math.exp2 %x : f32
  %5 = math.expm1 %x : f32
  %6 = math.log %x : f32
  %7 = math.log2 %x : f32
  %8 = math.log10 %x : f32
  %9 = math.log1p %x : f32
  %10 = math.sin %x : f32
  %11 = math.cos %x : f32
  %12 = math.tan %x : f32
  %13 = math.tanh %x : f32
  %14 = math.atan %x : f32
  %15 = math.asin %x : f32
  %16 = math.acos %x : f32
  %17 = math.sinh %x : f32
  %18 = math.cosh %x : f32
  %19 = math.erf %x : f32
  %20 = math.ceil %x : f32
  %21 = math.floor %x : f32
  %22 = math.round %x : f32
  %23 = math.roundeven %x : f32
  %24 = math.trunc %x : f32
  %25 = math.cbrt %x : f32
  %26 = math.sqrt %h : f16
  %27 = math.exp %v fastmath<fast> : vector<4xf32>
  %28 = math.sin %x fastmath<afn> : f32
  %29 = math.isnan %x : f32
  %30 = math.isinf %d : f64
  %31 = math.isfinite %x : f32
  %32 = math.isnormal %x : f32
  return
}

func.func @binary(%x: f32, %y: f32, %z: f32, %n: i32, %i: i32, %d: f64) {
  %0 = math.powf %x, %y : f32
  %1 = math.atan2 %x, %y : f32
  %2 = math.copysign %x, %y : f32
  %3 = math.fpowi %x, %n : f32, i32
  %4 = math.ipowi %i, %n : i32
  %5 = math.fma %x, %y, %z : f32
  %6 = math.fma %x, %y, %z fastmath<contract> : f32
  %7 = math.powf %d, %d fastmath<nnan, ninf> : f64
  return
}

func.func @integer(%i: i32, %v: vector<2xi64>) {
  %0 = math.absi %i : i32
  %1 = math.ctlz %i : i32
  %2 = math.cttz %i : i32
  %3 = math.ctpop %i : i32
  %4 = math.ctpop %v : vector<2xi64>
  return
}
