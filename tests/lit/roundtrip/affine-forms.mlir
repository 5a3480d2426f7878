// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// Affine maps and integer sets in the spellings mlir-opt rewrites when it
// builds them (ir/affine.c): constants and symbolic terms to the right,
// folded constants and coefficients, subtraction as `+ x * -1` printed back
// as `- x`, dims and symbols of a sum or product ordered, floordiv/ceildiv/
// mod rules (multiples of the divisor, `e - (e floordiv c) * c` as `e mod c`),
// division by zero or a negative number kept, constraints moved to `>= 0` /
// `== 0`, an empty set as `0 == 0`, any names renamed to d0.. and s0.., and
// affine layouts of memrefs (one that simplifies to the identity vanishes).
// More variety: tests/corpus-tools/affine-fuzz.py.

func.func @maps() attributes {
  m.order = affine_map<(d0, d1)[s0, s1] -> (s0 - d0, 3 + d1, d1 * 2 + d0, s1 + s0 + d1 + 5, d1 + d0, s1 * s0)>,
  m.neg = affine_map<(d0, d1) -> (-d0, d0 - 1, 2 * d0, -(d0 + 1), d0 - (d1 + 1), - - d0, d0 * -1 * -1)>,
  m.fold = affine_map<(d0, d1)[s0] -> (d0 - d0, 4 * (d0 + d1), d0 - 3 * d0, (d0 + 2) + 3, d0 * 2 * 3, s0 * 2 + s0, 2 + 3 * 4)>,
  m.div = affine_map<(d0, d1)[s0] -> ((d0 + 1) floordiv 2, (d0 * 6) floordiv 3, (d0 * 4 + d1) floordiv 2, (d0 * 8) ceildiv 4, 7 floordiv -2, 7 ceildiv 2, d0 floordiv 0, d0 floordiv s0, d0 floordiv 1)>,
  m.mod = affine_map<(d0, d1)[s0] -> (d0 mod 4 + d1, d1 + d0 mod 4, (d0 * 4) mod 2, (d0 * 4 + d1) mod 2, (d0 mod 8) mod 4, -7 mod 3, d0 mod -3, d0 - (d0 floordiv 3) * 3, d0 - (d0 floordiv s0) * s0, (d0 + d1) - (d1 floordiv 4) * 4, d0 + (d0 floordiv -3) * 3)>,
  m.names = affine_map<(i, j)[n] -> (j, i + n, i floordiv 2)>,
  m.limits = affine_map<(d0) -> (9223372036854775807 + 1, 9223372036854775807 * 3, -9223372036854775807)>,
  m.identity = affine_map<(d0, d1) -> (d0, d1)>,
  m.const = affine_map<() -> (0x10)>,
  s.basic = affine_set<(d0)[s0] : (d0 - 10 >= 0, s0 - d0 == 0, d0 <= s0, 3 >= d0)>,
  s.empty = affine_set<() : ()>,
  s.names = affine_set<(i)[n] : (i * 2 + n == 4)>
} {
  return
}

func.func private @layouts(memref<4x4xf32, affine_map<(d0, d1) -> (d0 * 4 + d1)>>,
                           memref<4xf32, affine_map<(i) -> (i + 0)>>,
                           memref<8xf32, affine_map<(d0)[s0] -> (s0 + d0)>>)
