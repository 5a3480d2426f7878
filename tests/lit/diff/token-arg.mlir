// MLIR 22 lowers a token passed to a function as a stream in the caller and as an event in the
// callee (mgpuStreamWaitEvent(s, arg)): the ordering of the memset before the copy is lost.
// RUN: %mlir_opt --gpu-to-llvm -mlir-print-debuginfo %s -o %t.ll.mlir
// RUN: not %gpuinterp --diff %s --against %t.ll.mlir > %t.out 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: count 0 < %t.out

// CHECK: token-arg.mlir:[[#@LINE+10]]:9: error: the lowering lost the ordering of 'gpu.memset' at {{.*}}token-arg.mlir:[[#@LINE+20]]:9 and 'gpu.memcpy' here
// CHECK: note: 'gpu.memset' is here
// CHECK: note: in the lowered program mgpuMemset32 runs on stream {{[0-9]+}} and mgpuMemcpy on stream {{[0-9]+}}, with no mgpuStreamWaitEvent between them
// CHECK: note: witness: --sched=serial
// CHECK: error: the lowered program has a misuse the program does not have: expects an event, got a stream {{.*}} at mgpuStreamWaitEvent
// CHECK-NOT: lowered program has a race
// CHECK: warning: the lowered program leaks where the program does not

func.func @consume(%t: !gpu.async.token, %d: memref<4xf32>, %h: memref<4xf32>) {
  %t1 = gpu.wait async [%t]
  %t2 = gpu.memcpy async [%t1] %h, %d : memref<4xf32>, memref<4xf32>
  gpu.wait [%t2]
  return
}

func.func @main() {
  %f = arith.constant 1.5 : f32
  %h = memref.alloc() : memref<4xf32>
  %t0 = gpu.wait async
  %d, %t1 = gpu.alloc async [%t0] () : memref<4xf32>
  %t2 = gpu.memset async [%t1] %d, %f : memref<4xf32>, f32
  call @consume(%t2, %d, %h) : (!gpu.async.token, memref<4xf32>, memref<4xf32>) -> ()
  %u = memref.cast %h : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %h : memref<4xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>)
