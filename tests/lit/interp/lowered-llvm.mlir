// The LLVM dialect as lowered host code uses it, run by our interpreter and by mlir-runner on the
// same file: calls (recursive, with results), branches with block arguments, switch, globals
// (a string, dense arrays, a struct built by an initializer region), structs and arrays in
// memory at their data-layout offsets, alloca, malloc/free, memset/memcpy intrinsics, casts,
// math and bit intrinsics, and libm calls. Both print the same.

// RUN: %gpuinterp %s > %t.ours
// RUN: %mlir_runner %s -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 | diff %t.ours -
// RUN: FileCheck %s < %t.ours

// CHECK:      hello, lowered world
// CHECK-NEXT: 120
// CHECK-NEXT: 14
// CHECK-NEXT: 100
// CHECK-NEXT: 404
// CHECK-NEXT: -1
// CHECK-NEXT: 7
// CHECK-NEXT: -40
// CHECK-NEXT: 2.25
// CHECK-NEXT: 1
// CHECK-NEXT: 8
// CHECK-NEXT: 0.75
// CHECK-NEXT: -3
// CHECK-NEXT: 12
// CHECK-NEXT: 72340172838076673
// CHECK-NEXT: 14
// CHECK-NEXT: 1.22474
// CHECK-NEXT: 3.75
// CHECK-NEXT: 3
// CHECK-NEXT: 2018915346
// CHECK-NEXT: 13
// CHECK-NEXT: 120
// CHECK-NEXT: 120
// CHECK-NEXT: 1123024896
// CHECK-NEXT: 3
// CHECK-NEXT: 0
// CHECK-NEXT: 19088743
// CHECK-NEXT: 0.462117
// CHECK-NEXT: 1.83712

llvm.func @printI64(i64)
llvm.func @printF64(f64)
llvm.func @printString(!llvm.ptr)
llvm.func @printNewline()
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.func @tanhf(f32) -> f32
llvm.func @pow(f64, f64) -> f64

