// The scalar printers as lowered code calls them: printF16/printBF16 take the bits (what lowered
// vector.print passes), printString a C string, printFlops writes GFLOPS to stderr.
// RUN: %gpuinterp %s > %t.ours 2> %t.ours.err
// RUN: %mlir_opt %s --convert-func-to-llvm --convert-arith-to-llvm --reconcile-unrealized-casts | %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 > %t.upstream 2> %t.upstream.err
// RUN: cmp %t.upstream %t.ours
// RUN: cmp %t.upstream.err %t.ours.err
// RUN: FileCheck %s < %t.ours
// RUN: FileCheck %s --check-prefix=ERR < %t.ours.err

llvm.func @printF16(i16)
llvm.func @printBF16(i16)
llvm.func @printString(!llvm.ptr)
llvm.func @printFlops(f64)
llvm.func @printNewline()
llvm.func @printComma()
llvm.mlir.global internal constant @hello("hello, world\0A\00") {addr_space = 0 : i32}

// CHECK: 1.25, -3838, 3.14062, -inf
// CHECK-NEXT: hello, world
// ERR: 2.500000 GFLOPS
func.func @main() {
  %h1 = arith.constant 15616 : i16
  %h2 = arith.constant -5249 : i16
  %b1 = arith.constant 16457 : i16
  %b2 = arith.constant -128 : i16
  llvm.call @printF16(%h1) : (i16) -> ()
  llvm.call @printComma() : () -> ()
  llvm.call @printF16(%h2) : (i16) -> ()
  llvm.call @printComma() : () -> ()
  llvm.call @printBF16(%b1) : (i16) -> ()
  llvm.call @printComma() : () -> ()
  llvm.call @printBF16(%b2) : (i16) -> ()
  llvm.call @printNewline() : () -> ()
  %p = llvm.mlir.addressof @hello : !llvm.ptr
  llvm.call @printString(%p) : (!llvm.ptr) -> ()
  %f = arith.constant 2.5e9 : f64
  llvm.call @printFlops(%f) : (f64) -> ()
  return
}
