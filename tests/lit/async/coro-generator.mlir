// A switched-resume coroutine written by hand, before CoroSplit: a generator whose counter lives
// in an alloca of its frame (made before coro.begin, so it must outlive the ramp's return), run by
// llvm.intr.coro.resume from a function that is no coroutine. The ramp runs to the first suspend
// and returns the handle; each resume continues after the suspend (its result 0); the last one
// leaves the loop, frees the frame through coro.free and ends at coro.end. mlir-runner, which
// splits the coroutine with LLVM's CoroSplit, is the oracle.
// RUN: %gpuinterp %s | FileCheck %s
// RUN: %mlir_runner %s -O0 --entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 | FileCheck %s

// CHECK: 10
// CHECK-NEXT: 11
// CHECK-NEXT: ramp returned
// CHECK-NEXT: 12
// CHECK-NEXT: 13
// CHECK-NEXT: end of the generator
// CHECK-NEXT: after the last resume

llvm.func @printI64(i64)
llvm.func @printNewline()
llvm.func @printString(!llvm.ptr)
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.mlir.global internal constant @ramp("ramp returned\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fin("end of the generator\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @after("after the last resume\0A\00") {addr_space = 0 : i32}

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
  llvm.call @printI64(%v) : (i64) -> ()
  llvm.call @printNewline() : () -> ()
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
  %fin = llvm.mlir.addressof @fin : !llvm.ptr
  llvm.call @printString(%fin) : (!llvm.ptr) -> ()
  %f = llvm.intr.coro.free %id, %hdl : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.call @free(%f) : (!llvm.ptr) -> ()
  llvm.br ^suspend
^suspend:
  %unwind = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  %e = llvm.intr.coro.end %hdl, %unwind, %none : (!llvm.ptr, i1, !llvm.token) -> i1
  llvm.return %hdl : !llvm.ptr
}

llvm.func @main() {
  %from = llvm.mlir.constant(10 : i64) : i64
  %to = llvm.mlir.constant(14 : i64) : i64
  %h = llvm.call @gen(%from, %to) : (i64, i64) -> !llvm.ptr
  %ramp = llvm.mlir.addressof @ramp : !llvm.ptr
  llvm.call @printString(%ramp) : (!llvm.ptr) -> ()
  llvm.intr.coro.resume %h : !llvm.ptr
  llvm.intr.coro.resume %h : !llvm.ptr
  %after = llvm.mlir.addressof @after : !llvm.ptr
  llvm.call @printString(%after) : (!llvm.ptr) -> ()
  llvm.return
}
