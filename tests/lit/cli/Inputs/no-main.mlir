// No @main: only @other runs.
func.func @other() {
  %c = arith.constant 7 : i32
  vector.print %c : i32
  return
}
func.func private @declared()
