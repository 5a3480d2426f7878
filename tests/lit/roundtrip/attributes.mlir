// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// Attributes, as discardable attributes on ops (printed sorted by name by
// mlir-opt): integers (default i64 elided, widths, signedness, hex, huge),
// floats (decimal, exponent, hex, special values), strings with escapes,
// bool, unit, arrays (nested, empty), dictionaries (nested, empty, quoted
// keys), dense arrays of every element type, dense and splat elements
// (int, float, bool, complex-free, hex blobs), type attributes, symbol
// refs (flat and nested), affine maps and integer sets, opaque-free
// dialect attributes, and names that need quoting.

func.func @attrs() attributes {
  x.int = 42,
  x.int_i64 = 42 : i64,
  x.int_i32 = -7 : i32,
  x.int_i1 = 1 : i1,
  x.int_ui8 = 255 : ui8,
  x.int_si16 = -300 : si16,
  x.int_hex = 0x1F : i32,
  x.int_big = 123456789012345678901234567890 : i128,
  x.int_index = 5 : index,
  x.float = 1.5,
  x.float_f32 = 0.1 : f32,
  x.float_f16 = 65504.0 : f16,
  x.float_bf16 = 3.0 : bf16,
  x.float_exp = -2.5e-3 : f64,
  x.float_hex = 0x7FF0000000000000 : f64,
  x.float_nan = 0x7FC00000 : f32,
  x.float_negzero = -0.0 : f32,
  x.str = "plain",
  x.str_escapes = "tab\tnl\nquote\"backslash\\hex\7F\00end",
  x.str_empty = "",
  x.str_utf8 = "héllo ∑",
  x.bool_t = true,
  x.bool_f = false,
  x.unit,
  x.array = [1, 2.0, "three", [4, [5]], true, i32],
  x.array_empty = [],
  x.dict = {a = 1, b = {c = "d"}, "quoted key" = unit, e},
  x.dict_empty = {},
  x.dense_i8 = array<i8: -1, 2>,
  x.dense_i16 = array<i16: 300>,
  x.dense_i32 = array<i32: 1, 2, 3>,
  x.dense_i64 = array<i64: 9223372036854775807>,
  x.dense_f32 = array<f32: 1.0, 2.5>,
  x.dense_f64 = array<f64: -0.5>,
  x.dense_i1 = array<i1: true, false>,
  x.dense_empty = array<i32>,
  x.elements_int = dense<[1, 2, 3]> : tensor<3xi32>,
  x.elements_splat = dense<1.0> : tensor<2x2xf32>,
  x.elements_bool = dense<[true, false]> : tensor<2xi1>,
  x.elements_2d = dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>,
  x.elements_vec = dense<5> : vector<4xi8>,
  x.elements_hex = dense<"0xDEADBEEF"> : tensor<1xi32>,
  x.elements_idx = dense<[0, 1]> : tensor<2xindex>,
  x.elements_empty = dense<> : tensor<0xf32>,
  x.sparse = sparse<[[0, 0], [1, 2]], [1.0, 2.0]> : tensor<2x3xf32>,
  x.type = i32,
  x.type_memref = memref<?x4xf32, strided<[4, 1]>>,
  x.type_fn = (i32) -> (),
  x.type_llvm = !llvm.struct<(i32, ptr)>,
  x.sym = @attrs,
  x.sym_nested = @outer::@inner::@leaf,
  x.sym_quoted = @"sym with spaces",
  x.map = affine_map<(d0, d1)[s0] -> (d0 + s0, d1 * 4 - 1, d0 floordiv 2, d1 ceildiv 3, d0 mod 5)>,
  x.map_empty = affine_map<() -> ()>,
  x.map_const = affine_map<(d0) -> (0)>,
  x.set = affine_set<(d0)[s0] : (d0 - 10 >= 0, s0 - d0 == 0)>,
  x.gpu_dim = #gpu<dim y>,
  x.gpu_space = #gpu.address_space<workgroup>,
  x.arith_fastmath = #arith.fastmath<nnan,ninf>,
  x.llvm_linkage = #llvm.linkage<internal>,
  x.strided = strided<[4, 1], offset: ?>,
  x.loc_attr = loc("in_attr.mlir":1:2),
  "x.quoted-name" = 1 : i8,
  "x.name with space" = "v"
} {
  return
}

// Float printing: mlir-opt prints 6 significant digits in exponent form when
// that reads back to the same bits, else APFloat's shortest form when it has
// a '.', else hex. And i64/f64 types are elided only inside arrays.
func.func @float_printing() attributes {
  y.f00 = 1234567.0 : f32,
  y.f01 = 123456.0 : f32,
  y.f02 = 16777217.0 : f32,
  y.f03 = 0.30000001 : f32,
  y.f04 = 1.0e-7 : f32,
  y.f05 = 0.1 : f64,
  y.f06 = 100000000000000000000.0 : f64,
  y.f07 = 1.7976931348623157e308 : f64,
  y.f08 = 2.2250738585072014e-308 : f64,
  y.f09 = 65504.0 : f16,
  y.f10 = 0.333 : f16,
  y.f11 = 3.140625 : bf16,
  y.f12 = 0x8000 : f16,
  y.f13 = 0xFFF0000000000000 : f64,
  y.f14 = 1.0e38 : f32,
  y.f15 = 5.0e-324 : f64,
  y.i00 = [1, 2 : i32, 3 : i64, 4.0, 5.0 : f32, 6.0 : f64, true, -1 : i1],
  y.i01 = dense<[1, 1, 1]> : tensor<3xi8>,
  y.i02 = dense<[[2.0, 2.0], [2.0, 2.0]]> : tensor<2x2xf16>,
  y.i03 = 18446744073709551615 : i64,
  y.i04 = 18446744073709551615 : ui64,
  y.i05 = -128 : si8
} {
  return
}
