// Host registration and host-shared memory in the lowered form: mgpuMemHostRegisterMemRef hands a
// malloc block to the device, host stores go into memory from mgpuMemAlloc(host_shared) and the
// device copies between the two. Our interpreter runs the lowered form and the high-level form
// with the same output and nothing to report. mlir-runner with libmgpusim.so prints the same, but
// its host stores are invisible to the library (compiled code does not report them), so the sim
// takes the copy for a read of memory nobody wrote: our interpreter sees every host store.

// RUN: %mlir_opt %s --convert-scf-to-cf --gpu-to-llvm --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts > %t.ll.mlir
// RUN: %gpuinterp %t.ll.mlir 2> %t.err | sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' > %t.ours
// RUN: count 0 < %t.err
// RUN: %gpuinterp --sched=serial %t.ll.mlir 2> %t.err | sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' | diff %t.ours -
// RUN: count 0 < %t.err
// RUN: %gpuinterp %s 2> %t.err | sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' | diff %t.ours -
// RUN: count 0 < %t.err
// RUN: not %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim %t.ll.mlir 2> %t.rerr | sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' | diff %t.ours -
// RUN: FileCheck --check-prefix=RUNNER %s < %t.rerr
// RUN: FileCheck %s < %t.ours

// CHECK: [4.5,  5.5,  6.5]
// CHECK-NEXT: 5.5

// RUNNER: mgpusim: mgpuMemcpy#1: error: 'mgpuMemcpy#1' reads bytes [0, 12) of the host-shared memory allocated at 'mgpuMemAlloc#1' before anything wrote them [uninitialized]

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %f = arith.constant 4.5 : f32
  %h = memref.alloc() : memref<3xf32>
  %hu = memref.cast %h : memref<3xf32> to memref<*xf32>
  gpu.host_register %hu : memref<*xf32>
  // Host-shared memory, written by the host and copied into the registered buffer.
  %s = gpu.alloc host_shared () : memref<3xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.sitofp %ii : i32 to f32
    %w = arith.addf %v, %f : f32
    memref.store %w, %s[%i] : memref<3xf32>
  }
  %t0 = gpu.wait async
  %t1 = gpu.memcpy async [%t0] %h, %s : memref<3xf32>, memref<3xf32>
  gpu.wait [%t1]
  call @printMemrefF32(%hu) : (memref<*xf32>) -> ()
  %x = memref.load %s[%c1] : memref<3xf32>
  vector.print %x : f32
  gpu.host_unregister %hu : memref<*xf32>
  %t2 = gpu.wait async
  %t3 = gpu.dealloc async [%t2] %s : memref<3xf32>
  gpu.wait [%t3]
  memref.dealloc %h : memref<3xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)
