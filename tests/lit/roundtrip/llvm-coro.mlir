// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// The coroutine intrinsics convert-async-to-llvm emits, in their custom forms, and llvm.mlir.none.

llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)

// yields from, from+1, ... while below to, two values a resume
llvm.func @gen(%from: i64, %to: i64) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %one = llvm.mlir.constant(1 : i64) : i64
  %cell = llvm.alloca %one x i64 : (i64) -> !llvm.ptr
  llvm.store %from, %cell : i64, !llvm.ptr
  %id = llvm.intr.coro.id %c0, %null, %null, %null : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %size = llvm.intr.coro.size : i64
  %mem = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  %hdl = llvm.intr.coro.begin %id, %mem : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.br ^loop
^loop:
  %v = llvm.load %cell : !llvm.ptr -> i64
  %more = llvm.icmp "slt" %v, %to : i64
  llvm.cond_br %more, ^yield, ^cleanup
^yield:
  %v1 = llvm.add %v, %one : i64
  llvm.store %v1, %cell : i64, !llvm.ptr
  %odd = llvm.and %v, %one : i64
  %two = llvm.icmp "ne" %odd, %one : i64
  llvm.cond_br %two, ^loop, ^pause
^pause:
  %save = llvm.intr.coro.save %hdl : (!llvm.ptr) -> !llvm.token
  %false = llvm.mlir.constant(false) : i1
  %s = llvm.intr.coro.suspend %save, %false : i8
  %s32 = llvm.sext %s : i8 to i32
  llvm.switch %s32 : i32, ^suspend [
    0: ^loop,
    1: ^cleanup
  ]
^cleanup:
  %f = llvm.intr.coro.free %id, %hdl : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.call @free(%f) : (!llvm.ptr) -> ()
  llvm.br ^suspend
^suspend:
  %unwind = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  %e = llvm.intr.coro.end %hdl, %unwind, %none : (!llvm.ptr, i1, !llvm.token) -> i1
  llvm.return %hdl : !llvm.ptr
}
