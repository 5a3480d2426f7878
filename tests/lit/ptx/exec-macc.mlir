// PTX kernels whose k loop's two loads, f32 mul and add run as one pass (kernel/ptx_macc.c,
// ptx_macc_steps; Inputs/exec/macc.ptx, from these kernels as gpu.func:
//   mm   c[r * n + q] = sum over k < n of a[r * n + k] * b[k * n + q], 16x16 blocks, one thread
//        per element: each step an element of A per row of threads against a row of B;
//   mmg  the same for r, q < n only (the edge blocks partial: their steps run as compiled), its
//        first step's mul and add with their sources swapped;
//   dot  c[i] += sum over k < m of a[k * n + i] * b[k * n + i] for i < n, in blocks in x (both
//        loads a row of consecutive elements; the last block partial),
// against results computed on the host, each product rounded before its add (a fused
// multiply-add would differ: 1 + 2^-12 squared against -(1 + 2^-11) is 0, not 2^-24):
//   sums    mm at n = 48 and mmg at n = 40, A and B with NaNs of both signs with payloads, an
//           infinity next to its negation (their row's sums NaN), a subnormal; dot over 600
//           elements of 1 and 3 steps in blocks of 256, and of 3 in blocks of 250 (rows of a
//           length no multiple of four), c's and the products' NaNs, infinities, subnormals, zeros
//           of both signs and the fused multiply-add's witness; every NaN result 0x7fffffff;
//   steps   a step limit reached between a step's four (at the mul) stops there, as it would
//           the four as compiled;
//   race    mm with c the same memory as b: another block's store against a step's load of B;
//   oob     mm with A one element short: the last row's last step reads past it;
//   uninit  mm with B never written.
// RUN: python3 %S/Inputs/exec/embed.py %S/Inputs/exec/macc.ptx %s > %t.mlir
// RUN: %gpuinterp -e sums %t.mlir 2>&1 | FileCheck %s --check-prefix=SUMS
// RUN: %gpuinterp --sched=serial -e sums %t.mlir 2>&1 | FileCheck %s --check-prefix=SUMS
// RUN: not %gpuinterp --sched=serial --max-steps=250000 -e sums %t.mlir 2>&1 | FileCheck %s --check-prefix=STEPS
// RUN: not %gpuinterp --sched=serial -e race %t.mlir 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not %gpuinterp -e oob %t.mlir 2>&1 | FileCheck %s --check-prefix=OOB
// RUN: not %gpuinterp -e uninit %t.mlir 2>&1 | FileCheck %s --check-prefix=UNINIT
// SUMS-COUNT-5: mismatches 0
// SUMS-NOT: mismatches
// SUMS-NOT: error:
// STEPS: {{^}}@mac.ptx:71:2: error: step limit of 250000 reached
// STEPS-NEXT: mul.rn.f32
// RACE: {{^}}@mac.ptx:85:2: error: 'st.global.b32' op data race in global memory: block (0, 1, 0) writes 64 bytes at 0x{{[0-9a-f]+}}, which block (0, 0, 0) reads at 'ld.global.b32' (70:2); blocks of one launch are not ordered
// RACE: {{^}}@mac.ptx:70:2: note: the other access
// OOB: {{^}}@mac.ptx:73:2: error: 'ld.global.b32' op out-of-bounds load: bytes [9212, 9216) of the memref passed as kernel operand 0: element 2303 is not in [0, 2303) (thread (0, 15, 0) of block (0, 2, 0))
// OOB-NOT: error: 'ld
// UNINIT: error: 'gpu.launch_func' @mac::@mm ({{.*}}) reads bytes [0, 9216) of the device memory allocated by 'gpu.alloc' ({{.*}}) before anything wrote them [uninitialized]
module attributes {gpu.container_module} {
  gpu.binary @mac [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]

  func.func private @printI64(i64)
  func.func private @printNewline()

