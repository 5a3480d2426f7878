func.func @f() {
  %a = arith.constant 1 : i32
  %b = arith.addi %a, %zz : i32
  %c = arith.addi %a, %yy : i32
  return
}
