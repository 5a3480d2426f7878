// A small program for selftest.sh: a private declaration, a constant 1,
// a loop, explicit and implicit locations.
func.func private @ext(i32) -> i32

func.func @x(%n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %n iter_args(%acc = %one) -> (i32) {
    %s = arith.addi %acc, %one : i32 loc("src.c":7:9)
    scf.yield %s : i32
  }
  %w = scf.while (%a = %r) : (i32) -> i32 {
    %z = arith.constant 0 : i32
    %c = arith.cmpi ne, %a, %z : i32
    scf.condition(%c) %a : i32
  } do {
  ^bb0(%b: i32):
    %e = func.call @ext(%b) : (i32) -> i32
    scf.yield %e : i32
  }
  return %w : i32
}