llvm.mlir.global private constant @hello("hello, lowered world\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal @table(dense<[3, 1, 4, 1, 5]> : tensor<5xi32>) : !llvm.array<5 x i32>
llvm.mlir.global internal constant @halves(dense<[0.5, 1.5]> : tensor<2xf64>) : !llvm.array<2 x f64>
// A struct global built by its initializer region, holding the address of another global.
llvm.mlir.global internal @rec() : !llvm.struct<(i8, i32, f64, ptr)> {
  %0 = llvm.mlir.undef : !llvm.struct<(i8, i32, f64, ptr)>
  %c = llvm.mlir.constant(7 : i8) : i8
  %i = llvm.mlir.constant(-40 : i32) : i32
  %f = llvm.mlir.constant(2.25 : f64) : f64
  %p = llvm.mlir.addressof @table : !llvm.ptr
  %1 = llvm.insertvalue %c, %0[0] : !llvm.struct<(i8, i32, f64, ptr)>
  %2 = llvm.insertvalue %i, %1[1] : !llvm.struct<(i8, i32, f64, ptr)>
  %3 = llvm.insertvalue %f, %2[2] : !llvm.struct<(i8, i32, f64, ptr)>
  %4 = llvm.insertvalue %p, %3[3] : !llvm.struct<(i8, i32, f64, ptr)>
  llvm.return %4 : !llvm.struct<(i8, i32, f64, ptr)>
}

llvm.func @show(%v: i64) {
  llvm.call @printI64(%v) : (i64) -> ()
  llvm.call @printNewline() : () -> ()
  llvm.return
}

llvm.func @showf(%v: f64) {
  llvm.call @printF64(%v) : (f64) -> ()
  llvm.call @printNewline() : () -> ()
  llvm.return
}

llvm.func @fact(%n: i64) -> i64 {
  %one = llvm.mlir.constant(1 : i64) : i64
  %le = llvm.icmp "sle" %n, %one : i64
  llvm.cond_br %le, ^base, ^rec
^base:
  llvm.return %one : i64
^rec:
  %m = llvm.sub %n, %one : i64
  %r = llvm.call @fact(%m) : (i64) -> i64
  %p = llvm.mul %n, %r : i64
  llvm.return %p : i64
}

// Sums the i32 table with a counted loop of branches.
llvm.func @sum(%p: !llvm.ptr, %n: i64) -> i64 {
  %z = llvm.mlir.constant(0 : i64) : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^head(%z, %z : i64, i64)
^head(%i: i64, %acc: i64):
  %done = llvm.icmp "sge" %i, %n : i64
  llvm.cond_br %done, ^exit, ^body
^body:
  %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  %v = llvm.load %q : !llvm.ptr -> i32
  %w = llvm.sext %v : i32 to i64
  %a = llvm.add %acc, %w : i64
  %i1 = llvm.add %i, %one : i64
  llvm.br ^head(%i1, %a : i64, i64)
^exit:
  llvm.return %acc : i64
}

llvm.func @classify(%x: i32) -> i64 {
  llvm.switch %x : i32, ^other [
    1: ^one,
    4: ^four(%x : i32)
  ]
^one:
  %a = llvm.mlir.constant(100 : i64) : i64
  llvm.return %a : i64
^four(%y: i32):
  %b = llvm.zext %y : i32 to i64
  %c = llvm.mlir.constant(400 : i64) : i64
  %d = llvm.add %b, %c : i64
  llvm.return %d : i64
^other:
  %e = llvm.mlir.constant(-1 : i64) : i64
  llvm.return %e : i64
}

llvm.func @main() {
  %s = llvm.mlir.addressof @hello : !llvm.ptr
  llvm.call @printString(%s) : (!llvm.ptr) -> ()

  %five = llvm.mlir.constant(5 : i64) : i64
  %f = llvm.call @fact(%five) : (i64) -> i64
  llvm.call @show(%f) : (i64) -> ()

  %t = llvm.mlir.addressof @table : !llvm.ptr
  %sum = llvm.call @sum(%t, %five) : (!llvm.ptr, i64) -> i64
  llvm.call @show(%sum) : (i64) -> ()

  // Switch arms, with and without block arguments.
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  %c9 = llvm.mlir.constant(9 : i32) : i32
  %k1 = llvm.call @classify(%c1) : (i32) -> i64
  %k4 = llvm.call @classify(%c4) : (i32) -> i64
  %k9 = llvm.call @classify(%c9) : (i32) -> i64
  llvm.call @show(%k1) : (i64) -> ()
  llvm.call @show(%k4) : (i64) -> ()
  llvm.call @show(%k9) : (i64) -> ()

  // The struct global: fields at their data-layout offsets (0, 4, 8, 16).
  %r = llvm.mlir.addressof @rec : !llvm.ptr
  %rv = llvm.load %r : !llvm.ptr -> !llvm.struct<(i8, i32, f64, ptr)>
  %r0 = llvm.extractvalue %rv[0] : !llvm.struct<(i8, i32, f64, ptr)>
  %r0w = llvm.sext %r0 : i8 to i64
  llvm.call @show(%r0w) : (i64) -> ()
  %pi = llvm.getelementptr %r[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i8, i32, f64, ptr)>
  %iv = llvm.load %pi : !llvm.ptr -> i32
  %ivw = llvm.sext %iv : i32 to i64
  llvm.call @show(%ivw) : (i64) -> ()
  %pf = llvm.getelementptr %r[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i8, i32, f64, ptr)>
  %fv = llvm.load %pf : !llvm.ptr -> f64
  llvm.call @showf(%fv) : (f64) -> ()
  %r3 = llvm.extractvalue %rv[3] : !llvm.struct<(i8, i32, f64, ptr)>
  %same = llvm.icmp "eq" %r3, %t : !llvm.ptr
  %samew = llvm.zext %same : i1 to i64
  llvm.call @show(%samew) : (i64) -> ()
  %off = llvm.ptrtoint %pf : !llvm.ptr to i64
  %base = llvm.ptrtoint %r : !llvm.ptr to i64
  %delta = llvm.sub %off, %base : i64
  llvm.call @show(%delta) : (i64) -> ()

  // An array of structs on the stack, written field by field and read back whole.
  %two = llvm.mlir.constant(2 : i64) : i64
  %arr = llvm.alloca %two x !llvm.struct<(i16, f32, array<2 x i8>)> : (i64) -> !llvm.ptr
  %e1f = llvm.getelementptr %arr[1, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i16, f32, array<2 x i8>)>
  %h = llvm.mlir.constant(0.75 : f32) : f32
  llvm.store %h, %e1f : f32, !llvm.ptr
  %e1b = llvm.getelementptr %arr[1, 2, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i16, f32, array<2 x i8>)>
  %m3 = llvm.mlir.constant(-3 : i8) : i8
  llvm.store %m3, %e1b : i8, !llvm.ptr
  %e1 = llvm.getelementptr %arr[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i16, f32, array<2 x i8>)>
  %sv = llvm.load %e1 : !llvm.ptr -> !llvm.struct<(i16, f32, array<2 x i8>)>
  %sf = llvm.extractvalue %sv[1] : !llvm.struct<(i16, f32, array<2 x i8>)>
  %sfd = llvm.fpext %sf : f32 to f64
  llvm.call @showf(%sfd) : (f64) -> ()
  %sb = llvm.extractvalue %sv[2, 1] : !llvm.struct<(i16, f32, array<2 x i8>)>
  %sbw = llvm.sext %sb : i8 to i64
  llvm.call @show(%sbw) : (i64) -> ()
  %e1i = llvm.ptrtoint %e1 : !llvm.ptr to i64
  %a0i = llvm.ptrtoint %arr : !llvm.ptr to i64
  %stride = llvm.sub %e1i, %a0i : i64
  llvm.call @show(%stride) : (i64) -> ()

  // Heap memory, memset and memcpy, casts and intrinsics.
  %n40 = llvm.mlir.constant(40 : i64) : i64
  %m = llvm.call @malloc(%n40) : (i64) -> !llvm.ptr
  %byte = llvm.mlir.constant(1 : i8) : i8
  "llvm.intr.memset"(%m, %byte, %n40) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
  %w0 = llvm.load %m : !llvm.ptr -> i64
  llvm.call @show(%w0) : (i64) -> ()
  %n20 = llvm.mlir.constant(20 : i64) : i64
  "llvm.intr.memcpy"(%m, %t, %n20) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  %s2 = llvm.call @sum(%m, %five) : (!llvm.ptr, i64) -> i64
  llvm.call @show(%s2) : (i64) -> ()
  llvm.call @free(%m) : (!llvm.ptr) -> ()
  %hv = llvm.mlir.addressof @halves : !llvm.ptr
  %h1p = llvm.getelementptr %hv[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x f64>
  %h1 = llvm.load %h1p : !llvm.ptr -> f64
  %sq = llvm.intr.sqrt(%h1) : (f64) -> f64
  llvm.call @showf(%sq) : (f64) -> ()
  %neg = llvm.fneg %h1 : f64
  %ab = llvm.intr.fabs(%neg) : (f64) -> f64
  %fm = llvm.intr.fma(%ab, %ab, %h1) : (f64, f64, f64) -> f64
  llvm.call @showf(%fm) : (f64) -> ()
  %fi = llvm.fptosi %fm : f64 to i32
  %fiw = llvm.sext %fi : i32 to i64
  llvm.call @show(%fiw) : (i64) -> ()
  %big = llvm.mlir.constant(305419896 : i32) : i32
  %bs = llvm.intr.bswap(%big) : (i32) -> i32
  %bsw = llvm.zext %bs : i32 to i64
  llvm.call @show(%bsw) : (i64) -> ()
  %pc = llvm.intr.ctpop(%big) : (i32) -> i32
  %pcw = llvm.zext %pc : i32 to i64
  llvm.call @show(%pcw) : (i64) -> ()
  %tr = llvm.trunc %big : i32 to i8
  %trw = llvm.sext %tr : i8 to i64
  llvm.call @show(%trw) : (i64) -> ()
  %mx = llvm.intr.smax(%fiw, %trw) : (i64, i64) -> i64
  llvm.call @show(%mx) : (i64) -> ()
  %fl = llvm.sitofp %trw : i64 to f32
  %fb = llvm.bitcast %fl : f32 to i32
  %fbw = llvm.zext %fb : i32 to i64
  llvm.call @show(%fbw) : (i64) -> ()
  %tt = llvm.mlir.constant(true) : i1
  %sel = llvm.select %tt, %fiw, %trw : i1, i64
  llvm.call @show(%sel) : (i64) -> ()
  %ur = llvm.urem %big, %c9 : i32
  %urw = llvm.zext %ur : i32 to i64
  llvm.call @show(%urw) : (i64) -> ()
  %sh = llvm.lshr %big, %c4 : i32
  %shw = llvm.zext %sh : i32 to i64
  llvm.call @show(%shw) : (i64) -> ()

  // libm, as math lowered to library calls uses it.
  %hf = llvm.mlir.constant(0.5 : f32) : f32
  %th = llvm.call @tanhf(%hf) : (f32) -> f32
  %thd = llvm.fpext %th : f32 to f64
  llvm.call @showf(%thd) : (f64) -> ()
  %pw = llvm.call @pow(%h1, %h1) : (f64, f64) -> f64
  llvm.call @showf(%pw) : (f64) -> ()
  llvm.return
}
