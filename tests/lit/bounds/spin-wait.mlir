// Waits that only concurrency could end, under the schedulers that give none. Under serial and
// random, device work runs on the host's thread, only when the host submits or waits for it:
//   - @kernel_waits: the kernel polls a flag the host sets after the launch. Under serial the
//     kernel runs inside the launch and the host never gets to set it; the note says why.
//   - @host_waits: the host polls a flag the kernel sets, without waiting for the kernel. Under
//     serial the kernel has run by then (the load races with its store, which is reported); under
//     random:1 it has not, and never will: the note names the pending launch. The same in the
//     lowered form.
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp -e kernel_waits --sched=serial --max-steps=100000 %s 2>&1 | FileCheck %s --check-prefix=KSER
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp -e kernel_waits --sched=serial --timeout=0.2 %s 2>&1 | FileCheck %s --check-prefix=KSER
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp -e host_waits --sched=random:1 --max-steps=100000 %s 2>&1 | FileCheck %s --check-prefix=HRND
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp -e host_waits --sched=random:1 --timeout=0.2 %s 2>&1 | FileCheck %s --check-prefix=HRND
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp -e host_waits --sched=serial --max-steps=100000 %s 2>&1 | FileCheck %s --check-prefix=HSER
// RUN: %gpuinterp --lower %s -o %t.lowered.mlir
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp -e host_waits --sched=random:1 --max-steps=100000 %t.lowered.mlir 2>&1 | FileCheck %s --check-prefix=HRND

// KSER: spin-wait.mlir:{{3[2-7]}}:{{[0-9]+}}: error: {{step|time}} limit of {{100000|0.2 s}} reached
// KSER: spin-wait.mlir:[[@LINE+38]]:10: note: in thread (0, 0, 0) of block (0, 0, 0), running '{{.*}}' in the kernel launched here
// KSER: note: if the kernel waits for the host or for other device work: under --sched=serial it runs on the host's thread, from the launch or a wait, and nothing else runs until it ends (--sched=threads runs them side by side)
// KSER-NOT: error:
// HRND: spin-wait.mlir:{{7[0-6]}}:{{[0-9]+}}: error: {{step|time}} limit of {{100000|0.2 s}} reached
// HRND: note: on the host, running '{{.*}}' in '@host_waits'
// HRND: spin-wait.mlir:[[@LINE+46]]:10: note: the host appears to be spin-waiting on device work that has not run (1 op pending, the first from here): under --sched=random, device work runs only when the host submits work or waits for it, never while the host polls memory
// HRND-NOT: error:
// HSER: error: data race (read-write): 'memref.load' ([[@LINE+46]]:12, host) reads and 'gpu.launch_func' @k::@set_flag ([[@LINE+44]]:10) writes
// HSER-NOT: error:
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @wait_flag(%f: memref<1xi32>) kernel {
      %c0 = arith.constant 0 : index
      %z = arith.constant 0 : i32
      scf.while : () -> () {
        %v = memref.load %f[%c0] : memref<1xi32>
        %go = arith.cmpi eq, %v, %z : i32
        scf.condition(%go)
      } do {
        scf.yield
      }
      gpu.return
    }
    gpu.func @set_flag(%f: memref<1xi32>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
      memref.store %one, %f[%c0] : memref<1xi32>
      gpu.return
    }
  }
  func.func @kernel_waits() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %f = gpu.alloc host_shared () : memref<1xi32>
    memref.store %z, %f[%c0] : memref<1xi32>
    %t = gpu.wait async
    %k = gpu.launch_func async [%t] @k::@wait_flag blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%f : memref<1xi32>)
    memref.store %one, %f[%c0] : memref<1xi32>
    gpu.wait [%k]
    gpu.dealloc %f : memref<1xi32>
    return
  }
  func.func @host_waits() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0 : i32
    %f = gpu.alloc host_shared () : memref<1xi32>
    memref.store %z, %f[%c0] : memref<1xi32>
    %t = gpu.wait async
    %k = gpu.launch_func async [%t] @k::@set_flag blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%f : memref<1xi32>)
    scf.while : () -> () {
      %v = memref.load %f[%c0] : memref<1xi32>
      %go = arith.cmpi eq, %v, %z : i32
      scf.condition(%go)
    } do {
      scf.yield
    }
    gpu.wait [%k]
    gpu.dealloc %f : memref<1xi32>
    return
  }
}
