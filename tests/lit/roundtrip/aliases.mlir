// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// Type and attribute aliases: simple, chained (an alias defined through
// another, which must come first), numbered names (dots are reserved for dialects), used in types, attributes, layouts,
// memory spaces and dense arrays; mlir-opt resolves them and prints its own
// aliases (#map, ...) only where it wants to.

!f32vecelem = f32
!f32vec = vector<4x!f32vecelem>
#space = #gpu.address_space<workgroup>
!buf = memref<16x!f32vecelem, #space>
!desc = !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
!tok = !gpu.async.token
!my_type_2 = tuple<!f32vec, !tok>
#layout = affine_map<(d0, d1) -> (d1, d0)>
#strided = strided<[1, 4], offset: 2>
#int = 17 : i32
#arr = [#int, "s", @sym]
#dict = {inner = #arr, flag}
#alias_with_num_2 = "dotted"
#sizes = array<i64: 2, 4>

func.func private @sig(!f32vec, !buf, !desc, !tok, !my_type_2) -> !f32vec
func.func private @layouts(memref<4x4xf32, #layout>, memref<4x4xf32, #strided>, memref<8xi8, #space>)

func.func @uses(%v: !f32vec) -> !f32vec attributes {x.i = #int, x.a = #arr, x.d = #dict, x.s = #alias_with_num_2, x.sizes = #sizes} {
  %c = arith.constant dense<1.0> : !f32vec
  %r = arith.addf %v, %c : !f32vec
  return %r : !f32vec
}
