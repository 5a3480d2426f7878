// A launch that fails ends the run while kernels launched before it may still be queued (a
// random schedule runs ops at host waits). Their tokens were released after their last use, so
// the end of the run must wait for them through the launches' own references: no "token used
// after it was released", and (under ASan) no launch freed while its kernel is yet to run.
// RUN: not %gpuinterp --sched=random:7 %s 2>&1 | FileCheck %s
// RUN: not %gpuinterp --sched=random:8 %s 2>&1 | FileCheck %s
// RUN: not %gpuinterp --sched=threads %s 2>&1 | FileCheck %s
// CHECK-NOT: released
// CHECK: error: 'gpu.launch_func' op block size 0 in dimension x is not in [1, 1024]
// CHECK-NOT: released

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @inc(%m: memref<16xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %m[%i] : memref<16xf32>
      %c = arith.constant 1.0 : f32
      %y = arith.addf %x, %c : f32
      memref.store %y, %m[%i] : memref<16xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %f0 = arith.constant 0.0 : f32
    %d, %t0 = gpu.alloc async () : memref<16xf32>
    %t1 = gpu.memset async [%t0] %d, %f0 : memref<16xf32>, f32
    %t2 = gpu.launch_func async [%t1] @k::@inc blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%d : memref<16xf32>)
    %t3 = gpu.launch_func async [%t2] @k::@inc blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%d : memref<16xf32>)
    %t4 = gpu.launch_func async [%t3] @k::@inc blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%d : memref<16xf32>)
    %t5 = gpu.launch_func async [%t4] @k::@inc blocks in (%c1, %c1, %c1) threads in (%c0, %c1, %c1) args(%d : memref<16xf32>)
    %x = gpu.dealloc async [%t5] %d : memref<16xf32>
    gpu.wait [%x]
    return
  }
}
