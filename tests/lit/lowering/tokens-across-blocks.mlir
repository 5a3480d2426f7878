// Tokens that cross block boundaries keep one meaning when lowered: streams, each destroyed
// exactly once. The lowered run prints the same and the simulator finds nothing (no misuse,
// no race, no leak); mlir-runner on libmgpusim.so agrees after upstream's standard conversions.
// RUN: %gpuinterp --lower %s -o %t.mlir
// RUN: %mlir_opt %t.mlir > /dev/null
// RUN: %gpuinterp --sched=serial %s 2>&1 | FileCheck %s --implicit-check-not=warning --implicit-check-not=error
// RUN: %gpuinterp --sched=serial %t.mlir 2>&1 | FileCheck %s --implicit-check-not=warning --implicit-check-not=error
// RUN: %gpuinterp --sched=random:7 %t.mlir 2>&1 | FileCheck %s --implicit-check-not=warning --implicit-check-not=error
// RUN: %gpuinterp --sched=threads %t.mlir 2>&1 | FileCheck %s --implicit-check-not=warning --implicit-check-not=error
// RUN: %mlir_opt %t.mlir --convert-scf-to-cf --convert-cf-to-llvm --convert-index-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts | %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim 2>&1 | FileCheck %s --implicit-check-not=warning --implicit-check-not=error
// RUN: %gpuinterp --lower %s | FileCheck %s --check-prefix=CALLS

// The callee borrows its argument's stream: it waits for it on a new stream, which it returns.
// CALLS-LABEL: func.func @copy_in
// CALLS: %[[E:[0-9a-z_]+]] = llvm.call @mgpuEventCreate()
// CALLS-NEXT: llvm.call @mgpuEventRecord(%[[E]], %arg0)
// CALLS-NEXT: %[[S:[0-9a-z_]+]] = llvm.call @mgpuStreamCreate()
// CALLS-NEXT: llvm.call @mgpuStreamWaitEvent(%[[S]], %[[E]])
// CALLS-NEXT: llvm.call @mgpuEventDestroy(%[[E]])
// CALLS: llvm.call @mgpuMemcpy({{.*}}, %[[S]])
// CALLS-NOT: mgpuStreamDestroy
// CALLS: return %[[S]] : !llvm.ptr
// The loop carries a stream: both copies of an iteration go on it, the first after waiting for
// the memset's stream, which is read every iteration and destroyed after the loop.
// CALLS-LABEL: func.func @main
// CALLS: scf.for {{.*}} iter_args(%[[ACC:[0-9a-z_]+]] = %{{.*}}) -> (!llvm.ptr)
// CALLS: llvm.call @mgpuEventRecord(%[[E2:[0-9a-z_]+]], %[[MS:[0-9a-z_]+]])
// CALLS-NEXT: llvm.call @mgpuStreamWaitEvent(%[[ACC]], %[[E2]])
// CALLS: llvm.call @mgpuMemcpy({{.*}}, %[[ACC]])
// CALLS: llvm.call @mgpuMemcpy({{.*}}, %[[ACC]])
// CALLS: scf.yield %[[ACC]] : !llvm.ptr
// CALLS: llvm.call @mgpuStreamDestroy(%[[MS]])
// Both branches of the scf.if give it a stream of their own.
// CALLS: scf.if
// CALLS: scf.yield %{{.*}} : !llvm.ptr
// CALLS: } else {
// CALLS: llvm.call @mgpuStreamCreate()
// CALLS: scf.yield %{{.*}} : !llvm.ptr
// Two synchronous waits on one token: the stream is destroyed once, after the second.
// CALLS: llvm.call @mgpuStreamSynchronize(%[[LAST:[0-9a-z_]+]])
// CALLS-NEXT: llvm.call @mgpuStreamSynchronize(%[[LAST]])
// CALLS-NEXT: llvm.call @mgpuStreamDestroy(%[[LAST]])
// CALLS-NOT: llvm.call @mgpuStreamDestroy(%[[LAST]])

// CHECK: [2,  2,  2,  2]
module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)

  func.func @copy_in(%t: !gpu.async.token, %dev: memref<4xf32>, %host: memref<4xf32>) -> !gpu.async.token {
    %t1 = gpu.memcpy async [%t] %dev, %host : memref<4xf32>, memref<4xf32>
    return %t1 : !gpu.async.token
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %true = arith.constant true
    %f1 = arith.constant 1.0 : f32
    %f2 = arith.constant 2.0 : f32
    %host = memref.alloc() : memref<4xf32>
    %back = memref.alloc() : memref<4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %host[%i] : memref<4xf32>
    }
    %t0 = gpu.wait async
    %dev, %ta = gpu.alloc async [%t0] () : memref<4xf32>
    %d2, %tb = gpu.alloc async [%t0] () : memref<4xf32>
    %t1 = func.call @copy_in(%ta, %dev, %host) : (!gpu.async.token, memref<4xf32>, memref<4xf32>) -> !gpu.async.token
    %t2 = gpu.memset async [%tb] %d2, %f1 : memref<4xf32>, f32
    %t3 = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %t1) -> (!gpu.async.token) {
      %n = gpu.memcpy async [%acc, %t2] %d2, %dev : memref<4xf32>, memref<4xf32>
      %m = gpu.memcpy async [%n] %dev, %d2 : memref<4xf32>, memref<4xf32>
      scf.yield %m : !gpu.async.token
    }
    %t4 = scf.if %true -> (!gpu.async.token) {
      %x = gpu.memset async [%t3] %d2, %f2 : memref<4xf32>, f32
      scf.yield %x : !gpu.async.token
    } else {
      scf.yield %t3 : !gpu.async.token
    }
    %t5 = gpu.memcpy async [%t4, %t3] %back, %d2 : memref<4xf32>, memref<4xf32>
    gpu.wait [%t5]
    gpu.wait [%t5]
    %u = memref.cast %back : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.dealloc %dev : memref<4xf32>
    gpu.dealloc %d2 : memref<4xf32>
    memref.dealloc %host : memref<4xf32>
    memref.dealloc %back : memref<4xf32>
    return
  }
}