  // h[i] = (i * 37 mod 101) * 0.1 + o for i < n
  func.func @fill(%h: memref<?xf32>, %n: index, %o: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c37 = arith.constant 37 : index
    %c101 = arith.constant 101 : index
    %s = arith.constant 0.1 : f32
    scf.for %i = %c0 to %n step %c1 {
      %m = arith.muli %i, %c37 : index
      %r = arith.remui %m, %c101 : index
      %w = arith.index_cast %r : index to i32
      %f = arith.sitofp %w : i32 to f32
      %x = arith.mulf %f, %s : f32
      %v = arith.addf %x, %o : f32
      memref.store %v, %h[%i] : memref<?xf32>
    }
    return
  }

  // h[i] = the f32 of bits v
  func.func @put(%h: memref<?xf32>, %i: index, %v: i32) {
    %f = arith.bitcast %v : i32 to f32
    memref.store %f, %h[%i] : memref<?xf32>
    return
  }

  // NaNs of both signs with payloads, an infinity next to its negation (row 2 of A) and a
  // subnormal (row 3), for a matmul of n x n
  func.func @specials(%ha: memref<?xf32>, %hb: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %nan = arith.constant 2143289635 : i32
    %nnan = arith.constant -4193194 : i32
    %inf = arith.constant 2139095040 : i32
    %ninf = arith.constant -8388608 : i32
    %sub = arith.constant 3 : i32
    func.call @put(%ha, %c5, %nan) : (memref<?xf32>, index, i32) -> ()
    %b7 = arith.muli %n, %c7 : index
    %b73 = arith.addi %b7, %c3 : index
    func.call @put(%hb, %b73, %nnan) : (memref<?xf32>, index, i32) -> ()
    %a2 = arith.muli %n, %c2 : index
    %a21 = arith.addi %a2, %c1 : index
    %a22 = arith.addi %a2, %c2 : index
    func.call @put(%ha, %a21, %inf) : (memref<?xf32>, index, i32) -> ()
    func.call @put(%ha, %a22, %ninf) : (memref<?xf32>, index, i32) -> ()
    %a3 = arith.muli %n, %c3 : index
    func.call @put(%ha, %a3, %sub) : (memref<?xf32>, index, i32) -> ()
    return
  }

  // the canonical NaN for a NaN
  func.func @canon(%r: f32) -> f32 {
    %isnan = arith.cmpf uno, %r, %r : f32
    %canon = arith.constant 0x7FFFFFFF : i32
    %cf = arith.bitcast %canon : i32 to f32
    %rc = arith.select %isnan, %cf, %r : f32
    return %rc : f32
  }

  // want = a * b for rows and columns < n, n x n
  func.func @expect_mm(%a: memref<?xf32>, %b: memref<?xf32>, %want: memref<?xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0.0 : f32
    scf.for %r = %c0 to %n step %c1 {
      scf.for %q = %c0 to %n step %c1 {
        %rn = arith.muli %r, %n : index
        %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (f32) {
          %i = arith.addi %rn, %k : index
          %kn = arith.muli %k, %n : index
          %j = arith.addi %kn, %q : index
          %x = memref.load %a[%i] : memref<?xf32>
          %y = memref.load %b[%j] : memref<?xf32>
          %p = arith.mulf %x, %y : f32
          %t = arith.addf %acc, %p : f32
          scf.yield %t : f32
        }
        %sc = func.call @canon(%s) : (f32) -> f32
        %o = arith.addi %rn, %q : index
        memref.store %sc, %want[%o] : memref<?xf32>
      }
    }
    return
  }

