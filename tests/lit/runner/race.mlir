// Two async copies on different streams write the same device buffer and nothing orders them:
// a write-write race, reported with both mgpu calls named, whatever the schedule (the result
// printed afterwards depends on it, so it is not checked).

// RUN: %mlir_opt --convert-scf-to-cf --gpu-to-llvm %s > %t.ll.mlir
// RUN: not %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim %t.ll.mlir 2>&1 >/dev/null | FileCheck %s
// RUN: env MGPUSIM_SCHED=serial not %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim %t.ll.mlir 2>&1 >/dev/null | FileCheck %s
// RUN: env MGPUSIM_SCHED=random:7 not %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim %t.ll.mlir 2>&1 >/dev/null | FileCheck %s

// Without race detection the run is clean (and wrong, silently).
// RUN: env MGPUSIM_RACE_CHECK=0 %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim %t.ll.mlir 2>&1 >/dev/null | count 0

// The text trace is the same under every scheduler; the golden one was written under serial.
// RUN: env MGPUSIM_SCHED=serial MGPUSIM_TRACE=%t.txt not %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim %t.ll.mlir > /dev/null 2>&1
// RUN: diff -u %root/traces/golden/runner-race.txt %t.txt
// RUN: env MGPUSIM_SCHED=random:99 MGPUSIM_TRACE=%t.txt not %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim %t.ll.mlir > /dev/null 2>&1
// RUN: diff -u %root/traces/golden/runner-race.txt %t.txt

// The trace shows the race as an instant with flows from both copies.
// RUN: env MGPUSIM_TRACE=%t.json not %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim %t.ll.mlir > /dev/null 2>&1
// RUN: %python %S/Inputs/check_chrome_trace.py %t.json | FileCheck --check-prefix=JSON %s
// JSON: flow kinds: {{.*}}violation=2
// JSON: violation: race mgpuMemcpy#2 mgpuMemcpy#1

// CHECK: mgpusim: mgpuMemcpy#2: error: data race (write-write): 'mgpuMemcpy#2' writes and 'mgpuMemcpy#1' writes bytes [0, 16) of the device memory allocated at 'mgpuMemAlloc#1'; nothing orders the two [race]
// CHECK-NEXT: mgpusim: mgpuMemcpy#1: note: the conflicting access
// CHECK-NEXT: mgpusim: mgpuMemAlloc#1: note: the memory was allocated here
// CHECK: mgpusim: 1 error

func.func @main() {
  %f1 = arith.constant 1.0 : f32
  %f2 = arith.constant 2.0 : f32
  %h1 = memref.alloc() : memref<4xf32>
  %h2 = memref.alloc() : memref<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %f1, %h1[%i] : memref<4xf32>
    memref.store %f2, %h2[%i] : memref<4xf32>
  }
  %t0 = gpu.wait async
  %d, %t1 = gpu.alloc async [%t0] () : memref<4xf32>
  gpu.wait [%t1]
  %ta = gpu.wait async
  %tb = gpu.wait async
  %a = gpu.memcpy async [%ta] %d, %h1 : memref<4xf32>, memref<4xf32>
  %b = gpu.memcpy async [%tb] %d, %h2 : memref<4xf32>, memref<4xf32>
  gpu.wait [%a]
  gpu.wait [%b]
  %t = gpu.wait async
  %c = gpu.memcpy async [%t] %h1, %d : memref<4xf32>, memref<4xf32>
  %e = gpu.dealloc async [%c] %d : memref<4xf32>
  gpu.wait [%e]
  %u = memref.cast %h1 : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %h1 : memref<4xf32>
  memref.dealloc %h2 : memref<4xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>)
