// Tokens are released after their last use when only gpu ops read them (interp/gpu.c, "token
// lifetime"), and kept when a value copies them. Each token below is read again after an op that
// could have been taken for its last use: inside a loop and an scf.if (their regions run before
// the op returns), after a token made in a loop's body, through iter_args, and as a dependency
// that the program never reads again. Releasing one too early would make a later use a "token
// used after it was released" error; the copies back show every ordering was kept, and --diff
// finds the lowering (which has no tokens) in agreement.
// RUN: %gpuinterp --sched=serial %s 2>&1 | FileCheck %s
// RUN: %gpuinterp --sched=threads %s 2>&1 | FileCheck %s
// RUN: %gpuinterp --sched=random:3 %s 2>&1 | FileCheck %s
// RUN: env GPUINTERP_RACE_ORACLE=1 %gpuinterp --sched=random:5 %s 2>&1 | FileCheck %s
// RUN: %gpuinterp --diff --seeds=2 %s
// CHECK-NOT: released
// CHECK-NOT: error
// CHECK: [1,  1,  1,  1]
// CHECK: [2,  2,  2,  2]
// CHECK: [4,  4,  4,  4]
// CHECK: [5,  5,  5,  5]
// CHECK-NOT: error

module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %true = arith.constant true
    %f1 = arith.constant 1.0 : f32
    %f2 = arith.constant 2.0 : f32
    %f4 = arith.constant 4.0 : f32
    %f5 = arith.constant 5.0 : f32
    %h = memref.alloc() : memref<4xf32>
    %u = memref.cast %h : memref<4xf32> to memref<*xf32>
    %d, %t0 = gpu.alloc async () : memref<4xf32>
    %t1 = gpu.memset async [%t0] %d, %f1 : memref<4xf32>, f32
    // %t1 is read in the loop, then after it
    scf.for %i = %c0 to %c3 step %c1 {
      %w = gpu.wait async [%t1]
      gpu.wait [%w]
    }
    %t2 = gpu.memcpy async [%t1] %h, %d : memref<4xf32>, memref<4xf32>
    gpu.wait [%t2]
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    // %t3 is read in an scf.if, then after it
    %t3 = gpu.memset async [%t2] %d, %f2 : memref<4xf32>, f32
    scf.if %true {
      %w = gpu.wait async [%t3]
      gpu.wait [%w]
    }
    %t4 = gpu.memcpy async [%t3] %h, %d : memref<4xf32>, memref<4xf32>
    gpu.wait [%t4]
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    // tokens made in a loop's body, one read there and one carried out through iter_args
    %tl = scf.for %i = %c0 to %c3 step %c1 iter_args(%tp = %t4) -> (!gpu.async.token) {
      %a = gpu.memset async [%tp] %d, %f4 : memref<4xf32>, f32
      %b = gpu.wait async [%a]
      scf.yield %b : !gpu.async.token
    }
    %t5 = gpu.memcpy async [%tl] %h, %d : memref<4xf32>, memref<4xf32>
    gpu.wait [%t5]
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    // a token no op reads is released at once; the op it stands for still orders what follows
    %t6 = gpu.memset async [%t5] %d, %f5 : memref<4xf32>, f32
    %unused = gpu.wait async [%t6]
    %t7 = gpu.memcpy async [%t6] %h, %d : memref<4xf32>, memref<4xf32>
    %x = gpu.dealloc async [%t7] %d : memref<4xf32>
    gpu.wait [%x]
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %h : memref<4xf32>
    return
  }
}
