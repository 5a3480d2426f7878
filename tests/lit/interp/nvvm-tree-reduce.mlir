// Tree reductions in shared memory (bench/kernels' reduction) as gpu.func and as their
// convert-gpu-to-nvvm lowering, with scf and with cf control flow: thread t adds sh[t + s] to
// sh[t] while t < s, s halving to 1 between barriers, and thread 0 stores the block's sum to
// out[block]. The lowered form's shared accesses are runs of threads at runs of elements (the
// prefix of `t < s`, a full mask), its result store one address per block.
//   @sums      sums of i32 (negative: sign extension), f32 (the bench's kernel), in blocks of one
//              row (256 threads, and 96 threads from s = 48: odd steps that drop elements) and
//              of 16 x 16 threads (indexed t = 16 y + x: rows of threads), and a run of
//              threads that starts at thread 40 (@upper: t >= 40 adds sh[t - 40] to sh[t]);
//   @race      no barrier between the steps: thread 0 reads sh[64] of step 2, which thread 64
//              wrote in step 1;
//   @oob       the second index one past: thread 127 reads past the 256 elements of shared memory;
//   @oob_in    the first load runs past the input's last element (block 3, thread 255);
//   @uninit    the input's last block was never written: its reads are uninitialized;
//   @tail      out has one element more than there are blocks: copying it back reads that one
//              uninitialized (so the blocks' stores recorded exactly their elements).
// RUN: %gpuinterp -e sums %s 2>&1 | FileCheck %s --check-prefix=SUMS
// RUN: not %gpuinterp -e race %s 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not %gpuinterp -e uninit %s 2>&1 | FileCheck %s --check-prefix=UNINIT
// RUN: not %gpuinterp -e tail %s 2>&1 | FileCheck %s --check-prefix=TAIL
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' -o %t.mlir
// RUN: FileCheck --check-prefix=LOWERED %s < %t.mlir
// RUN: %gpuinterp -e sums %t.mlir 2>&1 | FileCheck %s --check-prefix=SUMS
// RUN: %gpuinterp --sched=serial -e sums %t.mlir 2>&1 | FileCheck %s --check-prefix=SUMS
// RUN: not %gpuinterp -e race %t.mlir 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: %gpuinterp --no-race-check -e race %t.mlir 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: not %gpuinterp -e oob %t.mlir 2>&1 | FileCheck %s --check-prefix=OOB
// RUN: not %gpuinterp -e oob_in %t.mlir 2>&1 | FileCheck %s --check-prefix=OOBIN
// RUN: not %gpuinterp -e uninit %t.mlir 2>&1 | FileCheck %s --check-prefix=UNINIT
// RUN: not %gpuinterp -e tail %t.mlir 2>&1 | FileCheck %s --check-prefix=TAIL
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm))' -o %t.cf.mlir
// RUN: FileCheck --check-prefix=CF %s < %t.cf.mlir
// RUN: %gpuinterp -e sums %t.cf.mlir 2>&1 | FileCheck %s --check-prefix=SUMS
// RUN: not %gpuinterp -e race %t.cf.mlir 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not %gpuinterp -e oob %t.cf.mlir 2>&1 | FileCheck %s --check-prefix=OOB
// RUN: not %gpuinterp -e uninit %t.cf.mlir 2>&1 | FileCheck %s --check-prefix=UNINIT
// RUN: not %gpuinterp -e tail %t.cf.mlir 2>&1 | FileCheck %s --check-prefix=TAIL
// LOWERED: llvm.mlir.global internal @__wg_tree_0() {addr_space = 3 : i32} : !llvm.array<256 x i32>
// LOWERED: llvm.load {{.*}} : !llvm.ptr<3> -> i32
// LOWERED: nvvm.barrier0
// CF: llvm.cond_br
// SUMS: [-44160,  21376,  86912,  152448]
// SUMS: [32640,  98176,  163712,  229248]
// SUMS: [-44160,  21376,  86912,  152448]
// SUMS: [-560,  -558,  -556,  -554,  -552,  -550,  -548,  -546,  -544,  -542,  -540,  -538,  -536,  -534,  -532,  -530,  -528,  -526,  -524,  -522,  -520,  -518,  -516,  -514,  -432,  -430,  -428,  -426,  -424,  -422,  -420,  -418,  -416,  -414,  -412,  -410,  -408,  -406,  -404,  -402,  -400,  -398,  -396,  -394,  -392,  -390,  -388,  -386]
// SUMS: [-16192,  -10048,  -3904,  2240]
// SUMS-NOT: error
// RACE: error: '{{memref|llvm}}.load' op data race in shared memory: reads bytes [256, 260), which thread (64, 0, 0) wrote at '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}) with no gpu.barrier in between (thread (0, 0, 0) of block (0, 0, 0))
// OFF-NOT: error
// OFF: [-44160,  21376,  86912,  152448]
// OOB: error: 'llvm.load' op out-of-bounds access: 4 bytes at offset 1024 of the block's shared memory (1024 bytes) (thread (127, 0, 0) of block (0, 0, 0))
// OOB-NOT: error:
// OOBIN: error: 'llvm.load' op out-of-bounds load: bytes [4092, 4096) of the memref passed as kernel operand 0: element 1023 is not in [0, 1023) (thread (255, 0, 0) of block (3, 0, 0))
// OOBIN-NOT: error:
// UNINIT: error: 'gpu.launch_func' @k::@tree ({{.*}}) reads bytes [3072, 4096) of the device memory allocated by 'gpu.alloc' ({{.*}}) before anything wrote them [uninitialized]
// TAIL: error: 'gpu.memcpy' ({{.*}}) reads bytes [16, 20) of the device memory allocated by 'gpu.alloc' ({{.*}}) before anything wrote them [uninitialized]
// TAIL: [-44160,  21376,  86912,  152448,
module attributes {gpu.container_module} {
  gpu.module @k {
    // skew is added to the second index; sync false leaves out the barrier between steps
    gpu.func @tree(%in: memref<?xi32>, %out: memref<?xi32>, %start: index, %skew: index, %sync: i1)
        workgroup(%sh: memref<256xi32, #gpu.address_space<workgroup>>) kernel {
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %i0 = arith.muli %bx, %bd : index
      %i = arith.addi %i0, %tx : index
      %v = memref.load %in[%i] : memref<?xi32>
      memref.store %v, %sh[%tx] : memref<256xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = scf.while (%s = %start) : (index) -> index {
        %go = arith.cmpi ugt, %s, %c0 : index
        scf.condition(%go) %s : index
      } do {
      ^bb0(%s: index):
        %lo = arith.cmpi ult, %tx, %s : index
        scf.if %lo {
          %j0 = arith.addi %tx, %s : index
          %j = arith.addi %j0, %skew : index
          %a = memref.load %sh[%tx] : memref<256xi32, #gpu.address_space<workgroup>>
          %b = memref.load %sh[%j] : memref<256xi32, #gpu.address_space<workgroup>>
          %t = arith.addi %a, %b : i32
          memref.store %t, %sh[%tx] : memref<256xi32, #gpu.address_space<workgroup>>
        }
        scf.if %sync {
          gpu.barrier
        }
        %h = arith.divui %s, %c2 : index
        scf.yield %h : index
      }
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        %t = memref.load %sh[%c0] : memref<256xi32, #gpu.address_space<workgroup>>
        memref.store %t, %out[%bx] : memref<?xi32>
      }
      gpu.return
    }
    // bench/kernels' reduction as it is there
    gpu.func @treef(%in: memref<?xf32>, %out: memref<?xf32>)
        workgroup(%sh: memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %i0 = arith.muli %bx, %c256 : index
      %i = arith.addi %i0, %tx : index
      %v = memref.load %in[%i] : memref<?xf32>
      memref.store %v, %sh[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = scf.while (%s = %c128) : (index) -> index {
        %go = arith.cmpi ugt, %s, %c0 : index
        scf.condition(%go) %s : index
      } do {
      ^bb0(%s: index):
        %lo = arith.cmpi ult, %tx, %s : index
        scf.if %lo {
          %j = arith.addi %tx, %s : index
          %a = memref.load %sh[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
          %b = memref.load %sh[%j] : memref<256xf32, #gpu.address_space<workgroup>>
          %t = arith.addf %a, %b : f32
          memref.store %t, %sh[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %h = arith.divui %s, %c2 : index
        scf.yield %h : index
      }
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        %t = memref.load %sh[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %t, %out[%bx] : memref<?xf32>
      }
      gpu.return
    }
    // the same over 16 x 16 threads, thread (x, y) at 16 y + x
    gpu.func @tree2d(%in: memref<?xi32>, %out: memref<?xi32>)
        workgroup(%sh: memref<256xi32, #gpu.address_space<workgroup>>) kernel {
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c16 = arith.constant 16 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %y16 = arith.muli %ty, %c16 : index
      %t = arith.addi %y16, %tx : index
      %i0 = arith.muli %bx, %c256 : index
      %i = arith.addi %i0, %t : index
      %v = memref.load %in[%i] : memref<?xi32>
      memref.store %v, %sh[%t] : memref<256xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = scf.while (%s = %c128) : (index) -> index {
        %go = arith.cmpi ugt, %s, %c0 : index
        scf.condition(%go) %s : index
      } do {
      ^bb0(%s: index):
        %lo = arith.cmpi ult, %t, %s : index
        scf.if %lo {
          %j = arith.addi %t, %s : index
          %a = memref.load %sh[%t] : memref<256xi32, #gpu.address_space<workgroup>>
          %b = memref.load %sh[%j] : memref<256xi32, #gpu.address_space<workgroup>>
          %u = arith.addi %a, %b : i32
          memref.store %u, %sh[%t] : memref<256xi32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %h = arith.divui %s, %c2 : index
        scf.yield %h : index
      }
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %w = memref.load %sh[%c0] : memref<256xi32, #gpu.address_space<workgroup>>
        memref.store %w, %out[%bx] : memref<?xi32>
      }
      gpu.return
    }
    // threads t >= 40 of a block of 64 (a run that does not start at thread 0):
    // out[24 b + t - 40] = sh[t] + sh[t - 40]
    gpu.func @upper(%in: memref<?xi32>, %out: memref<?xi32>)
        workgroup(%sh: memref<256xi32, #gpu.address_space<workgroup>>) kernel {
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %c24 = arith.constant 24 : index
      %c40 = arith.constant 40 : index
      %c64 = arith.constant 64 : index
      %i0 = arith.muli %bx, %c64 : index
      %i = arith.addi %i0, %tx : index
      %v = memref.load %in[%i] : memref<?xi32>
      memref.store %v, %sh[%tx] : memref<256xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %hi = arith.cmpi uge, %tx, %c40 : index
      scf.if %hi {
        %j = arith.subi %tx, %c40 : index
        %a = memref.load %sh[%tx] : memref<256xi32, #gpu.address_space<workgroup>>
        %b = memref.load %sh[%j] : memref<256xi32, #gpu.address_space<workgroup>>
        %t = arith.addi %a, %b : i32
        %o0 = arith.muli %bx, %c24 : index
        %o = arith.addi %o0, %j : index
        memref.store %t, %out[%o] : memref<?xi32>
      }
      gpu.return
    }
    // in[i] = i - 300 for i < n
    gpu.func @fill(%in: memref<?xi32>, %n: index) kernel {
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %tx = gpu.thread_id x
      %i0 = arith.muli %bx, %bd : index
      %i = arith.addi %i0, %tx : index
      %ok = arith.cmpi ult, %i, %n : index
      scf.if %ok {
        %c300 = arith.constant 300 : index
        %x = arith.subi %i, %c300 : index
        %v = arith.index_cast %x : index to i32
        memref.store %v, %in[%i] : memref<?xi32>
      }
      gpu.return
    }
    gpu.func @fillf(%in: memref<?xf32>) kernel {
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %tx = gpu.thread_id x
      %i0 = arith.muli %bx, %bd : index
      %i = arith.addi %i0, %tx : index
      %x = arith.index_cast %i : index to i32
      %v = arith.sitofp %x : i32 to f32
      memref.store %v, %in[%i] : memref<?xf32>
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefF32(memref<*xf32>)

  // @tree over 4 blocks of bd threads from step s, input elements n of which fill writes nfill
  func.func @run(%n: index, %nfill: index, %nout: index, %bd: index, %s: index, %skew: index, %sync: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %in = gpu.alloc (%n) : memref<?xi32>
    %out = gpu.alloc (%nout) : memref<?xi32>
    gpu.launch_func @k::@fill blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%in : memref<?xi32>, %nfill : index)
    gpu.launch_func @k::@tree blocks in (%c4, %c1, %c1) threads in (%bd, %c1, %c1)
        args(%in : memref<?xi32>, %out : memref<?xi32>, %s : index, %skew : index, %sync : i1)
    %h = memref.alloc(%nout) : memref<?xi32>
    gpu.memcpy %h, %out : memref<?xi32>, memref<?xi32>
    %u = memref.cast %h : memref<?xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %in : memref<?xi32>
    gpu.dealloc %out : memref<?xi32>
    return
  }

  func.func @sums() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c96 = arith.constant 96 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %t = arith.constant true
    call @run(%c1024, %c1024, %c4, %c256, %c128, %c0, %t) : (index, index, index, index, index, index, i1) -> ()
    // the bench's f32 kernel, twice (a second frame of the same kernel)
    %inf = gpu.alloc (%c1024) : memref<?xf32>
    %outf = gpu.alloc (%c4) : memref<?xf32>
    gpu.launch_func @k::@fillf blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%inf : memref<?xf32>)
    gpu.launch_func @k::@treef blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%inf : memref<?xf32>, %outf : memref<?xf32>)
    gpu.launch_func @k::@treef blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%inf : memref<?xf32>, %outf : memref<?xf32>)
    %hf = memref.alloc(%c4) : memref<?xf32>
    gpu.memcpy %hf, %outf : memref<?xf32>, memref<?xf32>
    %uf = memref.cast %hf : memref<?xf32> to memref<*xf32>
    call @printMemrefF32(%uf) : (memref<*xf32>) -> ()
    // 16 x 16 threads
    %in = gpu.alloc (%c1024) : memref<?xi32>
    %out = gpu.alloc (%c4) : memref<?xi32>
    gpu.launch_func @k::@fill blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%in : memref<?xi32>, %c1024 : index)
    gpu.launch_func @k::@tree2d blocks in (%c4, %c1, %c1) threads in (%c16, %c16, %c1) args(%in : memref<?xi32>, %out : memref<?xi32>)
    %h = memref.alloc(%c4) : memref<?xi32>
    gpu.memcpy %h, %out : memref<?xi32>, memref<?xi32>
    %u = memref.cast %h : memref<?xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %inf : memref<?xf32>
    gpu.dealloc %outf : memref<?xf32>
    gpu.dealloc %in : memref<?xi32>
    gpu.dealloc %out : memref<?xi32>
    // a run of threads from thread 40
    %c2 = arith.constant 2 : index
    %c48 = arith.constant 48 : index
    %c64 = arith.constant 64 : index
    %in2 = gpu.alloc (%c1024) : memref<?xi32>
    %out2 = gpu.alloc (%c48) : memref<?xi32>
    gpu.launch_func @k::@fill blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%in2 : memref<?xi32>, %c1024 : index)
    gpu.launch_func @k::@upper blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%in2 : memref<?xi32>, %out2 : memref<?xi32>)
    %h2 = memref.alloc(%c48) : memref<?xi32>
    gpu.memcpy %h2, %out2 : memref<?xi32>, memref<?xi32>
    %u2 = memref.cast %h2 : memref<?xi32> to memref<*xi32>
    call @printMemrefI32(%u2) : (memref<*xi32>) -> ()
    gpu.dealloc %in2 : memref<?xi32>
    gpu.dealloc %out2 : memref<?xi32>
    // 96 threads from s = 48: 48, 24, 12, 6, 3, 1
    call @run(%c1024, %c1024, %c4, %c96, %c48, %c0, %t) : (index, index, index, index, index, index, i1) -> ()
    return
  }

  func.func @race() {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %f = arith.constant false
    call @run(%c1024, %c1024, %c4, %c256, %c128, %c0, %f) : (index, index, index, index, index, index, i1) -> ()
    return
  }

  func.func @oob() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %t = arith.constant true
    call @run(%c1024, %c1024, %c4, %c256, %c128, %c1, %t) : (index, index, index, index, index, index, i1) -> ()
    return
  }

  func.func @oob_in() {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c1023 = arith.constant 1023 : index
    %t = arith.constant true
    call @run(%c1023, %c1023, %c4, %c256, %c128, %c0, %t) : (index, index, index, index, index, index, i1) -> ()
    return
  }

  func.func @uninit() {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c768 = arith.constant 768 : index
    %c1024 = arith.constant 1024 : index
    %t = arith.constant true
    call @run(%c1024, %c768, %c4, %c256, %c128, %c0, %t) : (index, index, index, index, index, index, i1) -> ()
    return
  }

  func.func @tail() {
    %c0 = arith.constant 0 : index
    %c5 = arith.constant 5 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %t = arith.constant true
    call @run(%c1024, %c1024, %c5, %c256, %c128, %c0, %t) : (index, index, index, index, index, index, i1) -> ()
    return
  }
}
