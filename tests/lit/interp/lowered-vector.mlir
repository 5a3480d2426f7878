// 1-D vectors in the lowered form, by our interpreter and by mlir-runner on the same file:
// elementwise float and integer ops and comparisons (through arith's lanes), a vector stored and
// loaded at its 16-byte layout, extractelement, insertelement, shufflevector and reductions.
// (The element ops are in the generic form: our front end has no custom form for them yet.)

// RUN: %gpuinterp %s > %t.ours
// RUN: %mlir_runner %s -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 | diff %t.ours -
// RUN: FileCheck %s < %t.ours

// CHECK:      18
// CHECK-NEXT: 32
// CHECK-NEXT: 25.5
// CHECK-NEXT: 18
// CHECK-NEXT: 24
// CHECK-NEXT: 0

llvm.func @printI64(i64)
llvm.func @printF64(f64)
llvm.func @printNewline()
llvm.func @malloc(i64) -> !llvm.ptr

llvm.func @showf(%v: f32) {
  %d = llvm.fpext %v : f32 to f64
  llvm.call @printF64(%d) : (f64) -> ()
  llvm.call @printNewline() : () -> ()
  llvm.return
}

llvm.func @show(%v: i32) {
  %d = llvm.sext %v : i32 to i64
  llvm.call @printI64(%d) : (i64) -> ()
  llvm.call @printNewline() : () -> ()
  llvm.return
}

llvm.func @main() {
  %a = llvm.mlir.constant(dense<[1.0, 2.5, -3.0, 4.0]> : vector<4xf32>) : vector<4xf32>
  %b = llvm.fadd %a, %a : vector<4xf32>
  %c = llvm.fmul %b, %a : vector<4xf32>
  // Through memory: a vector<4xf32> takes 16 bytes.
  %n = llvm.mlir.constant(64 : i64) : i64
  %p = llvm.call @malloc(%n) : (i64) -> !llvm.ptr
  %q = llvm.getelementptr %p[1] : (!llvm.ptr) -> !llvm.ptr, vector<4xf32>
  llvm.store %c, %q : vector<4xf32>, !llvm.ptr
  %i2 = llvm.mlir.constant(6 : i64) : i64
  %e = llvm.getelementptr %p[%i2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %s = llvm.load %e : !llvm.ptr -> f32
  llvm.call @showf(%s) : (f32) -> ()
  %l = llvm.load %q : !llvm.ptr -> vector<4xf32>
  %k = llvm.mlir.constant(3 : i32) : i32
  %x = "llvm.extractelement"(%l, %k) : (vector<4xf32>, i32) -> f32
  llvm.call @showf(%x) : (f32) -> ()
  %z = llvm.mlir.constant(0 : i32) : i32
  %h = llvm.mlir.constant(0.5 : f32) : f32
  %m = "llvm.insertelement"(%l, %h, %z) : (vector<4xf32>, f32, i32) -> vector<4xf32>
  %sh = "llvm.shufflevector"(%m, %a) <{mask = array<i32: 7, 0, 2, 5>}> : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  %r = "llvm.intr.vector.reduce.fadd"(%h, %sh) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, vector<4xf32>) -> f32
  llvm.call @showf(%r) : (f32) -> ()
  %mx = "llvm.intr.vector.reduce.fmax"(%sh) <{fastmathFlags = #llvm.fastmath<none>}> : (vector<4xf32>) -> f32
  llvm.call @showf(%mx) : (f32) -> ()
  // Integer lanes: compare, select, reduce.
  %iv = llvm.fptosi %sh : vector<4xf32> to vector<4xi32>
  %zero = llvm.mlir.constant(dense<0> : vector<4xi32>) : vector<4xi32>
  %neg = llvm.icmp "slt" %iv, %zero : vector<4xi32>
  %abs = llvm.sub %zero, %iv : vector<4xi32>
  %pos = llvm.select %neg, %abs, %iv : vector<4xi1>, vector<4xi32>
  %sum = "llvm.intr.vector.reduce.add"(%pos) : (vector<4xi32>) -> i32
  llvm.call @show(%sum) : (i32) -> ()
  %smin = "llvm.intr.vector.reduce.smin"(%iv) : (vector<4xi32>) -> i32
  llvm.call @show(%smin) : (i32) -> ()
  llvm.return
}
