// gpu.launch_func on an explicit stream (`<%stream : !llvm.ptr>`, a stream from the mgpu* calls):
// the launch is ordered on the stream, after its token dependencies; with `async` its token
// stands for the stream's work. A host read not ordered after the stream's work is a race.
// RUN: not %gpuinterp %s 2>&1 | FileCheck %s
// CHECK: [0,  1,  2,  3]
// CHECK: [0,  2,  4,  6]
// CHECK: error: data race (read-write): {{'gpu.launch_func' @k::@fill \(39:5\) writes and '[a-z.]+' \(40:10, host\) reads|'[a-z.]+' \(40:10, host\) reads and 'gpu.launch_func' @k::@fill \(39:5\) writes}} bytes [0, 4) of the host-shared memory allocated by 'gpu.alloc' (28:10); nothing orders the two [race]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%m: memref<4xi32>, %f: i32) kernel {
      %tx = gpu.thread_id x
      %v = arith.index_cast %tx : index to i32
      %w = arith.muli %v, %f : i32
      memref.store %w, %m[%tx] : memref<4xi32>
      gpu.return
    }
  }
  llvm.func @mgpuStreamCreate() -> !llvm.ptr
  llvm.func @mgpuStreamSynchronize(!llvm.ptr)
  llvm.func @mgpuStreamDestroy(!llvm.ptr)
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %m = gpu.alloc host_shared () : memref<4xi32>
    %u = memref.cast %m : memref<4xi32> to memref<*xi32>
    %s = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    gpu.launch_func <%s : !llvm.ptr> @k::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<4xi32>, %one : i32)
    llvm.call @mgpuStreamSynchronize(%s) : (!llvm.ptr) -> ()
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] <%s : !llvm.ptr> @k::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<4xi32>, %two : i32)
    gpu.wait [%t1]
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    // no synchronization before the host load: a race
    gpu.launch_func <%s : !llvm.ptr> @k::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<4xi32>, %one : i32)
    %x = memref.load %m[%c0] : memref<4xi32>
    llvm.call @mgpuStreamSynchronize(%s) : (!llvm.ptr) -> ()
    llvm.call @mgpuStreamDestroy(%s) : (!llvm.ptr) -> ()
    gpu.dealloc %m : memref<4xi32>
    return
  }
}
