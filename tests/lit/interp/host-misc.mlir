// The rest of the host ops: math.sincos, func.constant and func.call_indirect,
// memref.realloc, memory_space_cast, an over-aligned alloc and dealloc of an unranked memref.
// Upstream's lowering and mlir-runner print the same.
// RUN: %gpuinterp %s > %t.ours
// RUN: %mlir_opt %s --math-expand-ops --expand-realloc --convert-scf-to-cf --expand-strided-metadata --finalize-memref-to-llvm --convert-math-to-llvm --convert-math-to-libm --convert-func-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm --reconcile-unrealized-casts | %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 > %t.upstream
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' %t.ours > %t.ours.norm
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' %t.upstream > %t.upstream.norm
// RUN: cmp %t.upstream.norm %t.ours.norm
// RUN: FileCheck %s < %t.ours

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printF32(f32)
func.func private @printI64(i64)
func.func private @printComma()
func.func private @printNewline()

func.func @sq(%x: i64) -> i64 {
  %r = arith.muli %x, %x : i64
  return %r : i64
}

func.func @neg(%x: i64) -> i64 {
  %z = arith.constant 0 : i64
  %r = arith.subi %z, %x : i64
  return %r : i64
}

func.func @apply(%f: (i64) -> i64, %x: i64) -> i64 {
  %r = func.call_indirect %f(%x) : (i64) -> i64
  return %r : i64
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index

  // CHECK: 0.841471, 0.540302
  %one = arith.constant 1.0 : f32
  %s, %co = math.sincos %one : f32
  call @printF32(%s) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF32(%co) : (f32) -> ()
  call @printNewline() : () -> ()

  // CHECK-NEXT: 49, -7
  %fs = func.constant @sq : (i64) -> i64
  %fn = func.constant @neg : (i64) -> i64
  %seven = arith.constant 7 : i64
  %r1 = call @apply(%fs, %seven) : ((i64) -> i64, i64) -> i64
  %r2 = call @apply(%fn, %seven) : ((i64) -> i64, i64) -> i64
  call @printI64(%r1) : (i64) -> ()
  call @printComma() : () -> ()
  call @printI64(%r2) : (i64) -> ()
  call @printNewline() : () -> ()

  // an alloc aligned to 256 bytes
  // CHECK-NEXT: 0
  %a = memref.alloc() {alignment = 256 : i64} : memref<4xf32>
  %p = memref.extract_aligned_pointer_as_index %a : memref<4xf32> -> index
  %c256 = arith.constant 256 : index
  %mod = arith.remui %p, %c256 : index
  %modi = arith.index_cast %mod : index to i64
  call @printI64(%modi) : (i64) -> ()
  call @printNewline() : () -> ()

  // realloc keeps the contents (what follows them is undefined, so print only them)
  // CHECK-NEXT: Unranked Memref {{.*}} sizes = [4]
  // CHECK-NEXT: [0,  1,  2,  3]
  scf.for %i = %c0 to %c4 step %c1 {
    %x = arith.index_cast %i : index to i32
    %f = arith.sitofp %x : i32 to f32
    memref.store %f, %a[%i] : memref<4xf32>
  }
  %b = "memref.realloc"(%a) : (memref<4xf32>) -> memref<6xf32>
  %bs = memref.subview %b[0] [4] [1] : memref<6xf32> to memref<4xf32, strided<[1]>>
  %ubs = memref.cast %bs : memref<4xf32, strided<[1]>> to memref<*xf32>
  call @printMemrefF32(%ubs) : (memref<*xf32>) -> ()
  %ub = memref.cast %b : memref<6xf32> to memref<*xf32>

  // a memory space cast keeps the buffer
  // CHECK-NEXT: 1
  %ms = "memref.memory_space_cast"(%b) : (memref<6xf32>) -> memref<6xf32, 1>
  %v = memref.load %ms[%c1] : memref<6xf32, 1>
  call @printF32(%v) : (f32) -> ()
  call @printNewline() : () -> ()
  memref.dealloc %ub : memref<*xf32>
  return
}
