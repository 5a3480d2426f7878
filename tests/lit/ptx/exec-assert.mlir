// cf.assert and gpu.printf in a gpu.func, through mlir-opt's NVVM pipeline to PTX (a call of
// __assertfail, and of vprintf with its packed arguments), run by the PTX kernel engine: with
// n = 4 every thread passes the assertion and prints (%lld of an index, %d of an i8, %f of an
// f32); with n = 2 threads 2 and 3 fail it, each printing the line CUDA's device runtime prints,
// and the launch fails at the call, naming the assertion's message, file and line and the first
// thread that failed it.

// RUN: %mlir_opt %s -gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=isa" > %t.ptx.mlir
// RUN: %gpuinterp %t.ptx.mlir | FileCheck %s --check-prefix=PASS
// RUN: not %gpuinterp -e fail %t.ptx.mlir 2>&1 | FileCheck %s --check-prefix=FAIL

// PASS: t 0 of 4: 2, 0.500000
// PASS-NEXT: t 1 of 4: 2, 1.500000
// PASS-NEXT: t 2 of 4: 2, 2.500000
// PASS-NEXT: t 3 of 4: 2, 3.500000
// PASS-NEXT: done

// FAIL: t 0 of 2: 2, 0.500000
// FAIL-NEXT: t 1 of 2: 2, 1.500000
// FAIL-NEXT: {{^.*}}exec-assert.mlir:[[#LINE:@LINE+16]]: (unknown): block: [0,0,0], thread: [2,0,0] Assertion `thread id below n` failed.
// FAIL-NEXT: {{^.*}}exec-assert.mlir:[[#LINE]]: (unknown): block: [0,0,0], thread: [3,0,0] Assertion `thread id below n` failed.
// FAIL-NEXT: {{^}}@kernels.ptx:{{[0-9]+}}:{{[0-9]+}}: error: 'call.uni' op assertion failed: thread id below n ({{.*}}exec-assert.mlir:[[@LINE+14]], in {{.*}}) (thread (2, 0, 0) of block (0, 0, 0))
// FAIL-NEXT: call.uni __assertfail
// FAIL: note: in the kernel launched here
// FAIL-NOT: done
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%n: i32) kernel {
      %t = gpu.thread_id x
      %i = arith.index_cast %t : index to i32
      %c = arith.cmpi slt, %i, %n : i32
      %two = arith.constant 2 : i8
      %half = arith.constant 0.5 : f32
      %f = arith.sitofp %i : i32 to f32
      %x = arith.addf %f, %half : f32
      cf.assert %c, "thread id below n"
      gpu.printf "t %lld of %d: %d, %f\n", %t, %n, %two, %x : index, i32, i8, f32
      gpu.return
    }
  }
  func.func @run(%n: i32) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%n : i32)
    vector.print str "done\n"
    return
  }
  func.func @main() {
    %n = arith.constant 4 : i32
    call @run(%n) : (i32) -> ()
    return
  }
  func.func @fail() {
    %n = arith.constant 2 : i32
    call @run(%n) : (i32) -> ()
    return
  }
}
