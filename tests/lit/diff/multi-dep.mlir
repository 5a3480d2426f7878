// MLIR 22 leaves an op with several dependencies unconverted (a gpu.memcpy with two tokens) and
// uses the tokens' streams as if they were one: the checker names the op, the orderings lost and
// the misuse that follows.
// RUN: %mlir_opt --gpu-to-llvm -mlir-print-debuginfo %s -o %t.ll.mlir
// RUN: not %gpuinterp --diff %s --against %t.ll.mlir 2> %t.err | count 0
// RUN: FileCheck %s < %t.err

// CHECK: multi-dep.mlir:[[#@LINE+18]]:8: error: 'gpu.memcpy' op was left unconverted by the lowering
// CHECK: error: the lowered program's output differs from the program's at line 2: '[0,  0,  0,  0]' instead of '[2,  2,  2,  2]'
// CHECK: note: witness: --sched=serial
// CHECK: multi-dep.mlir:[[#@LINE+8]]:8: error: the final contents of the buffer allocated here by 'memref.alloc' (occurrence 1) differ: byte 3 is 0x40 in the program and 0x00 in the lowered program
// CHECK: multi-dep.mlir:[[#@LINE+14]]:8: error: the lowering lost the ordering of 'gpu.memset' at {{.*}}multi-dep.mlir:[[#@LINE+12]]:9 and 'gpu.memcpy' here
// CHECK: note: in the lowered program nothing orders mgpuMemset32 and 'gpu.memcpy'
// CHECK: error: the lowering lost the ordering of 'gpu.memset' at {{.*}}multi-dep.mlir:[[#@LINE+11]]:9 and 'gpu.memcpy' here
// CHECK: error: the lowered program has a misuse the program does not have: expects a stream, got a token

func.func @main() {
  %f = arith.constant 2.0 : f32
  %h = memref.alloc() : memref<4xf32>
  %a = gpu.wait async
  %d, %t1 = gpu.alloc async [%a] () : memref<4xf32>
  %b = gpu.wait async
  %e, %t2 = gpu.alloc async [%b] () : memref<4xf32>
  %m1 = gpu.memset async [%t1] %d, %f : memref<4xf32>, f32
  %m2 = gpu.memset async [%t2] %e, %f : memref<4xf32>, f32
  %c = gpu.memcpy async [%m1, %m2] %d, %e : memref<4xf32>, memref<4xf32>
  %c2 = gpu.memcpy async [%c] %h, %d : memref<4xf32>, memref<4xf32>
  gpu.wait [%c2]
  %u = memref.cast %h : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %h : memref<4xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)
