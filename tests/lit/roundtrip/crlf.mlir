// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// Windows line endings (CRLF) throughout: locations must count lines the
// same way mlir-opt does, and \r is whitespace, not part of any token.

func.func @crlf(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  cf.br ^bb1(%0 : i32)
^bb1(%b: i32):
  return %b : i32
}
