// Tree reductions in shared memory (Inputs/exec/tree.ptx) whose steps, two ld.shared of a run of
// threads, an f32 add or sub and an st.shared, run as one pass (kernel/ptx_mem.c, fused streams
// in shared memory), and the mistakes such a reduction makes, each reported as the steps run one
// instruction at a time report it:
//   sums     @reduce over 2 blocks of 256 threads, @odd over 2 blocks of 96 (runs of 48, 24, 12,
//            6 and 3 threads): each block's sum of its elements 0, 1, 2, ...;
//   diffs    @reduce with its first step `sh[tid] = sh[tid + s] - sh[tid]` (the op's sources
//            swapped) over elements i * i mod 1009, fused, against the same step run one
//            instruction at a time (its result read twice);
//   nobar    the barrier after the step of 64 threads dropped: the next step's threads 0..31 read
//            what threads 32..63 wrote;
//   near     the step of 64 threads reads sh[tid + 1]: thread 1 writes what thread 0 read;
//   tail     the first step reads sh[tid + 129]: thread 127 reads past the 1024 bytes;
//   div      a barrier inside the first step: 128 of 256 threads reach it;
//   short    two blocks, one output element: block 1's thread 0 alone stores past its end.
// RUN: python3 %S/Inputs/exec/embed.py %S/Inputs/exec/tree.ptx %s > %t.mlir
// RUN: %gpuinterp -e sums %t.mlir 2>&1 | FileCheck %s --check-prefix=SUMS
// RUN: %gpuinterp --sched=serial --race-check=off -e sums %t.mlir 2>&1 | FileCheck %s --check-prefix=SUMS
// RUN: sed -E 's/add\.rn\.f32(\s+)%r6, %r4, %r5/sub.rn.f32\1%r6, %r5, %r4/' %S/Inputs/exec/tree.ptx > %t.sub.ptx
// RUN: sed -E 's/(sub\.rn\.f32\s+)(%r[0-9]+), (.*)$/\1\2, \3\n\tmov.b32 %r0, \2;/' %t.sub.ptx > %t.subref.ptx
// RUN: python3 %S/Inputs/exec/embed.py %t.sub.ptx %s > %t.sub.mlir
// RUN: python3 %S/Inputs/exec/embed.py %t.subref.ptx %s > %t.subref.mlir
// RUN: %gpuinterp -e diffs %t.sub.mlir > %t.sub.out 2>&1
// RUN: %gpuinterp -e diffs %t.subref.mlir > %t.subref.out 2>&1
// RUN: cat %t.sub.out %t.subref.out | FileCheck %s --check-prefix=DIFFS
// RUN: sed '/AFTER64/d' %S/Inputs/exec/tree.ptx > %t.nobar.ptx
// RUN: python3 %S/Inputs/exec/embed.py %t.nobar.ptx %s > %t.nobar.mlir
// RUN: not %gpuinterp -e one %t.nobar.mlir 2>&1 | FileCheck %s --check-prefix=NOBAR
// RUN: sed 's/+256\]; \/\/ NEAR/+4]; \/\/ NEAR/' %S/Inputs/exec/tree.ptx > %t.near.ptx
// RUN: python3 %S/Inputs/exec/embed.py %t.near.ptx %s > %t.near.mlir
// RUN: not %gpuinterp -e one %t.near.mlir 2>&1 | FileCheck %s --check-prefix=NEAR
// RUN: sed 's/+512\]; \/\/ TAIL/+516]; \/\/ TAIL/' %S/Inputs/exec/tree.ptx > %t.tail.ptx
// RUN: python3 %S/Inputs/exec/embed.py %t.tail.ptx %s > %t.tail.mlir
// RUN: not %gpuinterp -e one %t.tail.mlir 2>&1 | FileCheck %s --check-prefix=TAIL
// RUN: not %gpuinterp --race-check=off -e one %t.tail.mlir 2>&1 | FileCheck %s --check-prefix=TAIL
// RUN: sed 's/^\(.*\/\/ DIV\)$/\tbar.sync 0;\n\1/' %S/Inputs/exec/tree.ptx > %t.div.ptx
// RUN: python3 %S/Inputs/exec/embed.py %t.div.ptx %s > %t.div.mlir
// RUN: not %gpuinterp -e one %t.div.mlir 2>&1 | FileCheck %s --check-prefix=DIV
// RUN: not %gpuinterp -e short %t.mlir 2>&1 | FileCheck %s --check-prefix=SHORT
// SUMS: [32640,  98176]
// SUMS: [4560,  13776]
// SUMS-NOT: error
// DIFFS: {{^}}[[SUB:\[.*\]]]{{$}}
// DIFFS-NOT: error
// DIFFS: {{^}}[[SUB]]{{$}}
// DIFFS-NOT: error
// NOBAR: {{^}}@k.ptx:{{[0-9]+}}:2: error: 'ld.shared.b32' op data race in shared memory: reads bytes [128, 132), which thread (32, 0, 0) wrote at 'st.shared.b32' ({{[0-9]+}}:2) with no gpu.barrier in between (thread (0, 0, 0) of block (0, 0, 0))
// NEAR: {{^}}@k.ptx:{{[0-9]+}}:2: error: 'st.shared.b32' op data race in shared memory: writes bytes [4, 8), which other threads read at 'ld.shared.b32' (58:2) with no gpu.barrier in between (thread (1, 0, 0) of block (0, 0, 0))
// TAIL: {{^}}@k.ptx:{{[0-9]+}}:2: error: 'ld.shared.b32' op out-of-bounds access: 4 bytes at offset 1024 of the block's shared memory (1024 bytes) (thread (127, 0, 0) of block (0, 0, 0))
// SHORT: {{^}}@k.ptx:{{[0-9]+}}:2: error: 'st.global.b32' op out-of-bounds store: bytes [4, 8) of the memref passed as kernel operand 1: element 1 is not in [0, 1) (thread (0, 0, 0) of block (1, 0, 0))
// DIV: {{^}}@k.ptx:{{[0-9]+}}:2: error: 'bar.sync' op divergent barrier: 128 of 256 threads reached it: (0, 0, 0), {{.*}}; 128 did not: (128, 0, 0), {{.*}} (block (0, 0, 0))
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]

  func.func private @printMemrefF32(memref<*xf32>)

  // h[i] = i * s + o, or (i * i mod 1009) * s + o when sq
  func.func @fill(%h: memref<?xf32>, %n: index, %s: f32, %o: f32, %sq: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1009 = arith.constant 1009 : index
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.muli %i, %i : index
      %r = arith.remui %ii, %c1009 : index
      %x = arith.select %sq, %r, %i : index
      %w = arith.index_cast %x : index to i32
      %f = arith.sitofp %w : i32 to f32
      %m = arith.mulf %f, %s : f32
      %v = arith.addf %m, %o : f32
      memref.store %v, %h[%i] : memref<?xf32>
    }
    return
  }

  // the sums of nb blocks of bd threads over @fill's elements, printed (into nout elements)
  func.func @run_into(%nb: index, %bd: index, %s: f32, %o: f32, %sq: i1, %odd: i1, %nout: index) {
    %c1 = arith.constant 1 : index
    %n = arith.muli %nb, %bd : index
    %h = memref.alloc(%n) : memref<?xf32>
    call @fill(%h, %n, %s, %o, %sq) : (memref<?xf32>, index, f32, f32, i1) -> ()
    %in = gpu.alloc (%n) : memref<?xf32>
    %out = gpu.alloc host_shared (%nout) : memref<?xf32>
    gpu.memcpy %in, %h : memref<?xf32>, memref<?xf32>
    scf.if %odd {
      gpu.launch_func @k::@odd blocks in (%nb, %c1, %c1) threads in (%bd, %c1, %c1)
          args(%in : memref<?xf32>, %out : memref<?xf32>)
    } else {
      gpu.launch_func @k::@reduce blocks in (%nb, %c1, %c1) threads in (%bd, %c1, %c1)
          args(%in : memref<?xf32>, %out : memref<?xf32>)
    }
    %u = memref.cast %out : memref<?xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.dealloc %in : memref<?xf32>
    gpu.dealloc %out : memref<?xf32>
    memref.dealloc %h : memref<?xf32>
    return
  }

  func.func @run(%nb: index, %bd: index, %s: f32, %o: f32, %sq: i1, %odd: i1) {
    call @run_into(%nb, %bd, %s, %o, %sq, %odd, %nb) : (index, index, f32, f32, i1, i1, index) -> ()
    return
  }

  func.func @short() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c256 = arith.constant 256 : index
    %one = arith.constant 1.0 : f32
    %zero = arith.constant 0.0 : f32
    %f = arith.constant false
    call @run_into(%c2, %c256, %one, %zero, %f, %f, %c1) : (index, index, f32, f32, i1, i1, index) -> ()
    return
  }

  func.func @sums() {
    %c2 = arith.constant 2 : index
    %c96 = arith.constant 96 : index
    %c256 = arith.constant 256 : index
    %one = arith.constant 1.0 : f32
    %zero = arith.constant 0.0 : f32
    %t = arith.constant true
    %f = arith.constant false
    call @run(%c2, %c256, %one, %zero, %f, %f) : (index, index, f32, f32, i1, i1) -> ()
    call @run(%c2, %c96, %one, %zero, %f, %t) : (index, index, f32, f32, i1, i1) -> ()
    return
  }

  func.func @diffs() {
    %c3 = arith.constant 3 : index
    %c256 = arith.constant 256 : index
    %s = arith.constant 0.375 : f32
    %o = arith.constant -5.0 : f32
    %t = arith.constant true
    %f = arith.constant false
    call @run(%c3, %c256, %s, %o, %t, %f) : (index, index, f32, f32, i1, i1) -> ()
    return
  }

  func.func @one() {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %one = arith.constant 1.0 : f32
    %zero = arith.constant 0.0 : f32
    %f = arith.constant false
    call @run(%c1, %c256, %one, %zero, %f, %f) : (index, index, f32, f32, i1, i1) -> ()
    return
  }
}
