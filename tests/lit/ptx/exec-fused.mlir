// PTX kernels whose two loads, f32 op and store run as one pass (kernel/ptx_mem.c,
// ptx_fuse_streams; Inputs/exec/fused.ptx: tests/lit/interp/gpu-fused-streams.mlir's kernels as
// mlir-opt writes their PTX) at the edges of that path, against results computed on the host:
//   sums      add, sub with its sources swapped, mul, and an add in place (the store's row is the
//             first load's), over 600 elements in blocks of 256 (the last block partial) and over
//             20 in blocks of 8 (the last block partial), NaNs of both signs with payloads and an
//             infinity against its negation among them (every NaN result the canonical
//             0x7fffffff); a store one element past the loads' (a row that overlaps theirs, so
//             not fused) keeps the order of the four: each thread's load before any store;
//   oob_store the store's memref one element short: reported at the run's last element;
//   oob_load  the second load's memref one element short: the same;
//   ww        each block's store row overlaps the next block's by one element, other values:
//             a race between blocks on that one element;
//   uninit    the second load reads device memory nothing wrote.
// RUN: python3 %S/Inputs/exec/embed.py %S/Inputs/exec/fused.ptx %s > %t.mlir
// RUN: %gpuinterp -e sums %t.mlir 2>&1 | FileCheck %s --check-prefix=SUMS
// RUN: %gpuinterp --sched=serial -e sums %t.mlir 2>&1 | FileCheck %s --check-prefix=SUMS
// RUN: not %gpuinterp -e oob_store %t.mlir 2>&1 | FileCheck %s --check-prefix=OOBST
// RUN: not %gpuinterp -e oob_load %t.mlir 2>&1 | FileCheck %s --check-prefix=OOBLD
// RUN: not %gpuinterp --sched=serial -e ww %t.mlir 2>&1 | FileCheck %s --check-prefix=WW
// RUN: not %gpuinterp -e uninit %t.mlir 2>&1 | FileCheck %s --check-prefix=UNINIT
// SUMS-COUNT-10: mismatches 0
// SUMS-NOT: mismatches
// SUMS-NOT: error:
// OOBST: {{^}}@k.ptx:57:2: error: 'st.global.b32' op out-of-bounds store: bytes [2396, 2400) of the memref passed as kernel operand 2: element 599 is not in [0, 599) (thread (87, 0, 0) of block (2, 0, 0))
// OOBLD: {{^}}@k.ptx:55:2: error: 'ld.global.b32' op out-of-bounds load: bytes [2396, 2400) of the memref passed as kernel operand 1: element 599 is not in [0, 599) (thread (87, 0, 0) of block (2, 0, 0))
// WW: {{^}}@k.ptx:266:2: error: 'st.global.b32' op data race in global memory: block (1, 0, 0) writes a different value to 4 bytes at 0x{{[0-9a-f]+}}, which block (0, 0, 0) writes at 'st.global.b32' (266:2); blocks of one launch are not ordered
// WW-NOT: error:
// UNINIT: error: 'gpu.launch_func' @k::@add ({{.*}}) reads bytes [0, 2400) of the device memory allocated by 'gpu.alloc' ({{.*}}) before anything wrote them [uninitialized]
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]

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

  // want[i] = a[i] op b[i] (op 0: a + b, 1: b - a, 2: a * b) for i < n, at want[i + shift], a NaN
  // the canonical NaN (PTX's)
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
      %isnan = arith.cmpf uno, %r, %r : f32
      %canon = arith.constant 0x7FFFFFFF : i32
      %cf = arith.bitcast %canon : i32 to f32
      %rc = arith.select %isnan, %cf, %r : f32
      memref.store %rc, %want[%j] : memref<?xf32>
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

  // a and b of na and nb elements, c of nc, the add over 600 in blocks of 256
  func.func @short(%na: index, %nb: index, %nc: index, %write_b: i1) {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c256 = arith.constant 256 : index
    %c600 = arith.constant 600 : index
    %one = arith.constant 1.0 : f32
    %a = gpu.alloc (%na) : memref<?xf32>
    %b = gpu.alloc (%nb) : memref<?xf32>
    %c = gpu.alloc (%nc) : memref<?xf32>
    gpu.memset %a, %one : memref<?xf32>, f32
    scf.if %write_b {
      gpu.memset %b, %one : memref<?xf32>, f32
    }
    gpu.launch_func @k::@add blocks in (%c3, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%a : memref<?xf32>, %b : memref<?xf32>, %c : memref<?xf32>, %c600 : index)
    gpu.dealloc %a : memref<?xf32>
    gpu.dealloc %b : memref<?xf32>
    gpu.dealloc %c : memref<?xf32>
    return
  }

  func.func @oob_store() {
    %c599 = arith.constant 599 : index
    %c600 = arith.constant 600 : index
    %t = arith.constant true
    call @short(%c600, %c600, %c599, %t) : (index, index, index, i1) -> ()
    return
  }

  func.func @oob_load() {
    %c599 = arith.constant 599 : index
    %c600 = arith.constant 600 : index
    %t = arith.constant true
    call @short(%c600, %c599, %c600, %t) : (index, index, index, i1) -> ()
    return
  }

  func.func @uninit() {
    %c600 = arith.constant 600 : index
    %f = arith.constant false
    call @short(%c600, %c600, %c600, %f) : (index, index, index, i1) -> ()
    return
  }

  func.func @ww() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
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
