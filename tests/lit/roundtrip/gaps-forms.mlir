// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// Forms closed after the interpreters found them missing: cf.switch and llvm.switch case values
// as dense integer elements (zero-extended by cf.switch's printer, signed by llvm.switch's).

module {
  func.func @cf_switch(%x: i8, %y: i32, %z: i64) {
    cf.switch %x : i8, [default: ^bb1, 200: ^bb1, -1: ^bb2(%y : i32), 5: ^bb1]
  ^bb1:
    cf.switch %z : i64, [default: ^bb2(%y : i32), -1: ^bb3, 9223372036854775807: ^bb3]
  ^bb2(%a: i32):
    cf.switch %y : i32, [default: ^bb3, 4: ^bb3, 4: ^bb3]
  ^bb3:
    return
  }
  llvm.func @llvm_switch(%x: i8, %y: i32) {
    llvm.switch %x : i8, ^bb1 [200: ^bb1, -1: ^bb2(%y : i32), 3: ^bb1]
  ^bb1:
    llvm.switch %y : i32, ^bb2(%y : i32) [7: ^bb3, 7: ^bb3]
  ^bb2(%a: i32):
    llvm.switch %y : i32, ^bb3 []
  ^bb3:
    llvm.return
  }
}
