// Guards at a cut (kernel/ptx_mem.c, ptx_x_setp_cut; Inputs/exec/cuts.ptx): each compare of
// tid * 3 + BASE against b, for b from -8 to 52 and bases -2 and 0 (-2: the unsigned values wrap
// in the block), over 16 threads, all of them and those from 5 on, launched again and again on
// the same frames (a cut made for one b is not taken for another), gives what the same compare
// gives thread by thread (its predicate read by a selp too, so no cut).
// RUN: rm -rf %t && mkdir %t
// RUN: for m in eq.s32 ne.s32 lt.s32 le.s32 gt.s32 ge.s32 eq.u32 ne.u32 lo.u32 ls.u32 hi.u32 hs.u32; do \
// RUN:   for base in -2 0; do for lim in 0 5; do \
// RUN:     sed "s/MODE\.TYPE/$m/; s/BASE/$base/; s/LIM/$lim/" %S/Inputs/exec/cuts.ptx > %t/a.ptx; \
// RUN:     sed 's/^\(\t@%%p1 bra \t$L_1;\)$/\tselp.u32 \t%%r0, 1, 0, %%p1;\n\1/' %t/a.ptx > %t/r.ptx; \
// RUN:     grep -q selp %t/r.ptx || exit 1; \
// RUN:     python3 %S/Inputs/exec/embed.py %t/a.ptx %s > %t/a.mlir; python3 %S/Inputs/exec/embed.py %t/r.ptx %s > %t/r.mlir; \
// RUN:     %gpuinterp %t/a.mlir 2>&1 | sed 's/base@ = 0x[0-9a-f]*//' > %t/a.$m.$base.$lim.out; \
// RUN:     %gpuinterp %t/r.mlir 2>&1 | sed 's/base@ = 0x[0-9a-f]*//' > %t/r.$m.$base.$lim.out; \
// RUN:     diff %t/a.$m.$base.$lim.out %t/r.$m.$base.$lim.out || exit 1; \
// RUN:   done; done; done
// RUN: FileCheck %s --check-prefix=EQ < %t/a.eq.s32.0.0.out
// RUN: FileCheck %s --check-prefix=NE < %t/a.ne.u32.-2.5.out
// eq: the thread whose value is b (0: thread 0, 6: thread 2, 45: thread 15) alone branches; ne:
// that thread alone falls through both branches (13: thread 5), none but those from 5 on.
// EQ: b 0:
// EQ-NEXT: [0,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3]
// EQ: b 6:
// EQ-NEXT: [3,  3,  0,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3]
// EQ: b 45:
// EQ-NEXT: [3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  0]
// EQ: b 46:
// EQ-NEXT: [3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3]
// NE: b 13:
// NE-NEXT: [0,  0,  0,  0,  0,  3,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// NE: b 1:
// NE-NEXT: [0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// EQ-NOT: error
// NE-NOT: error
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_80">, assembly = "@PTX@">]
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printI64(i64)

  func.func @show(%p: !llvm.ptr, %u: memref<*xi32>, %b: i32) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @k::@cut blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%p : !llvm.ptr, %b : i32)
    %b64 = arith.extsi %b : i32 to i64
    vector.print str "b "
    call @printI64(%b64) : (i64) -> ()
    vector.print str ": "
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c61 = arith.constant 61 : index
    %out = gpu.alloc host_shared () : memref<16xi32>
    %u = memref.cast %out : memref<16xi32> to memref<*xi32>
    %p0 = memref.extract_aligned_pointer_as_index %out : memref<16xi32> -> index
    %p1 = arith.index_cast %p0 : index to i64
    %p = llvm.inttoptr %p1 : i64 to !llvm.ptr
    // b from -8 to 52, then 0, 6, 45 and 46 again, 13, 1, -2
    scf.for %i = %c0 to %c61 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %m8 = arith.constant -8 : i32
      %b = arith.addi %ii, %m8 : i32
      gpu.launch_func @k::@cut blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%p : !llvm.ptr, %b : i32)
    }
    %b0 = arith.constant 0 : i32
    %b6 = arith.constant 6 : i32
    %b45 = arith.constant 45 : i32
    %b46 = arith.constant 46 : i32
    %bm2 = arith.constant -2 : i32
    %b13 = arith.constant 13 : i32
    %b1 = arith.constant 1 : i32
    call @show(%p, %u, %b0) : (!llvm.ptr, memref<*xi32>, i32) -> ()
    call @show(%p, %u, %b6) : (!llvm.ptr, memref<*xi32>, i32) -> ()
    call @show(%p, %u, %b45) : (!llvm.ptr, memref<*xi32>, i32) -> ()
    call @show(%p, %u, %b46) : (!llvm.ptr, memref<*xi32>, i32) -> ()
    call @show(%p, %u, %bm2) : (!llvm.ptr, memref<*xi32>, i32) -> ()
    call @show(%p, %u, %b13) : (!llvm.ptr, memref<*xi32>, i32) -> ()
    call @show(%p, %u, %b1) : (!llvm.ptr, memref<*xi32>, i32) -> ()
    call @show(%p, %u, %bm2) : (!llvm.ptr, memref<*xi32>, i32) -> ()
    gpu.dealloc %out : memref<16xi32>
    return
  }
}
