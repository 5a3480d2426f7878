func.func @f() -> i32 {
  %c = arith.constant 1.0 : f32
  // expected-error@+1 {{something else}}
  return %c : f32
}
