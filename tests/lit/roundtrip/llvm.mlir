// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// llvm dialect: functions (decls, linkage, variadic, attributes), calls,
// constants (scalar, dense, string), zero/poison/undef, addressof and
// globals (constant, internal, strings, with initializer regions,
// address spaces, alignment), aggregates, getelementptr (constant and
// dynamic indices, struct fields), memory ops with alignment and volatile,
// casts, integer/float arithmetic with flags, icmp/fcmp predicates,
// select, control flow (br, cond_br, switch), intrinsics, atomics
// (atomicrmw, cmpxchg, fence, atomic load/store).

llvm.mlir.global internal constant @str("Hello, %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global external @counter(0 : i32) {alignment = 4 : i64} : i32
llvm.mlir.global private @buf() {addr_space = 3 : i32} : !llvm.array<64 x f32>
llvm.mlir.global external @ext_global() : i64
llvm.mlir.global internal @table(dense<[1, 2, 3, 4]> : tensor<4xi32>) : !llvm.array<4 x i32>
llvm.mlir.global linkonce @with_init() : !llvm.struct<(i32, ptr)> {
  %0 = llvm.mlir.undef : !llvm.struct<(i32, ptr)>
  %1 = llvm.mlir.constant(7 : i32) : i32
  %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<(i32, ptr)>
  %3 = llvm.mlir.addressof @counter : !llvm.ptr
  %4 = llvm.insertvalue %3, %2[1] : !llvm.struct<(i32, ptr)>
  llvm.return %4 : !llvm.struct<(i32, ptr)>
}

llvm.func @printf(!llvm.ptr, ...) -> i32
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.func internal @internal_fn(%arg0: i32) -> i32 attributes {passthrough = ["noinline"]} {
  llvm.return %arg0 : i32
}
llvm.func @noret() -> !llvm.void

llvm.func @constants() -> !llvm.struct<(i32, f64)> {
  %0 = llvm.mlir.constant(42 : i32) : i32
  %1 = llvm.mlir.constant(1.5 : f64) : f64
  %2 = llvm.mlir.constant(dense<[1.0, 2.0]> : vector<2xf32>) : vector<2xf32>
  %3 = llvm.mlir.constant(true) : i1
  %4 = llvm.mlir.constant(-1 : i64) : i64
  %5 = llvm.mlir.constant(0 : index) : i64
  %6 = llvm.mlir.zero : !llvm.ptr
  %7 = llvm.mlir.poison : i32
  %8 = llvm.mlir.undef : !llvm.struct<(i32, f64)>
  %9 = llvm.insertvalue %0, %8[0] : !llvm.struct<(i32, f64)>
  %10 = llvm.insertvalue %1, %9[1] : !llvm.struct<(i32, f64)>
  %11 = llvm.extractvalue %10[0] : !llvm.struct<(i32, f64)>
  %12 = llvm.mlir.zero : !llvm.struct<(i32, array<2 x f32>)>
  %13 = llvm.extractvalue %12[1, 0] : !llvm.struct<(i32, array<2 x f32>)>
  %14 = llvm.mlir.constant("abc\00") : !llvm.array<4 x i8>
  %15 = llvm.mlir.zero : !llvm.ptr<1>
  llvm.return %10 : !llvm.struct<(i32, f64)>
}

llvm.func @memory(%n: i64, %p: !llvm.ptr, %q: !llvm.ptr<3>) -> f32 {
  %one = llvm.mlir.constant(1 : i32) : i32
  %a = llvm.alloca %one x f32 : (i32) -> !llvm.ptr
  %b = llvm.alloca %n x i64 {alignment = 16 : i64} : (i64) -> !llvm.ptr
  %g0 = llvm.getelementptr %p[%n] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %g1 = llvm.getelementptr inbounds %p[1, 1, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, array<4 x f32>)>
  %g2 = llvm.getelementptr %p[0, %n] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<8 x f32>
  %g3 = llvm.getelementptr %q[%n] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
  %v = llvm.load %g0 : !llvm.ptr -> f32
  %w = llvm.load %g1 {alignment = 4 : i64} : !llvm.ptr -> f32
  %x = llvm.load volatile %g2 : !llvm.ptr -> f32
  llvm.store %v, %a : f32, !llvm.ptr
  llvm.store %w, %a {alignment = 8 : i64} : f32, !llvm.ptr
  llvm.store volatile %x, %a : f32, !llvm.ptr
  %y = llvm.load %g3 : !llvm.ptr<3> -> i8
  %s = llvm.mlir.addressof @str : !llvm.ptr
  %c = llvm.call @printf(%s, %one) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
  %m = llvm.call @malloc(%n) : (i64) -> !llvm.ptr
  llvm.call @free(%m) : (!llvm.ptr) -> ()
  %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
  llvm.return %v : f32
}

llvm.func @casts(%i: i32, %l: i64, %f: f32, %p: !llvm.ptr, %p1: !llvm.ptr<1>) {
  %0 = llvm.bitcast %i : i32 to f32
  %1 = llvm.ptrtoint %p : !llvm.ptr to i64
  %2 = llvm.inttoptr %l : i64 to !llvm.ptr
  %3 = llvm.addrspacecast %p : !llvm.ptr to !llvm.ptr<1>
  %4 = llvm.addrspacecast %p1 : !llvm.ptr<1> to !llvm.ptr
  %5 = llvm.sext %i : i32 to i64
  %6 = llvm.zext %i : i32 to i64
  %7 = llvm.trunc %l : i64 to i32
  %8 = llvm.sitofp %i : i32 to f32
  %9 = llvm.uitofp %i : i32 to f64
  %10 = llvm.fptosi %f : f32 to i32
  %11 = llvm.fptoui %f : f32 to i64
  %12 = llvm.fpext %f : f32 to f64
  %13 = llvm.fptrunc %12 : f64 to f16
  %14 = llvm.bitcast %p : !llvm.ptr to !llvm.ptr
  %15 = llvm.zext nneg %i : i32 to i64
  llvm.return
}

llvm.func @arith(%a: i32, %b: i32, %x: f32, %y: f32) -> i1 {
  %0 = llvm.add %a, %b : i32
  %1 = llvm.add %a, %b overflow<nsw> : i32
  %2 = llvm.sub %a, %b overflow<nuw> : i32
  %3 = llvm.mul %a, %b overflow<nsw, nuw> : i32
  %4 = llvm.sdiv %a, %b : i32
  %5 = llvm.udiv %a, %b : i32
  %6 = llvm.srem %a, %b : i32
  %7 = llvm.urem %a, %b : i32
  %8 = llvm.and %a, %b : i32
  %9 = llvm.or %a, %b : i32
  %10 = llvm.xor %a, %b : i32
  %11 = llvm.shl %a, %b : i32
  %12 = llvm.lshr %a, %b : i32
  %13 = llvm.ashr %a, %b : i32
  %14 = llvm.fadd %x, %y : f32
  %15 = llvm.fsub %x, %y {fastmathFlags = #llvm.fastmath<fast>} : f32
  %16 = llvm.fmul %x, %y : f32
  %17 = llvm.fdiv %x, %y {fastmathFlags = #llvm.fastmath<nnan, ninf>} : f32
  %18 = llvm.frem %x, %y : f32
  %19 = llvm.fneg %x : f32
  %20 = llvm.icmp "eq" %a, %b : i32
  %21 = llvm.icmp "ne" %a, %b : i32
  %22 = llvm.icmp "slt" %a, %b : i32
  %23 = llvm.icmp "sle" %a, %b : i32
  %24 = llvm.icmp "sgt" %a, %b : i32
  %25 = llvm.icmp "sge" %a, %b : i32
  %26 = llvm.icmp "ult" %a, %b : i32
  %27 = llvm.icmp "ule" %a, %b : i32
  %28 = llvm.icmp "ugt" %a, %b : i32
  %29 = llvm.icmp "uge" %a, %b : i32
  %30 = llvm.fcmp "oeq" %x, %y : f32
  %31 = llvm.fcmp "olt" %x, %y : f32
  %32 = llvm.fcmp "une" %x, %y : f32
  %33 = llvm.fcmp "uno" %x, %y : f32
  %34 = llvm.fcmp "_true" %x, %y : f32
  %35 = llvm.fcmp "ogt" %x, %y {fastmathFlags = #llvm.fastmath<nnan>} : f32
  %36 = llvm.select %20, %a, %b : i1, i32
  %37 = llvm.or disjoint %a, %b : i32
  %38 = llvm.udiv exact %a, %b : i32
  %39 = llvm.intr.smax(%a, %b) : (i32, i32) -> i32
  %40 = llvm.intr.fma(%x, %y, %x) : (f32, f32, f32) -> f32
  %41 = llvm.intr.sqrt(%x) : (f32) -> f32
  llvm.return %20 : i1
}

llvm.func @control(%c: i1, %a: i32, %b: i32) -> i32 {
  llvm.cond_br %c, ^bb1(%a : i32), ^bb2
^bb1(%x: i32):
  llvm.br ^bb3(%x : i32)
^bb2:
  llvm.switch %b : i32, ^bb3(%b : i32) [
    1: ^bb3(%a : i32),
    7: ^bb4
  ]
^bb3(%r: i32):
  llvm.return %r : i32
^bb4:
  llvm.unreachable
}

llvm.func @cond_br_weights(%c: i1) {
  llvm.cond_br %c weights([3, 1]), ^bb1, ^bb1
^bb1:
  llvm.return
}

llvm.func @atomics(%p: !llvm.ptr, %v: i32, %f: f32, %q: !llvm.ptr<3>, %n: i64) -> i32 {
  %0 = llvm.atomicrmw add %p, %v monotonic : !llvm.ptr, i32
  %1 = llvm.atomicrmw xchg %p, %v seq_cst : !llvm.ptr, i32
  %2 = llvm.atomicrmw max %p, %v acq_rel : !llvm.ptr, i32
  %3 = llvm.atomicrmw umin %p, %v acquire : !llvm.ptr, i32
  %4 = llvm.atomicrmw fadd %p, %f release : !llvm.ptr, f32
  %5 = llvm.atomicrmw volatile sub %q, %v syncscope("block") monotonic {alignment = 4 : i64} : !llvm.ptr<3>, i32
  %6 = llvm.cmpxchg %p, %v, %0 acq_rel monotonic : !llvm.ptr, i32
  %7 = llvm.extractvalue %6[0] : !llvm.struct<(i32, i1)>
  %8 = llvm.cmpxchg weak %p, %v, %1 seq_cst seq_cst {alignment = 4 : i64} : !llvm.ptr, i32
  llvm.fence acquire
  llvm.fence syncscope("agent") seq_cst
  %9 = llvm.load %p atomic monotonic {alignment = 4 : i64} : !llvm.ptr -> i32
  llvm.store %v, %p atomic release {alignment = 4 : i64} : i32, !llvm.ptr
  "llvm.intr.memcpy"(%p, %p, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  %byte = llvm.trunc %v : i32 to i8
  "llvm.intr.memset"(%p, %byte, %n) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
  llvm.return %7 : i32
}
