// Hazards graded as compute-sanitizer's racecheck does. Every thread of a block stores the same
// value to one element of workgroup memory with no barrier between them: benign (a note, once
// per op and launch; a warning with --race-check=strict; the run exits 0), in the gpu.func form
// and once lowered by convert-gpu-to-nvvm. Storing different values (each thread its id), or
// reading the element back before a barrier, stays an error. Two launches nothing orders that
// store the same value to one device element race: an error, whatever the values.
// RUN: %root/tests/corpus-tools/exit-code.sh 0 %gpuinterp -e same %s 2>&1 | FileCheck --check-prefix=SAME %s
// RUN: %root/tests/corpus-tools/exit-code.sh 0 %gpuinterp -e same --race-check=strict %s 2>&1 | FileCheck --check-prefix=STRICT %s
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' -o %t.mlir
// RUN: %root/tests/corpus-tools/exit-code.sh 0 %gpuinterp -e same %t.mlir 2>&1 | FileCheck --check-prefix=SAME-LOWERED %s
// RUN: %root/tests/corpus-tools/exit-code.sh 0 %gpuinterp -e same --race-check=strict %t.mlir 2>&1 | FileCheck --check-prefix=STRICT %s
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp -e diff %s 2>&1 | FileCheck --check-prefix=DIFF %s
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp -e diff %t.mlir 2>&1 | FileCheck --check-prefix=DIFF %s
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp -e readback %s 2>&1 | FileCheck --check-prefix=READ %s
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp -e cross %s 2>&1 | FileCheck --check-prefix=CROSS %s
// --race-check=off, and its alias --no-race-check, check nothing; a bad mode is a usage error.
// RUN: %root/tests/corpus-tools/exit-code.sh 0 %gpuinterp -e diff --race-check=off %s 2>&1 | FileCheck --check-prefix=OFF %s
// RUN: %root/tests/corpus-tools/exit-code.sh 0 %gpuinterp -e diff --no-race-check %s 2>&1 | FileCheck --check-prefix=OFF %s
// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --race-check=sometimes %s 2>&1 | FileCheck --check-prefix=USAGE %s
// RUN: %gpuinterp --help | FileCheck --check-prefix=HELP %s
// OFF-NOT: race
// USAGE: gpuinterp: error: unknown race check 'sometimes' (expected: off, on or strict)
// HELP: --race-check=off|on|strict
// SAME-NOT: error:
// SAME-NOT: warning:
// SAME: gpu-benign-race.mlir:54:7: note: 'memref.store' op benign race in shared memory: writes bytes [0, 4) with the value thread (0, 0, 0) wrote there at 'memref.store' (54:7) with no gpu.barrier in between (thread (1, 0, 0) of block ({{[0-9]+}}, 0, 0)); reported once per op and launch
// SAME-NOT: note
// SAME: [7]
// SAME-NOT: error:
// SAME-NOT: warning:
// SAME-LOWERED-NOT: error:
// SAME-LOWERED: note: 'llvm.store' op benign race in shared memory: writes bytes [0, 4) with the value thread (0, 0, 0)
// SAME-LOWERED: [7]
// SAME-LOWERED-NOT: error:
// STRICT-NOT: error:
// STRICT: warning: '{{.*}}' op benign race in shared memory
// STRICT: [7]
// STRICT-NOT: error:
// DIFF: error: '{{.*}}' op data race in shared memory: writes a different value to bytes [0, 4), which thread (0, 0, 0) wrote at '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}) with no gpu.barrier in between (thread (1, 0, 0) of block ({{[0-9]+}}, 0, 0))
// DIFF-NOT: benign race
// READ: gpu-benign-race.mlir:57:14: error: 'memref.load' op data race in shared memory: reads bytes [0, 4), which thread (63, 0, 0) wrote at 'memref.store' (54:7) with no gpu.barrier in between (thread (0, 0, 0) of block ({{[0-9]+}}, 0, 0))
// CROSS: error: data race (write-write): 'gpu.launch_func' @k::@five ({{107|108}}:11) writes and 'gpu.launch_func' @k::@five ({{107|108}}:11) writes bytes [0, 4) of the device memory
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @same(%o: memref<1xi32>, %d: memref<1xi32>, %mode: i32) workgroup(%sh: memref<1xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %seven = arith.constant 7 : i32
      %id = arith.index_cast %tx : index to i32
      %isdiff = arith.cmpi eq, %mode, %c1 : i32
      %v = arith.select %isdiff, %id, %seven : i32
      memref.store %v, %sh[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      %isread = arith.cmpi eq, %mode, %c2 : i32
      scf.if %isread {
        %r = memref.load %sh[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
        memref.store %r, %d[%c0] : memref<1xi32>
      }
      gpu.barrier
      %is0 = arith.cmpi eq, %tx, %c0 : index
      scf.if %is0 {
        %w = memref.load %sh[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
        memref.store %w, %o[%c0] : memref<1xi32>
      }
      gpu.return
    }
    gpu.func @five(%d: memref<1xi32>) kernel {
      %c0 = arith.constant 0 : index
      %five = arith.constant 5 : i32
      memref.store %five, %d[%c0] : memref<1xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @run(%mode: i32) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %o = gpu.alloc host_shared () : memref<1xi32>
    %d = gpu.alloc host_shared () : memref<1xi32>
    gpu.launch_func @k::@same blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%o : memref<1xi32>, %d : memref<1xi32>, %mode : i32)
    %u = memref.cast %o : memref<1xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %o : memref<1xi32>
    gpu.dealloc %d : memref<1xi32>
    return
  }
  func.func @same() {
    %m = arith.constant 0 : i32
    call @run(%m) : (i32) -> ()
    return
  }
  func.func @diff() {
    %m = arith.constant 1 : i32
    call @run(%m) : (i32) -> ()
    return
  }
  func.func @readback() {
    %m = arith.constant 2 : i32
    call @run(%m) : (i32) -> ()
    return
  }
  func.func @cross() {
    %c1 = arith.constant 1 : index
    %d = gpu.alloc () : memref<1xi32>
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@five blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<1xi32>)
    %t2 = gpu.launch_func async [%t0] @k::@five blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<1xi32>)
    gpu.wait [%t1, %t2]
    gpu.dealloc %d : memref<1xi32>
    return
  }
}
