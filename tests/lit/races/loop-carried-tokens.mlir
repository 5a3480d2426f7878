// Tokens an scf.for carries to its next iteration are owned by the loop (interp/gpu.c, "tokens
// carried by scf.for"): each is dropped as the yield puts the next in its place. Dropping a token
// must not drop what the race checker knows of its op. Loops of 1000 iterations:
//   chain              memsets chained through the carried token, then a copy back: no race
//   unordered_in_body  two memsets of each iteration wait for the carried token only
//   after_loop         a memset after the loop waits for none of the loop's
//   dropped_dep        each iteration's memset waits for nothing; the carried token joins it
// RUN: %gpuinterp --sched=serial -e chain %s 2>&1 | FileCheck %s --check-prefix=CHAIN
// RUN: %gpuinterp --sched=threads -e chain %s 2>&1 | FileCheck %s --check-prefix=CHAIN
// RUN: env GPUINTERP_RACE_ORACLE=1 %gpuinterp --sched=random:4 -e chain %s 2>&1 | FileCheck %s --check-prefix=CHAIN
// RUN: %gpuinterp --diff --seeds=2 -e chain %s
// CHAIN-NOT: error
// CHAIN: [999,  999,  999,  999]
// CHAIN-NOT: error
// RUN: not %gpuinterp --sched=serial -e unordered_in_body %s 2>&1 | FileCheck %s --check-prefix=BODY
// RUN: not %gpuinterp --sched=threads -e unordered_in_body %s 2>&1 | FileCheck %s --check-prefix=BODY
// RUN: env GPUINTERP_RACE_ORACLE=1 not %gpuinterp --sched=random:4 -e unordered_in_body %s 2>&1 | FileCheck %s --check-prefix=BODY
// BODY: [[@LINE+43]]:12: error: data race (write-write): 'gpu.memset' ([[@LINE+43]]:12) writes and 'gpu.memset' ([[@LINE+42]]:12) writes bytes [0, 16)
// BODY: gpuinterp: 1 error
// RUN: not %gpuinterp --sched=serial -e after_loop %s 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: not %gpuinterp --sched=threads -e after_loop %s 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: env GPUINTERP_RACE_ORACLE=1 not %gpuinterp --sched=random:4 -e after_loop %s 2>&1 | FileCheck %s --check-prefix=AFTER
// AFTER: [[@LINE+59]]:10: error: data race (write-write): 'gpu.memset' ([[@LINE+59]]:10) writes and 'gpu.memset' ([[@LINE+56]]:12) writes bytes [0, 16)
// AFTER: gpuinterp: 1 error
// RUN: not %gpuinterp --sched=serial -e dropped_dep %s 2>&1 | FileCheck %s --check-prefix=DROP
// RUN: not %gpuinterp --sched=threads -e dropped_dep %s 2>&1 | FileCheck %s --check-prefix=DROP
// RUN: env GPUINTERP_RACE_ORACLE=1 not %gpuinterp --sched=random:4 -e dropped_dep %s 2>&1 | FileCheck %s --check-prefix=DROP
// DROP: [[@LINE+69]]:12: error: data race (write-write): 'gpu.memset' ([[@LINE+69]]:12) writes and 'gpu.memset' ([[@LINE+69]]:12) writes bytes [0, 16)
// DROP: gpuinterp: 1 error

module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @chain() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 1000 : index
    %h = memref.alloc() : memref<4xf32>
    %d, %t0 = gpu.alloc async () : memref<4xf32>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %t0) -> (!gpu.async.token) {
      %ii = arith.index_cast %i : index to i32
      %fi = arith.sitofp %ii : i32 to f32
      %a = gpu.memset async [%t] %d, %fi : memref<4xf32>, f32
      scf.yield %a : !gpu.async.token
    }
    %t1 = gpu.memcpy async [%r] %h, %d : memref<4xf32>, memref<4xf32>
    gpu.wait [%t1]
    %u = memref.cast %h : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.dealloc %d : memref<4xf32>
    return
  }
  func.func @unordered_in_body() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 1000 : index
    %f1 = arith.constant 1.0 : f32
    %f2 = arith.constant 2.0 : f32
    %d, %t0 = gpu.alloc async () : memref<4xf32>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %t0) -> (!gpu.async.token) {
      %a = gpu.memset async [%t] %d, %f1 : memref<4xf32>, f32
      %b = gpu.memset async [%t] %d, %f2 : memref<4xf32>, f32
      %w = gpu.wait async [%a, %b]
      scf.yield %w : !gpu.async.token
    }
    gpu.wait [%r]
    gpu.dealloc %d : memref<4xf32>
    return
  }
  func.func @after_loop() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 1000 : index
    %f1 = arith.constant 1.0 : f32
    %f2 = arith.constant 2.0 : f32
    %d, %t0 = gpu.alloc async () : memref<4xf32>
    gpu.wait [%t0]
    %e = gpu.wait async
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %e) -> (!gpu.async.token) {
      %a = gpu.memset async [%t] %d, %f1 : memref<4xf32>, f32
      scf.yield %a : !gpu.async.token
    }
    %x = gpu.memset async %d, %f2 : memref<4xf32>, f32
    gpu.wait [%r, %x]
    gpu.dealloc %d : memref<4xf32>
    return
  }
  func.func @dropped_dep() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 1000 : index
    %d, %t0 = gpu.alloc async () : memref<4xf32>
    gpu.wait [%t0]
    %e = gpu.wait async
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %e) -> (!gpu.async.token) {
      %ii = arith.index_cast %i : index to i32
      %fi = arith.sitofp %ii : i32 to f32
      %a = gpu.memset async %d, %fi : memref<4xf32>, f32
      %w = gpu.wait async [%a, %t]
      scf.yield %w : !gpu.async.token
    }
    gpu.wait [%r]
    gpu.dealloc %d : memref<4xf32>
    return
  }
}
