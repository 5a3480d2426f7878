// MGPUSIM_TRACE writes the run's trace at exit. Chrome Trace Event JSON (for a name ending in
// .json) parses and has a track per stream and a flow per happens-before edge; the text form under the serial
// scheduler is deterministic and matches the golden trace in traces/golden/.

// RUN: %mlir_opt --gpu-to-llvm %s > %t.ll.mlir
// RUN: env MGPUSIM_TRACE=%t.json %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim %t.ll.mlir > /dev/null 2>&1
// RUN: %python -m json.tool %t.json > /dev/null
// RUN: %python %S/Inputs/check_chrome_trace.py %t.json | FileCheck --check-prefix=JSON %s
// RUN: env MGPUSIM_SCHED=serial MGPUSIM_TRACE=%t.txt %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim %t.ll.mlir > /dev/null 2>&1
// RUN: diff -u %root/traces/golden/runner-join.txt %t.txt
// RUN: env MGPUSIM_SCHED=serial MGPUSIM_TRACE=- MGPUSIM_TRACE_FORMAT=text %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim %t.ll.mlir 2>/dev/null | FileCheck --check-prefix=TEXT %s

// JSON: tracks: host stream 2 stream 3 stream 6 violations
// JSON: workers: {{(host thread|worker [0-9]+)( worker [0-9]+)*$}}
// JSON: ops: 3 calls: 20 flows: 3
// JSON: flow kinds: event=2 sync=1
// JSON: violation: leak
// JSON: violation: leak

// The text form goes to stdout with "-", after what the program printed.
// TEXT: [1,  1,  1,  1]
// TEXT: trace v1
// TEXT: host:
// TEXT: call mgpuEventRecord at mgpuEventRecord#1: event 3 on stream 2
// TEXT: edge event op 1 (mgpuMemset32#1) -> op 3 (mgpuMemcpy#1)
// TEXT: edge event op 2 (mgpuMemset32#2) -> op 3 (mgpuMemcpy#1)
// TEXT: stream 6:
// TEXT-NEXT: start op 3 mgpuMemcpy
// TEXT: violations:
// TEXT-NEXT: leak host: mgpuStreamCreate#1: stream created here was never destroyed

func.func @main() {
  %f1 = arith.constant 1.0 : f32
  %h = memref.alloc() : memref<4xf32>
  %t0 = gpu.wait async
  %t1 = gpu.wait async
  %a, %ta = gpu.alloc async [%t0] () : memref<4xf32>
  %sa = gpu.memset async [%ta] %a, %f1 : memref<4xf32>, f32
  %b, %tb = gpu.alloc async [%t1] () : memref<4xf32>
  %sb = gpu.memset async [%tb] %b, %f1 : memref<4xf32>, f32
  %j = gpu.wait async [%sa, %sb]
  %c = gpu.memcpy async [%j] %h, %a : memref<4xf32>, memref<4xf32>
  %fa = gpu.dealloc async [%c] %a : memref<4xf32>
  %fb = gpu.dealloc async [%fa] %b : memref<4xf32>
  gpu.wait [%fb]
  %u = memref.cast %h : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %h : memref<4xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>)
