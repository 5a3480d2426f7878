// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// Values defined in a module's body stay visible in the functions below, which number their own
// values on from them (and each from the same point), so that no name is defined twice.

module {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  func.func @first(%a: i32) -> i32 {
    %v = arith.constant 5 : i32
    %s = arith.addi %a, %v : i32
    return %s : i32
  }
  func.func @second() -> i32 {
    %w = arith.constant 7 : i32
    return %w : i32
  }
}
