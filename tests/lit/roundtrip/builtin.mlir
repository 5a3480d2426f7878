// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// builtin.module: named and nested modules, module attributes (discardable
// ones in a dictionary, printed sorted by mlir-opt), builtin.unrealized_conversion_cast
// with zero, one and several operands/results, and a module with a sym_visibility.

module @outer attributes {gpu.container_module, test.b = 2 : i32, test.a = "first"} {
  module @inner {
    module {
      func.func @deep() {
        return
      }
    }
  }
  builtin.module @explicit_builtin_prefix attributes {test.flag} {
  }
  module @private_module attributes {sym_visibility = "private"} {
  }
  func.func @casts(%a: i64, %b: index) -> (i32, f32, index) {
    %0 = builtin.unrealized_conversion_cast %a : i64 to i32
    %1 = builtin.unrealized_conversion_cast %b : index to f32
    %2:2 = builtin.unrealized_conversion_cast %a, %b : i64, index to index, i64
    %3 = builtin.unrealized_conversion_cast to i8
    return %0, %1, %2#0 : i32, f32, index
  }
}
