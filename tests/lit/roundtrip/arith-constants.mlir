// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// arith.constant of every scalar type and of vectors and tensors: booleans,
// odd and wide integer widths, signed/unsigned spellings of values, negative
// numbers, hex integers, decimal and hex floats (incl. inf, nan, -0.0,
// denormals, values that only print exactly as hex), index, dense and splat.

func.func @constants() {
  %t = arith.constant true
  %f = arith.constant false
  %i1 = arith.constant 1 : i1
  %i1z = arith.constant 0 : i1
  %i7 = arith.constant -64 : i7
  %i8 = arith.constant 255 : i8
  %i8n = arith.constant -1 : i8
  %i16 = arith.constant 0x7fff : i16
  %i32 = arith.constant 42 : i32
  %i32n = arith.constant -2147483648 : i32
  %i64 = arith.constant 9223372036854775807 : i64
  %i64n = arith.constant -9223372036854775808 : i64
  %i64h = arith.constant 0xFFFFFFFFFFFFFFFF : i64
  %i128 = arith.constant 170141183460469231731687303715884105727 : i128
  %i128n = arith.constant -1 : i128
  %i33 = arith.constant 4294967296 : i33
  %idx = arith.constant 0 : index
  %idx1 = arith.constant 1 : index
  %idxn = arith.constant -7 : index
  %f16 = arith.constant 1.5 : f16
  %f16h = arith.constant 0x7C00 : f16
  %bf16 = arith.constant -2.0 : bf16
  %bf16h = arith.constant 0x3F80 : bf16
  %f32 = arith.constant 3.14159274 : f32
  %f32e = arith.constant 1.0e+10 : f32
  %f32s = arith.constant 1.0e-10 : f32
  %f32z = arith.constant -0.0 : f32
  %f32inf = arith.constant 0x7F800000 : f32
  %f32ninf = arith.constant 0xFF800000 : f32
  %f32nan = arith.constant 0x7FC00000 : f32
  %f32den = arith.constant 0x00000001 : f32
  %f32max = arith.constant 3.40282347E+38 : f32
  %f32over = arith.constant 1.0e+39 : f32
  %f64over = arith.constant -1.0e+400 : f64
  %f32hugeexp = arith.constant 1.0e+2147483648 : f32
  %tover = arith.constant dense<[1.0e+39, -1.0e+39]> : tensor<2xf32>
  %f32third = arith.constant 0.333333343 : f32
  %f64 = arith.constant 2.718281828459045 : f64
  %f64h = arith.constant 0x3FB999999999999A : f64
  %f64big = arith.constant 1.0e300 : f64
  %f64int = arith.constant 100.0 : f64
  %f64tiny = arith.constant 4.9406564584124654E-324 : f64
  %f64nan = arith.constant 0x7FF8000000000001 : f64
  %v4i32 = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  %vsplat = arith.constant dense<0.5> : vector<8xf32>
  %v2d = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : vector<2x2xf64>
  %vbool = arith.constant dense<[true, false, true]> : vector<3xi1>
  %vidx = arith.constant dense<[0, 1]> : vector<2xindex>
  %vsc = arith.constant dense<1> : vector<[4]xi32>
  %tsplat = arith.constant dense<7> : tensor<2x3xi16>
  %tf = arith.constant dense<[1.0, -0.0, 0x7F800000]> : tensor<3xf32>
  %empty = arith.constant dense<> : tensor<0xi32>
  %hexdense = arith.constant dense<"0x0100000002000000"> : tensor<2xi32>
  return
}