  // want[i] = c[i] + the sum over k < m of a[k * n + i] * b[k * n + i], for i < n
  func.func @expect_dot(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %want: memref<?xf32>, %n: index,
                        %m: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %z = memref.load %c[%i] : memref<?xf32>
      %s = scf.for %k = %c0 to %m step %c1 iter_args(%acc = %z) -> (f32) {
        %kn = arith.muli %k, %n : index
        %j = arith.addi %kn, %i : index
        %x = memref.load %a[%j] : memref<?xf32>
        %y = memref.load %b[%j] : memref<?xf32>
        %p = arith.mulf %x, %y : f32
        %t = arith.addf %acc, %p : f32
        scf.yield %t : f32
      }
      %sc = func.call @canon(%s) : (f32) -> f32
      memref.store %sc, %want[%i] : memref<?xf32>
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
    func.call @printI64(%bad) : (i64) -> ()
    func.call @printNewline() : () -> ()
    return
  }

  // mm (guarded: mmg) of n x n in blocks of 16 x 16, nb blocks a side, against the host's
  func.func @matmul(%n: index, %nb: index, %guarded: i1) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %o1 = arith.constant -1.7 : f32
    %o2 = arith.constant -2.3 : f32
    %nn = arith.muli %n, %n : index
    %ha = memref.alloc(%nn) : memref<?xf32>
    %hb = memref.alloc(%nn) : memref<?xf32>
    %hc = memref.alloc(%nn) : memref<?xf32>
    %hw = memref.alloc(%nn) : memref<?xf32>
    func.call @fill(%ha, %nn, %o1) : (memref<?xf32>, index, f32) -> ()
    func.call @fill(%hb, %nn, %o2) : (memref<?xf32>, index, f32) -> ()
    func.call @specials(%ha, %hb, %n) : (memref<?xf32>, memref<?xf32>, index) -> ()
    %a = gpu.alloc (%nn) : memref<?xf32>
    %b = gpu.alloc (%nn) : memref<?xf32>
    %c = gpu.alloc (%nn) : memref<?xf32>
    gpu.memcpy %a, %ha : memref<?xf32>, memref<?xf32>
    gpu.memcpy %b, %hb : memref<?xf32>, memref<?xf32>
    gpu.memcpy %c, %hb : memref<?xf32>, memref<?xf32>
    scf.if %guarded {
      gpu.launch_func @mac::@mmg blocks in (%nb, %nb, %c1) threads in (%c16, %c16, %c1)
          args(%a : memref<?xf32>, %b : memref<?xf32>, %c : memref<?xf32>)
    } else {
      gpu.launch_func @mac::@mm blocks in (%nb, %nb, %c1) threads in (%c16, %c16, %c1)
          args(%a : memref<?xf32>, %b : memref<?xf32>, %c : memref<?xf32>)
    }
    gpu.memcpy %hc, %c : memref<?xf32>, memref<?xf32>
    func.call @expect_mm(%ha, %hb, %hw, %n) : (memref<?xf32>, memref<?xf32>, memref<?xf32>, index) -> ()
    func.call @compare(%hc, %hw, %nn) : (memref<?xf32>, memref<?xf32>, index) -> ()
    gpu.dealloc %a : memref<?xf32>
    gpu.dealloc %b : memref<?xf32>
    gpu.dealloc %c : memref<?xf32>
    memref.dealloc %ha : memref<?xf32>
    memref.dealloc %hb : memref<?xf32>
    memref.dealloc %hc : memref<?xf32>
    memref.dealloc %hw : memref<?xf32>
    return
  }

  // dot over n elements in blocks of bd threads and m steps against the host's
  func.func @dots(%n: index, %m: index, %bd: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c9 = arith.constant 9 : index
    %o1 = arith.constant -1.3 : f32
    %o2 = arith.constant -4.1 : f32
    %o3 = arith.constant 0.7 : f32
    %nm = arith.muli %n, %m : index
    %ha = memref.alloc(%nm) : memref<?xf32>
    %hb = memref.alloc(%nm) : memref<?xf32>
    %hc = memref.alloc(%n) : memref<?xf32>
    %hg = memref.alloc(%n) : memref<?xf32>
    %hw = memref.alloc(%n) : memref<?xf32>
    func.call @fill(%ha, %nm, %o1) : (memref<?xf32>, index, f32) -> ()
    func.call @fill(%hb, %nm, %o2) : (memref<?xf32>, index, f32) -> ()
    func.call @fill(%hc, %n, %o3) : (memref<?xf32>, index, f32) -> ()
    %nan = arith.constant 2143289635 : i32
    %nnan = arith.constant -4193194 : i32
    %inf = arith.constant 2139095040 : i32
    %ninf = arith.constant -8388608 : i32
    %pz = arith.constant 0 : i32
    %nz = arith.constant -2147483648 : i32
    %sub = arith.constant 5 : i32
    %one = arith.constant 1065353216 : i32
    %w = arith.constant 1065355264 : i32 // 1 + 2^-12
    %nw = arith.constant -1082126336 : i32 // -(1 + 2^-11)
    // 0: c NaN; 1: a's NaN, b's NaN of the other sign; 2: inf * 0; 3: -0 + -0 * 1;
    // 4: subnormal * 1 + 0; 5: inf + -inf * 1; 6: the fused multiply-add's witness
    func.call @put(%hc, %c0, %nnan) : (memref<?xf32>, index, i32) -> ()
    func.call @put(%ha, %c1, %nan) : (memref<?xf32>, index, i32) -> ()
    func.call @put(%hb, %c1, %nnan) : (memref<?xf32>, index, i32) -> ()
    func.call @put(%ha, %c2, %inf) : (memref<?xf32>, index, i32) -> ()
    func.call @put(%hb, %c2, %pz) : (memref<?xf32>, index, i32) -> ()
    func.call @put(%hc, %c3, %nz) : (memref<?xf32>, index, i32) -> ()
    func.call @put(%ha, %c3, %nz) : (memref<?xf32>, index, i32) -> ()
    func.call @put(%hb, %c3, %one) : (memref<?xf32>, index, i32) -> ()
    func.call @put(%hc, %c4, %pz) : (memref<?xf32>, index, i32) -> ()
    func.call @put(%ha, %c4, %sub) : (memref<?xf32>, index, i32) -> ()
    func.call @put(%hb, %c4, %one) : (memref<?xf32>, index, i32) -> ()
    func.call @put(%hc, %c5, %inf) : (memref<?xf32>, index, i32) -> ()
    func.call @put(%ha, %c5, %ninf) : (memref<?xf32>, index, i32) -> ()
    func.call @put(%hb, %c5, %one) : (memref<?xf32>, index, i32) -> ()
    func.call @put(%hc, %c6, %nw) : (memref<?xf32>, index, i32) -> ()
    func.call @put(%ha, %c6, %w) : (memref<?xf32>, index, i32) -> ()
    func.call @put(%hb, %c6, %w) : (memref<?xf32>, index, i32) -> ()
    %a = gpu.alloc (%nm) : memref<?xf32>
    %b = gpu.alloc (%nm) : memref<?xf32>
    %c = gpu.alloc (%n) : memref<?xf32>
    gpu.memcpy %a, %ha : memref<?xf32>, memref<?xf32>
    gpu.memcpy %b, %hb : memref<?xf32>, memref<?xf32>
    gpu.memcpy %c, %hc : memref<?xf32>, memref<?xf32>
    %nb0 = arith.addi %n, %bd : index
    %nb1 = arith.subi %nb0, %c1 : index
    %nb = arith.divui %nb1, %bd : index
    gpu.launch_func @mac::@dot blocks in (%nb, %c1, %c1) threads in (%bd, %c1, %c1)
        args(%a : memref<?xf32>, %b : memref<?xf32>, %c : memref<?xf32>, %m : index)
    gpu.memcpy %hg, %c : memref<?xf32>, memref<?xf32>
    func.call @expect_dot(%ha, %hb, %hc, %hw, %n, %m) : (memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, index, index) -> ()
    func.call @compare(%hg, %hw, %n) : (memref<?xf32>, memref<?xf32>, index) -> ()
    gpu.dealloc %a : memref<?xf32>
    gpu.dealloc %b : memref<?xf32>
    gpu.dealloc %c : memref<?xf32>
    memref.dealloc %ha : memref<?xf32>
    memref.dealloc %hb : memref<?xf32>
    memref.dealloc %hc : memref<?xf32>
    memref.dealloc %hg : memref<?xf32>
    memref.dealloc %hw : memref<?xf32>
    return
  }

  func.func @sums() {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c40 = arith.constant 40 : index
    %c48 = arith.constant 48 : index
    %c250 = arith.constant 250 : index
    %c256 = arith.constant 256 : index
    %c600 = arith.constant 600 : index
    %t = arith.constant true
    %f = arith.constant false
    func.call @matmul(%c48, %c3, %f) : (index, index, i1) -> ()
    func.call @matmul(%c40, %c3, %t) : (index, index, i1) -> ()
    func.call @dots(%c600, %c1, %c256) : (index, index, index) -> ()
    func.call @dots(%c600, %c3, %c256) : (index, index, index) -> ()
    func.call @dots(%c600, %c3, %c250) : (index, index, index) -> ()
    return
  }

  // mm at n = 48 with c the memory of b (ab: false), or with A one element short (ab: true,
  // short), or with B never written (ab: true, short: false)
  func.func @bad(%ab: i1, %short: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : index
    %n = arith.constant 48 : index
    %o1 = arith.constant -1.7 : f32
    %nn = arith.constant 2304 : index
    %nm1 = arith.constant 2303 : index
    %na = arith.select %short, %nm1, %nn : index
    %ha = memref.alloc(%nn) : memref<?xf32>
    func.call @fill(%ha, %nn, %o1) : (memref<?xf32>, index, f32) -> ()
    %a = gpu.alloc (%na) : memref<?xf32>
    %b = gpu.alloc (%nn) : memref<?xf32>
    %a0 = memref.subview %ha[0] [%na] [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
    %a1 = memref.cast %a0 : memref<?xf32, strided<[1]>> to memref<?xf32, strided<[1], offset: ?>>
    %hs = memref.alloc(%na) : memref<?xf32>
    memref.copy %a1, %hs : memref<?xf32, strided<[1], offset: ?>> to memref<?xf32>
    gpu.memcpy %a, %hs : memref<?xf32>, memref<?xf32>
    %nob = arith.constant true
    %fill_b = arith.select %ab, %short, %nob : i1
    scf.if %fill_b {
      gpu.memcpy %b, %ha : memref<?xf32>, memref<?xf32>
    }
    scf.if %ab {
      %c = gpu.alloc (%nn) : memref<?xf32>
      gpu.launch_func @mac::@mm blocks in (%c3, %c3, %c1) threads in (%c16, %c16, %c1)
          args(%a : memref<?xf32>, %b : memref<?xf32>, %c : memref<?xf32>)
      gpu.dealloc %c : memref<?xf32>
    } else {
      gpu.launch_func @mac::@mm blocks in (%c3, %c3, %c1) threads in (%c16, %c16, %c1)
          args(%a : memref<?xf32>, %b : memref<?xf32>, %b : memref<?xf32>)
    }
    gpu.wait
    gpu.dealloc %a : memref<?xf32>
    gpu.dealloc %b : memref<?xf32>
    memref.dealloc %ha : memref<?xf32>
    memref.dealloc %hs : memref<?xf32>
    return
  }

  func.func @race() {
    %f = arith.constant false
    func.call @bad(%f, %f) : (i1, i1) -> ()
    return
  }

  func.func @oob() {
    %t = arith.constant true
    func.call @bad(%t, %t) : (i1, i1) -> ()
    return
  }

  func.func @uninit() {
    %t = arith.constant true
    %f = arith.constant false
    func.call @bad(%t, %f) : (i1, i1) -> ()
    return
  }
}
