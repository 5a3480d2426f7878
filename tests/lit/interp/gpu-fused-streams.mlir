// gpu.func kernels whose two loads, f32 op and store run as one pass (kernel/kernel_fuse.c), and
// the same kernels lowered to llvm + nvvm (whose llvm.load, llvm.fadd and llvm.store fuse too), at
// the edges of that path, against results computed on the host:
//   sums      add, subf with its operands swapped, mulf, and an add in place (the store's row is
//             the first load's), over 600 elements in blocks of 256 (the last block partial) and
//             over 20 in blocks of 8 (block-wise frames, the last block partial), NaNs of both
//             signs with payloads and an infinity against its negation among them; a store one
//             element past the loads' (a row that overlaps theirs, so not fused) keeps the
//             order of the four ops: each thread's load comes before any thread's store;
//   oob_store the store's memref one element short: reported at the run's last element;
//   oob_load  the second load's memref one element short: the same;
//   oob_store_full, oob_load_full  the same over 768 elements, so the short block is full (every
//             thread active: the path that takes the row without working out its shape);
//   ww        each block's store row overlaps the next block's by one element, other values:
//             a race between blocks on that one element (ww8: in blocks of 8, a block-wise frame);
//   uninit    the second load reads device memory nothing wrote.
// RUN: %gpuinterp -e sums %s 2>&1 | FileCheck %s --check-prefix=SUMS
// RUN: %gpuinterp --sched=serial -e sums %s 2>&1 | FileCheck %s --check-prefix=SUMS
// RUN: not %gpuinterp -e oob_store %s 2>&1 | FileCheck %s --check-prefix=OOBST
// RUN: not %gpuinterp -e oob_load %s 2>&1 | FileCheck %s --check-prefix=OOBLD
// RUN: not %gpuinterp --sched=serial -e ww %s 2>&1 | FileCheck %s --check-prefix=WW
// RUN: not %gpuinterp --sched=serial -e ww8 %s 2>&1 | FileCheck %s --check-prefix=WW
// RUN: not %gpuinterp -e uninit %s 2>&1 | FileCheck %s --check-prefix=UNINIT
// RUN: not %gpuinterp -e oob_store_full %s 2>&1 | FileCheck %s --check-prefix=OOBSTF
// RUN: not %gpuinterp -e oob_load_full %s 2>&1 | FileCheck %s --check-prefix=OOBLDF
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' -o %t.nvvm.mlir
// The same sums with the kernels' scf.if made branches (a region of several blocks, whose loop passes
// over the three ops a fused stream ran), as gpu.func and as llvm + nvvm:
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-scf-to-cf))' -o %t.cf.mlir
// RUN: %gpuinterp -e sums %t.cf.mlir 2>&1 | FileCheck %s --check-prefix=SUMS
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm))' -o %t.cf-nvvm.mlir
// RUN: %gpuinterp -e sums %t.cf-nvvm.mlir 2>&1 | FileCheck %s --check-prefix=SUMS
// RUN: %gpuinterp -e sums %t.nvvm.mlir 2>&1 | FileCheck %s --check-prefix=SUMS
// RUN: not %gpuinterp -e oob_store %t.nvvm.mlir 2>&1 | FileCheck %s --check-prefix=OOBST-LLVM
// RUN: not %gpuinterp -e oob_load %t.nvvm.mlir 2>&1 | FileCheck %s --check-prefix=OOBLD-LLVM
// RUN: not %gpuinterp --sched=serial -e ww %t.nvvm.mlir 2>&1 | FileCheck %s --check-prefix=WW-LLVM
// RUN: not %gpuinterp -e uninit %t.nvvm.mlir 2>&1 | FileCheck %s --check-prefix=UNINIT
// RUN: not %gpuinterp -e oob_store_full %t.nvvm.mlir 2>&1 | FileCheck %s --check-prefix=OOBSTF-LLVM
// RUN: not %gpuinterp -e oob_load_full %t.nvvm.mlir 2>&1 | FileCheck %s --check-prefix=OOBLDF-LLVM
// SUMS-COUNT-10: mismatches 0
// SUMS-NOT: mismatches
// SUMS-NOT: error:
// The last block full (every thread active), out of bounds at its last thread:
// OOBSTF: error: 'memref.store' op out-of-bounds store: bytes [3068, 3072) of the memref: index 767 is not in [0, 767) in dimension 0 (thread (255, 0, 0) of block (2, 0, 0))
// OOBLDF: error: 'memref.load' op out-of-bounds load: bytes [3068, 3072) of the memref: index 767 is not in [0, 767) in dimension 0 (thread (255, 0, 0) of block (2, 0, 0))
// OOBSTF-LLVM: error: 'llvm.store' op out-of-bounds store: bytes [3068, 3072) of the memref passed as kernel operand 2: element 767 is not in [0, 767) (thread (255, 0, 0) of block (2, 0, 0))
// OOBLDF-LLVM: error: 'llvm.load' op out-of-bounds load: bytes [3068, 3072) of the memref passed as kernel operand 1: element 767 is not in [0, 767) (thread (255, 0, 0) of block (2, 0, 0))
// OOBST: gpu-fused-streams.mlir:[[#@LINE+22]]:9: error: 'memref.store' op out-of-bounds store: bytes [2396, 2400) of the memref: index 599 is not in [0, 599) in dimension 0 (thread (87, 0, 0) of block (2, 0, 0))
// OOBLD: gpu-fused-streams.mlir:[[#@LINE+19]]:14: error: 'memref.load' op out-of-bounds load: bytes [2396, 2400) of the memref: index 599 is not in [0, 599) in dimension 0 (thread (87, 0, 0) of block (2, 0, 0))
// WW: gpu-fused-streams.mlir:[[#@LINE+88]]:9: error: 'memref.store' op data race in global memory: block (1, 0, 0) writes a different value to 4 bytes at 0x{{[0-9a-f]+}}, which block (0, 0, 0) writes at 'memref.store' ([[#@LINE+88]]:9); blocks of one launch are not ordered
// WW-NOT: error:
// OOBST-LLVM: error: 'llvm.store' op out-of-bounds store: bytes [2396, 2400) of the memref passed as kernel operand 2: element 599 is not in [0, 599) (thread (87, 0, 0) of block (2, 0, 0))
// OOBLD-LLVM: error: 'llvm.load' op out-of-bounds load: bytes [2396, 2400) of the memref passed as kernel operand 1: element 599 is not in [0, 599) (thread (87, 0, 0) of block (2, 0, 0))
// WW-LLVM: error: 'llvm.store' op data race in global memory: block (1, 0, 0) writes a different value to 4 bytes at 0x{{[0-9a-f]+}}, which block (0, 0, 0) writes at 'llvm.store' ({{[0-9]+}}:9); blocks of one launch are not ordered
// WW-LLVM-NOT: error:
// UNINIT: error: 'gpu.launch_func' @k::@add ({{.*}}) reads bytes [0, 2400) of the device memory allocated by 'gpu.alloc' ({{.*}}) before anything wrote them [uninitialized]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @add(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %n: index) kernel {
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %tx = gpu.thread_id x
      %i0 = arith.muli %bx, %bd : index
      %i = arith.addi %i0, %tx : index
      %ok = arith.cmpi slt, %i, %n : index
      scf.if %ok {
        %x = memref.load %a[%i] : memref<?xf32>
        %y = memref.load %b[%i] : memref<?xf32>
        %s = arith.addf %x, %y : f32
        memref.store %s, %c[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @subr(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %n: index) kernel {
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %tx = gpu.thread_id x
      %i0 = arith.muli %bx, %bd : index
      %i = arith.addi %i0, %tx : index
      %ok = arith.cmpi slt, %i, %n : index
      scf.if %ok {
        %x = memref.load %a[%i] : memref<?xf32>
        %y = memref.load %b[%i] : memref<?xf32>
        %s = arith.subf %y, %x : f32
        memref.store %s, %c[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @mul(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %n: index) kernel {
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %tx = gpu.thread_id x
      %i0 = arith.muli %bx, %bd : index
      %i = arith.addi %i0, %tx : index
      %ok = arith.cmpi slt, %i, %n : index
      scf.if %ok {
        %x = memref.load %a[%i] : memref<?xf32>
        %y = memref.load %b[%i] : memref<?xf32>
        %s = arith.mulf %x, %y : f32
        memref.store %s, %c[%i] : memref<?xf32>
      }
      gpu.return
    }
    // c[i + 1] = a[i] + b[i]
    gpu.func @shifted(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %n: index) kernel {
      %c1 = arith.constant 1 : index
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %tx = gpu.thread_id x
      %i0 = arith.muli %bx, %bd : index
      %i = arith.addi %i0, %tx : index
      %j = arith.addi %i, %c1 : index
      %ok = arith.cmpi slt, %i, %n : index
      scf.if %ok {
        %x = memref.load %a[%i] : memref<?xf32>
        %y = memref.load %b[%i] : memref<?xf32>
        %s = arith.addf %x, %y : f32
        memref.store %s, %c[%j] : memref<?xf32>
      }
      gpu.return
    }
    // block b stores its row at b * (bd - 1): its last element is the next block's first
    gpu.func @ww(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %n: index) kernel {
      %c1 = arith.constant 1 : index
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %tx = gpu.thread_id x
      %i0 = arith.muli %bx, %bd : index
      %i = arith.addi %i0, %tx : index
      %bm = arith.subi %bd, %c1 : index
      %j0 = arith.muli %bx, %bm : index
      %j = arith.addi %j0, %tx : index
      %ok = arith.cmpi slt, %i, %n : index
      scf.if %ok {
        %x = memref.load %a[%i] : memref<?xf32>
        %y = memref.load %b[%i] : memref<?xf32>
        %s = arith.addf %x, %y : f32
        memref.store %s, %c[%j] : memref<?xf32>
      }
      gpu.return
    }
  }

  func.func private @printI64(i64)
  func.func private @printNewline()

  // h[i] = i * s + o, with NaNs and infinities at 3, 5 and 7 when `special`
  func.func @fill(%h: memref<?xf32>, %n: index, %s: f32, %o: f32, %special: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %w = arith.index_cast %i : index to i32
      %f = arith.sitofp %w : i32 to f32
      %m = arith.mulf %f, %s : f32
      %v = arith.addf %m, %o : f32
      memref.store %v, %h[%i] : memref<?xf32>
    }
    scf.if %special {
      %c3 = arith.constant 3 : index
      %c5 = arith.constant 5 : index
      %c7 = arith.constant 7 : index
      %nan = arith.constant 2143289635 : i32
      %nnan = arith.constant -4193194 : i32
      %inf = arith.constant 0x7F800000 : f32
      %ninf = arith.constant 0xFF800000 : f32
      %f3 = arith.bitcast %nan : i32 to f32
      %f5 = arith.bitcast %nnan : i32 to f32
      memref.store %f3, %h[%c3] : memref<?xf32>
      memref.store %f5, %h[%c5] : memref<?xf32>
      memref.store %inf, %h[%c7] : memref<?xf32>
    }
    return
  }

  // want[i] = a[i] op b[i] (op 0: a + b, 1: b - a, 2: a * b) for i < n, at want[i + shift]
  func.func @expect(%a: memref<?xf32>, %b: memref<?xf32>, %want: memref<?xf32>, %n: index, %op: index, %shift: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %a[%i] : memref<?xf32>
      %y = memref.load %b[%i] : memref<?xf32>
      %s = arith.addf %x, %y : f32
      %d = arith.subf %y, %x : f32
      %p = arith.mulf %x, %y : f32
      %is0 = arith.cmpi eq, %op, %c0 : index
      %is1 = arith.cmpi eq, %op, %c1 : index
      %r1 = arith.select %is1, %d, %p : f32
      %r = arith.select %is0, %s, %r1 : f32
      %j = arith.addi %i, %shift : index
      memref.store %r, %want[%j] : memref<?xf32>
    }
    return
  }

  // prints the elements of got and want < n whose bits differ
  func.func @compare(%got: memref<?xf32>, %want: memref<?xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0 : i64
    %one = arith.constant 1 : i64
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%k = %z) -> (i64) {
      %x = memref.load %got[%i] : memref<?xf32>
      %y = memref.load %want[%i] : memref<?xf32>
      %xb = arith.bitcast %x : f32 to i32
      %yb = arith.bitcast %y : f32 to i32
      %ne = arith.cmpi ne, %xb, %yb : i32
      %k1 = arith.addi %k, %one : i64
      %k2 = arith.select %ne, %k1, %k : i64
      scf.yield %k2 : i64
    }
    vector.print str "mismatches "
    call @printI64(%bad) : (i64) -> ()
    call @printNewline() : () -> ()
    return
  }

  // add, subr, mul and the add in place over n elements in blocks of bd threads
  func.func @forms(%n: index, %bd: index) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %q = arith.constant 0.25 : f32
    %zero = arith.constant 0.0 : f32
    %t = arith.constant true
    %f = arith.constant false
    %ha = memref.alloc(%n) : memref<?xf32>
    %hb = memref.alloc(%n) : memref<?xf32>
    %hc = memref.alloc(%n) : memref<?xf32>
    %hw = memref.alloc(%n) : memref<?xf32>
    call @fill(%ha, %n, %one, %zero, %t) : (memref<?xf32>, index, f32, f32, i1) -> ()
    call @fill(%hb, %n, %half, %q, %f) : (memref<?xf32>, index, f32, f32, i1) -> ()
    // b's NaN of the other sign at 5, its negative infinity at 7
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %nnan = arith.constant -4193194 : i32
    %f5 = arith.bitcast %nnan : i32 to f32
    %ninf = arith.constant 0xFF800000 : f32
    memref.store %f5, %hb[%c5] : memref<?xf32>
    memref.store %ninf, %hb[%c7] : memref<?xf32>
    %a = gpu.alloc (%n) : memref<?xf32>
    %b = gpu.alloc (%n) : memref<?xf32>
    %c = gpu.alloc (%n) : memref<?xf32>
    gpu.memcpy %a, %ha : memref<?xf32>, memref<?xf32>
    gpu.memcpy %b, %hb : memref<?xf32>, memref<?xf32>
    %nb0 = arith.addi %n, %bd : index
    %nb1 = arith.subi %nb0, %c1 : index
    %nb = arith.divui %nb1, %bd : index
    gpu.launch_func @k::@add blocks in (%nb, %c1, %c1) threads in (%bd, %c1, %c1)
        args(%a : memref<?xf32>, %b : memref<?xf32>, %c : memref<?xf32>, %n : index)
    gpu.memcpy %hc, %c : memref<?xf32>, memref<?xf32>
    call @expect(%ha, %hb, %hw, %n, %c0, %c0) : (memref<?xf32>, memref<?xf32>, memref<?xf32>, index, index, index) -> ()
    call @compare(%hc, %hw, %n) : (memref<?xf32>, memref<?xf32>, index) -> ()
    gpu.launch_func @k::@subr blocks in (%nb, %c1, %c1) threads in (%bd, %c1, %c1)
        args(%a : memref<?xf32>, %b : memref<?xf32>, %c : memref<?xf32>, %n : index)
    gpu.memcpy %hc, %c : memref<?xf32>, memref<?xf32>
    call @expect(%ha, %hb, %hw, %n, %c1, %c0) : (memref<?xf32>, memref<?xf32>, memref<?xf32>, index, index, index) -> ()
    call @compare(%hc, %hw, %n) : (memref<?xf32>, memref<?xf32>, index) -> ()
    gpu.launch_func @k::@mul blocks in (%nb, %c1, %c1) threads in (%bd, %c1, %c1)
        args(%a : memref<?xf32>, %b : memref<?xf32>, %c : memref<?xf32>, %n : index)
    gpu.memcpy %hc, %c : memref<?xf32>, memref<?xf32>
    call @expect(%ha, %hb, %hw, %n, %c2, %c0) : (memref<?xf32>, memref<?xf32>, memref<?xf32>, index, index, index) -> ()
    call @compare(%hc, %hw, %n) : (memref<?xf32>, memref<?xf32>, index) -> ()
    // in place: a = a + b
    gpu.launch_func @k::@add blocks in (%nb, %c1, %c1) threads in (%bd, %c1, %c1)
        args(%a : memref<?xf32>, %b : memref<?xf32>, %a : memref<?xf32>, %n : index)
    gpu.memcpy %hc, %a : memref<?xf32>, memref<?xf32>
    call @expect(%ha, %hb, %hw, %n, %c0, %c0) : (memref<?xf32>, memref<?xf32>, memref<?xf32>, index, index, index) -> ()
    call @compare(%hc, %hw, %n) : (memref<?xf32>, memref<?xf32>, index) -> ()
    gpu.dealloc %a : memref<?xf32>
    gpu.dealloc %b : memref<?xf32>
    gpu.dealloc %c : memref<?xf32>
    memref.dealloc %ha : memref<?xf32>
    memref.dealloc %hb : memref<?xf32>
    memref.dealloc %hc : memref<?xf32>
    memref.dealloc %hw : memref<?xf32>
    return
  }

  // one block of bd threads: a[i + 1] = a[i] + b[i], every load before any store
  func.func @overlap(%bd: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %q = arith.constant 0.25 : f32
    %zero = arith.constant 0.0 : f32
    %f = arith.constant false
    %m = arith.addi %bd, %c1 : index
    %ha = memref.alloc(%m) : memref<?xf32>
    %hb = memref.alloc(%bd) : memref<?xf32>
    %hc = memref.alloc(%m) : memref<?xf32>
    %hw = memref.alloc(%m) : memref<?xf32>
    call @fill(%ha, %m, %one, %one, %f) : (memref<?xf32>, index, f32, f32, i1) -> ()
    call @fill(%hb, %bd, %half, %q, %f) : (memref<?xf32>, index, f32, f32, i1) -> ()
    %a = gpu.alloc (%m) : memref<?xf32>
    %b = gpu.alloc (%bd) : memref<?xf32>
    gpu.memcpy %a, %ha : memref<?xf32>, memref<?xf32>
    gpu.memcpy %b, %hb : memref<?xf32>, memref<?xf32>
    gpu.launch_func @k::@shifted blocks in (%c1, %c1, %c1) threads in (%bd, %c1, %c1)
        args(%a : memref<?xf32>, %b : memref<?xf32>, %a : memref<?xf32>, %bd : index)
    gpu.memcpy %hc, %a : memref<?xf32>, memref<?xf32>
    %x0 = memref.load %ha[%c0] : memref<?xf32>
    memref.store %x0, %hw[%c0] : memref<?xf32>
    call @expect(%ha, %hb, %hw, %bd, %c0, %c1) : (memref<?xf32>, memref<?xf32>, memref<?xf32>, index, index, index) -> ()
    call @compare(%hc, %hw, %m) : (memref<?xf32>, memref<?xf32>, index) -> ()
    gpu.dealloc %a : memref<?xf32>
    gpu.dealloc %b : memref<?xf32>
    memref.dealloc %ha : memref<?xf32>
    memref.dealloc %hb : memref<?xf32>
    memref.dealloc %hc : memref<?xf32>
    memref.dealloc %hw : memref<?xf32>
    return
  }

  func.func @sums() {
    %c8 = arith.constant 8 : index
    %c20 = arith.constant 20 : index
    %c256 = arith.constant 256 : index
    %c600 = arith.constant 600 : index
    call @forms(%c600, %c256) : (index, index) -> ()
    call @forms(%c20, %c8) : (index, index) -> ()
    call @overlap(%c256) : (index) -> ()
    call @overlap(%c8) : (index) -> ()
    return
  }

  // a and b of na and nb elements, c of nc, the add over n (at most 768) in three blocks of 256
  func.func @short(%na: index, %nb: index, %nc: index, %write_b: i1, %n: index) {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c256 = arith.constant 256 : index
    %one = arith.constant 1.0 : f32
    %a = gpu.alloc (%na) : memref<?xf32>
    %b = gpu.alloc (%nb) : memref<?xf32>
    %c = gpu.alloc (%nc) : memref<?xf32>
    gpu.memset %a, %one : memref<?xf32>, f32
    scf.if %write_b {
      gpu.memset %b, %one : memref<?xf32>, f32
    }
    gpu.launch_func @k::@add blocks in (%c3, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%a : memref<?xf32>, %b : memref<?xf32>, %c : memref<?xf32>, %n : index)
    gpu.dealloc %a : memref<?xf32>
    gpu.dealloc %b : memref<?xf32>
    gpu.dealloc %c : memref<?xf32>
    return
  }

  func.func @oob_store() {
    %c599 = arith.constant 599 : index
    %c600 = arith.constant 600 : index
    %t = arith.constant true
    call @short(%c600, %c600, %c599, %t, %c600) : (index, index, index, i1, index) -> ()
    return
  }

  func.func @oob_load() {
    %c599 = arith.constant 599 : index
    %c600 = arith.constant 600 : index
    %t = arith.constant true
    call @short(%c600, %c599, %c600, %t, %c600) : (index, index, index, i1, index) -> ()
    return
  }

  func.func @oob_store_full() {
    %c767 = arith.constant 767 : index
    %c768 = arith.constant 768 : index
    %t = arith.constant true
    call @short(%c768, %c768, %c767, %t, %c768) : (index, index, index, i1, index) -> ()
    return
  }

  func.func @oob_load_full() {
    %c767 = arith.constant 767 : index
    %c768 = arith.constant 768 : index
    %t = arith.constant true
    call @short(%c768, %c767, %c768, %t, %c768) : (index, index, index, i1, index) -> ()
    return
  }

  func.func @uninit() {
    %c600 = arith.constant 600 : index
    %f = arith.constant false
    call @short(%c600, %c600, %c600, %f, %c600) : (index, index, index, i1, index) -> ()
    return
  }

  func.func @ww() {
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    call @ww_in(%c256, %c512) : (index, index) -> ()
    return
  }

  func.func @ww8() {
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    call @ww_in(%c8, %c16) : (index, index) -> ()
    return
  }

  // @ww over 2 blocks of bd threads
  func.func @ww_in(%c256: index, %c512: index) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %one = arith.constant 1.0 : f32
    %z = arith.constant 0.0 : f32
    %f = arith.constant false
    %h = memref.alloc(%c512) : memref<?xf32>
    call @fill(%h, %c512, %one, %z, %f) : (memref<?xf32>, index, f32, f32, i1) -> ()
    %a = gpu.alloc (%c512) : memref<?xf32>
    %c = gpu.alloc (%c512) : memref<?xf32>
    gpu.memcpy %a, %h : memref<?xf32>, memref<?xf32>
    gpu.launch_func @k::@ww blocks in (%c2, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%a : memref<?xf32>, %a : memref<?xf32>, %c : memref<?xf32>, %c512 : index)
    gpu.dealloc %a : memref<?xf32>
    gpu.dealloc %c : memref<?xf32>
    memref.dealloc %h : memref<?xf32>
    return
  }
}
