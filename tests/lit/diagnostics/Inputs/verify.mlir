func.func @f() -> i32 {
  %c = arith.constant 1.0 : f32
  // expected-error@+1 {{type of return operand 0 ('f32') doesn't match function result type ('i32')}}
  return %c : f32
}
