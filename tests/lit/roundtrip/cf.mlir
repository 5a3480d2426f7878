// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// cf: br with and without operands, cond_br with operands on both edges,
// switch (with and without case operands, i32 and index-free flag values),
// assert, loops and back edges, blocks used before they are defined,
// unreachable blocks, block argument reuse.

func.func @branches(%c: i1, %a: i32, %b: f32) -> i32 {
  cf.br ^entry2
^entry2:
  cf.cond_br %c, ^then(%a : i32), ^else(%a, %b : i32, f32)
^then(%x: i32):
  cf.br ^join(%x : i32)
^else(%y: i32, %z: f32):
  %one = arith.constant 1 : i32
  %s = arith.addi %y, %one : i32
  cf.br ^join(%s : i32)
^join(%r: i32):
  return %r : i32
}

func.func @cond_br_weights(%c: i1) {
  cf.cond_br %c, ^a, ^b {branch_weights = array<i32: 90, 10>}
^a:
  return
^b:
  return
}

func.func @loop(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^header(%c0, %c0 : i32, i32)
^header(%i: i32, %acc: i32):
  %cond = arith.cmpi slt, %i, %n : i32
  cf.cond_br %cond, ^body, ^exit(%acc : i32)
^body:
  %acc2 = arith.addi %acc, %i : i32
  %i2 = arith.addi %i, %c1 : i32
  cf.br ^header(%i2, %acc2 : i32, i32)
^exit(%res: i32):
  return %res : i32
}

func.func @switches(%flag: i32, %a: i32, %b: f32) -> i32 {
  cf.switch %flag : i32, [
    default: ^def(%a : i32),
    0: ^zero,
    42: ^other(%b : f32),
    -5: ^zero
  ]
^def(%d: i32):
  return %d : i32
^zero:
  %z = arith.constant 0 : i32
  return %z : i32
^other(%f: f32):
  %i = arith.fptosi %f : f32 to i32
  cf.switch %i : i32, [
    default: ^def(%i : i32)
  ]
}

func.func @switch_i8(%flag: i8) {
  cf.switch %flag : i8, [
    default: ^bb1,
    1: ^bb2,
    2: ^bb2
  ]
^bb1:
  return
^bb2:
  return
}

func.func @asserts(%c: i1) {
  cf.assert %c, "expected \"c\" to hold\n"
  return
}

func.func @unreachable_block() {
  return
^dead:
  %x = arith.constant 3 : i32
  cf.br ^dead
}
