// A memref.store of rank 2 whose two indices vary as the block's rows and columns (a matmul's
// `memref.store %s, %c[%row, %col]`) runs a row at a time (kernel/kernel_ops.c, grid_store), at
// the edges of that path:
//   pos      thread (x, y) of block (i, j) stores row * 1000 + col at [r0 + 16 j + y, c0 + 16 i + x]
//            of a 40x50 memref (rows 200 bytes apart): every element of the grid holds its own,
//            every other the host's -1;
//   whole    the same over all of a 32x16 memref (the rows contiguous: one run), nothing written
//            before: the copy back reads no unwritten byte; and a value the same in every thread;
//   matmul   bench/kernels' matmul at 48 (its loads, mulf and addf, and the store) against the host;
//   oob      pos one row past the memref's end: reported at the first thread past it, as thread
//            by thread;
//   ww       blocks whose rows overlap by half storing their own block's id: a race between them;
//   same     the same blocks storing one value: a benign race (a note), the run succeeds.
// RUN: %gpuinterp -e pos %s 2>&1 | FileCheck %s --check-prefix=POS
// RUN: %gpuinterp --sched=serial -e whole %s 2>&1 | FileCheck %s --check-prefix=WHOLE
// RUN: %gpuinterp -e matmul %s 2>&1 | FileCheck %s --check-prefix=MM
// RUN: not %gpuinterp -e oob %s 2>&1 | FileCheck %s --check-prefix=OOB
// RUN: not %gpuinterp --sched=serial -e ww %s 2>&1 | FileCheck %s --check-prefix=WW
// RUN: %gpuinterp --sched=serial -e same %s 2>&1 | FileCheck %s --check-prefix=SAME
// POS: mismatches 0
// POS-NOT: error:
// WHOLE: mismatches 0
// WHOLE-NEXT: mismatches 0
// WHOLE-NOT: error:
// MM: mismatches 0
// MM-NOT: error:
// OOB: error: 'memref.store' op out-of-bounds store: bytes [8008, 8012) of the memref: index 40 is not in [0, 40) in dimension 0 (thread (0, 15, 0) of block (0, 1, 0))
// WW: error: 'memref.store' op data race in global memory: block (0, 1, 0) writes a different value to 512 bytes at 0x{{[0-9a-f]+}}, which block (0, 0, 0) writes at 'memref.store' (75:7); blocks of one launch are not ordered; the values first differ at byte 2
// SAME: note: 'memref.store' op benign race in global memory: block (0, 1, 0) writes 512 bytes at 0x{{[0-9a-f]+}} with the value block (0, 0, 0) wrote there at 'memref.store' (75:7)
// SAME-NOT: error:
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @pos(%c: memref<?x?xf32>, %r0: index, %c0: index) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %c16 = arith.constant 16 : index
      %c1000 = arith.constant 1000 : index
      %y0 = arith.muli %by, %c16 : index
      %y1 = arith.addi %y0, %ty : index
      %row = arith.addi %y1, %r0 : index
      %x0 = arith.muli %bx, %c16 : index
      %x1 = arith.addi %x0, %tx : index
      %col = arith.addi %x1, %c0 : index
      %v0 = arith.muli %row, %c1000 : index
      %v1 = arith.addi %v0, %col : index
      %w = arith.index_cast %v1 : index to i32
      %v = arith.sitofp %w : i32 to f32
      memref.store %v, %c[%row, %col] : memref<?x?xf32>
      gpu.return
    }
    gpu.func @uni(%c: memref<?x16xf32>, %v: f32) kernel {
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %c16 = arith.constant 16 : index
      %y0 = arith.muli %by, %c16 : index
      %row = arith.addi %y0, %ty : index
      memref.store %v, %c[%row, %tx] : memref<?x16xf32>
      gpu.return
    }
    // rows 8 * block y + thread y: block (0, j + 1)'s first 8 rows are block (0, j)'s last
    gpu.func @over(%c: memref<?x16xf32>, %same: i1) kernel {
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %c8 = arith.constant 8 : index
      %y0 = arith.muli %by, %c8 : index
      %row = arith.addi %y0, %ty : index
      %w = arith.index_cast %by : index to i32
      %f = arith.sitofp %w : i32 to f32
      %one = arith.constant 1.0 : f32
      %v = arith.select %same, %one, %f : f32
      memref.store %v, %c[%row, %tx] : memref<?x16xf32>
      gpu.return
    }
    gpu.func @mm(%a: memref<48x48xf32>, %b: memref<48x48xf32>, %c: memref<48x48xf32>) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %cn = arith.constant 48 : index
      %r0 = arith.muli %by, %c16 : index
      %row = arith.addi %r0, %ty : index
      %q0 = arith.muli %bx, %c16 : index
      %col = arith.addi %q0, %tx : index
      %z = arith.constant 0.0 : f32
      %sum = scf.for %k = %c0 to %cn step %c1 iter_args(%acc = %z) -> (f32) {
        %x = memref.load %a[%row, %k] : memref<48x48xf32>
        %y = memref.load %b[%k, %col] : memref<48x48xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%row, %col] : memref<48x48xf32>
      gpu.return
    }
  }

  func.func private @printI64(i64)
  func.func private @printNewline()

  func.func @report(%bad: i64) {
    vector.print str "mismatches "
    call @printI64(%bad) : (i64) -> ()
    call @printNewline() : () -> ()
    return
  }

  // the elements of h (r x q) that differ from row * 1000 + col inside [r0, r0 + gr) x [c0, c0 + gq)
  // and from -1 outside
  func.func @check(%h: memref<?x?xf32>, %r: index, %q: index, %r0: index, %c0: index, %gr: index, %gq: index) -> i64 {
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    %c1000 = arith.constant 1000 : index
    %z = arith.constant 0 : i64
    %one = arith.constant 1 : i64
    %m1 = arith.constant -1.0 : f32
    %r1 = arith.addi %r0, %gr : index
    %q1 = arith.addi %c0, %gq : index
    %bad = scf.for %i = %i0 to %r step %i1 iter_args(%b0 = %z) -> (i64) {
      %bi = scf.for %j = %i0 to %q step %i1 iter_args(%b1 = %b0) -> (i64) {
        %x = memref.load %h[%i, %j] : memref<?x?xf32>
        %v0 = arith.muli %i, %c1000 : index
        %v1 = arith.addi %v0, %j : index
        %w = arith.index_cast %v1 : index to i32
        %v = arith.sitofp %w : i32 to f32
        %a = arith.cmpi uge, %i, %r0 : index
        %b = arith.cmpi ult, %i, %r1 : index
        %c = arith.cmpi uge, %j, %c0 : index
        %d = arith.cmpi ult, %j, %q1 : index
        %ab = arith.andi %a, %b : i1
        %cd = arith.andi %c, %d : i1
        %in = arith.andi %ab, %cd : i1
        %want = arith.select %in, %v, %m1 : f32
        %ne = arith.cmpf une, %x, %want : f32
        %b2 = arith.addi %b1, %one : i64
        %b3 = arith.select %ne, %b2, %b1 : i64
        scf.yield %b3 : i64
      }
      scf.yield %bi : i64
    }
    return %bad : i64
  }

  // pos over (r x q) from (r0, c0), nbx x nby blocks
  func.func @pos_run(%r: index, %q: index, %r0: index, %c0: index, %nbx: index, %nby: index) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %m1 = arith.constant -1.0 : f32
    %h = memref.alloc(%r, %q) : memref<?x?xf32>
    %i0 = arith.constant 0 : index
    scf.for %i = %i0 to %r step %c1 {
      scf.for %j = %i0 to %q step %c1 {
        memref.store %m1, %h[%i, %j] : memref<?x?xf32>
      }
    }
    %d = gpu.alloc (%r, %q) : memref<?x?xf32>
    gpu.memcpy %d, %h : memref<?x?xf32>, memref<?x?xf32>
    gpu.launch_func @k::@pos blocks in (%nbx, %nby, %c1) threads in (%c16, %c16, %c1)
        args(%d : memref<?x?xf32>, %r0 : index, %c0 : index)
    gpu.memcpy %h, %d : memref<?x?xf32>, memref<?x?xf32>
    %gr = arith.muli %nby, %c16 : index
    %gq = arith.muli %nbx, %c16 : index
    %bad = call @check(%h, %r, %q, %r0, %c0, %gr, %gq) : (memref<?x?xf32>, index, index, index, index, index, index) -> i64
    call @report(%bad) : (i64) -> ()
    gpu.dealloc %d : memref<?x?xf32>
    memref.dealloc %h : memref<?x?xf32>
    return
  }

  func.func @pos() {
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c40 = arith.constant 40 : index
    %c50 = arith.constant 50 : index
    call @pos_run(%c40, %c50, %c5, %c2, %c3, %c2) : (index, index, index, index, index, index) -> ()
    return
  }

  func.func @oob() {
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c9 = arith.constant 9 : index
    %c40 = arith.constant 40 : index
    %c50 = arith.constant 50 : index
    call @pos_run(%c40, %c50, %c9, %c2, %c3, %c2) : (index, index, index, index, index, index) -> ()
    return
  }

  func.func @whole() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %h = memref.alloc(%c32, %c16) : memref<?x?xf32>
    %d = gpu.alloc (%c32, %c16) : memref<?x?xf32>
    gpu.launch_func @k::@pos blocks in (%c1, %c2, %c1) threads in (%c16, %c16, %c1)
        args(%d : memref<?x?xf32>, %c0 : index, %c0 : index)
    gpu.memcpy %h, %d : memref<?x?xf32>, memref<?x?xf32>
    %bad = call @check(%h, %c32, %c16, %c0, %c0, %c32, %c16) : (memref<?x?xf32>, index, index, index, index, index, index) -> i64
    call @report(%bad) : (i64) -> ()
    // one value for every thread
    %u = gpu.alloc (%c32) : memref<?x16xf32>
    %hu = memref.alloc(%c32) : memref<?x16xf32>
    %v = arith.constant 2.5 : f32
    gpu.launch_func @k::@uni blocks in (%c1, %c2, %c1) threads in (%c16, %c16, %c1)
        args(%u : memref<?x16xf32>, %v : f32)
    gpu.memcpy %hu, %u : memref<?x16xf32>, memref<?x16xf32>
    %z = arith.constant 0 : i64
    %one = arith.constant 1 : i64
    %bu = scf.for %i = %c0 to %c32 step %c1 iter_args(%b0 = %z) -> (i64) {
      %bi = scf.for %j = %c0 to %c16 step %c1 iter_args(%b1 = %b0) -> (i64) {
        %x = memref.load %hu[%i, %j] : memref<?x16xf32>
        %ne = arith.cmpf une, %x, %v : f32
        %b2 = arith.addi %b1, %one : i64
        %b3 = arith.select %ne, %b2, %b1 : i64
        scf.yield %b3 : i64
      }
      scf.yield %bi : i64
    }
    call @report(%bu) : (i64) -> ()
    gpu.dealloc %d : memref<?x?xf32>
    gpu.dealloc %u : memref<?x16xf32>
    memref.dealloc %h : memref<?x?xf32>
    memref.dealloc %hu : memref<?x16xf32>
    return
  }

  func.func @matmul() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : index
    %c48 = arith.constant 48 : index
    %c7 = arith.constant 7 : index
    %c13 = arith.constant 13 : index
    %tenth = arith.constant 0.1 : f32
    %ha = memref.alloc() : memref<48x48xf32>
    %hb = memref.alloc() : memref<48x48xf32>
    %hc = memref.alloc() : memref<48x48xf32>
    scf.for %i = %c0 to %c48 step %c1 {
      scf.for %j = %c0 to %c48 step %c1 {
        %p = arith.muli %i, %c7 : index
        %q = arith.addi %p, %j : index
        %r = arith.remui %q, %c13 : index
        %w = arith.index_cast %r : index to i32
        %f = arith.sitofp %w : i32 to f32
        %x = arith.mulf %f, %tenth : f32
        memref.store %x, %ha[%i, %j] : memref<48x48xf32>
        %y = arith.subf %tenth, %x : f32
        memref.store %y, %hb[%i, %j] : memref<48x48xf32>
      }
    }
    %a = gpu.alloc () : memref<48x48xf32>
    %b = gpu.alloc () : memref<48x48xf32>
    %c = gpu.alloc () : memref<48x48xf32>
    gpu.memcpy %a, %ha : memref<48x48xf32>, memref<48x48xf32>
    gpu.memcpy %b, %hb : memref<48x48xf32>, memref<48x48xf32>
    gpu.launch_func @k::@mm blocks in (%c3, %c3, %c1) threads in (%c16, %c16, %c1)
        args(%a : memref<48x48xf32>, %b : memref<48x48xf32>, %c : memref<48x48xf32>)
    gpu.memcpy %hc, %c : memref<48x48xf32>, memref<48x48xf32>
    %z = arith.constant 0 : i64
    %one = arith.constant 1 : i64
    %zf = arith.constant 0.0 : f32
    %bad = scf.for %i = %c0 to %c48 step %c1 iter_args(%b0 = %z) -> (i64) {
      %bi = scf.for %j = %c0 to %c48 step %c1 iter_args(%b1 = %b0) -> (i64) {
        %s = scf.for %k = %c0 to %c48 step %c1 iter_args(%acc = %zf) -> (f32) {
          %x = memref.load %ha[%i, %k] : memref<48x48xf32>
          %y = memref.load %hb[%k, %j] : memref<48x48xf32>
          %p = arith.mulf %x, %y : f32
          %t = arith.addf %acc, %p : f32
          scf.yield %t : f32
        }
        %g = memref.load %hc[%i, %j] : memref<48x48xf32>
        %gb = arith.bitcast %g : f32 to i32
        %sb = arith.bitcast %s : f32 to i32
        %ne = arith.cmpi ne, %gb, %sb : i32
        %b2 = arith.addi %b1, %one : i64
        %b3 = arith.select %ne, %b2, %b1 : i64
        scf.yield %b3 : i64
      }
      scf.yield %bi : i64
    }
    call @report(%bad) : (i64) -> ()
    gpu.dealloc %a : memref<48x48xf32>
    gpu.dealloc %b : memref<48x48xf32>
    gpu.dealloc %c : memref<48x48xf32>
    memref.dealloc %ha : memref<48x48xf32>
    memref.dealloc %hb : memref<48x48xf32>
    memref.dealloc %hc : memref<48x48xf32>
    return
  }

  // blocks (0, 0) .. (0, 2) over rows 0 .. 31 of a 32x16 memref, their rows overlapping by half
  func.func @overlap(%same: i1) {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %u = gpu.alloc (%c32) : memref<?x16xf32>
    gpu.launch_func @k::@over blocks in (%c1, %c3, %c1) threads in (%c16, %c16, %c1)
        args(%u : memref<?x16xf32>, %same : i1)
    gpu.wait
    gpu.dealloc %u : memref<?x16xf32>
    return
  }

  func.func @ww() {
    %f = arith.constant false
    call @overlap(%f) : (i1) -> ()
    return
  }

  func.func @same() {
    %t = arith.constant true
    call @overlap(%t) : (i1) -> ()
    return
  }
}
