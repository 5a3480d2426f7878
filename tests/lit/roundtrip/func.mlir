// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// func: definitions, private/public/nested declarations, calls (direct and
// indirect), several results, argument and result attributes, func.constant,
// function attributes, an empty function type, functions as values.

func.func private @decl(i32, f32) -> i64
func.func private @decl_no_result(memref<4xf32>)
func.func nested @decl_nested() -> ()
func.func private @decl_attrs(%arg0: i32 {test.arg}, %arg1: f32 {test.value = 3 : i64}) -> (i32 {test.result})
func.func private @variadic_like() attributes {llvm.emit_c_interface, test.str = "x"}

func.func public @explicit_public(%x: i32) -> i32 {
  func.return %x : i32
}

func.func @no_args() {
  return
}

func.func @multi(%a: i32, %b: f32) -> (i32, f32, i1) {
  %t = arith.constant true
  return %a, %b, %t : i32, f32, i1
}

func.func @caller(%a: i32, %b: f32) -> i64 {
  %r = call @decl(%a, %b) : (i32, f32) -> i64
  %m:3 = func.call @multi(%a, %b) : (i32, f32) -> (i32, f32, i1)
  %f = func.constant @multi : (i32, f32) -> (i32, f32, i1)
  %n:3 = func.call_indirect %f(%m#0, %m#1) : (i32, f32) -> (i32, f32, i1)
  call @no_args() : () -> ()
  return %r : i64
}

func.func private @with_attrs(%arg0: memref<?xf32> {llvm.noalias, llvm.align = 16 : i64}) -> (f32 {test.res = "r"}) attributes {test.unit} {
  %c0 = arith.constant 0 : index
  %v = memref.load %arg0[%c0] : memref<?xf32>
  return %v : f32
}

func.func @fn_value_arg(%g: (i32) -> i32, %x: i32) -> i32 {
  %y = func.call_indirect %g(%x) : (i32) -> i32
  return %y : i32
}

func.func @nested_fn_type(%h: () -> ((i32) -> (f32, f32))) {
  return
}
