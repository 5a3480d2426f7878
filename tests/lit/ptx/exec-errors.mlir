// What PTX kernels are refused with and what they are stopped for, each at its PTX place
// (Inputs/exec/errors.ptx, named @errors.ptx after its gpu.binary) with its source line and caret,
// the thread and block where one runs, and a note at the launch: an instruction, a modifier and a
// special register the engine does not run; a store to memory no allocation holds; shared memory
// past its end; a shared-memory race; a barrier under a guard only some threads pass; an integer
// division by zero; a shuffle by a thread outside its member mask; a launch whose operands do not
// fit the kernel's parameters, of a kernel the PTX does not have, and of PTX that does not parse;
// two blocks storing different values to one word; a vector width its operand does not have; a
// shf without its mode; a lop3 whose table is a register; a .local store past the thread's local memory;
// a load past the module's .global variables; two blocks storing different values to one of them;
// fns with a base past bit 31; cvt.rna to other than .tf32; a whole vector register as an operand;
// more threads at a bar.arrive than its count; a bar.sync thread count other than the block's; a
// redux by a thread outside its member mask; a failed cf.assert (__assertfail) naming its message,
// file and line; trap; recursion past the depth calls are inlined to; an indirect call of a data
// pointer; a call of an external function other than vprintf and __assertfail; a call passing a
// register and one passing too many arguments; a barrier in a device function only some threads
// call; a recursion of two calls a level, more instructions inlined than the engine compiles.

// RUN: python3 %S/Inputs/exec/embed.py %S/Inputs/exec/errors.ptx %s > %t.mlir
// RUN: not %gpuinterp --split-input-file %t.mlir 2>&1 | FileCheck %s
// The race checks off leave the bounds checks as they are (shared stores take a faster path then):
// RUN: not %gpuinterp --race-check=off --split-input-file %t.mlir 2>&1 | FileCheck %s --check-prefix=OFF

// CHECK: {{^}}@errors.ptx:13:2: error: 'vadd.u32.u32.u32' is not supported by the PTX kernel engine yet
// CHECK-NEXT: vadd.u32.u32.u32 %r2, %r1, %r1, %r1;
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+14]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 8 : i32
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@no_vadd blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:21:2: error: 'fma.rn.oob.f16': modifier '.oob' is not supported by the PTX kernel engine yet
// CHECK-NEXT: fma.rn.oob.f16 %h2, %h1, %h1, %h1;
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+14]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 8 : i32
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@no_oob blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:28:16: error: special register %envreg3 is not supported by the PTX kernel engine yet
// CHECK-NEXT: mov.u32 %r1, %envreg3;
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+14]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 8 : i32
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@no_envreg blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:39:2: error: 'st.global.u32' op out-of-bounds access: 4 bytes at 0x{{[0-9a-f]+}}, in no memory the device holds (thread (0, 0, 0) of block (0, 0, 0))
// CHECK-NEXT: st.global.u32 [%rd2], %r1;
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+15]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+12]]:5: note: the program ends at this synchronization: the kernel launched by 'gpu.launch_func' @errors::@{{[a-z_]+}} ({{[0-9]+}}:5) failed, and a failed launch is sticky
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 8 : i32
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@wild blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:51:2: error: 'st.shared.u32' op out-of-bounds access: 4 bytes at offset 16 of the block's shared memory (16 bytes) (thread (4, 0, 0) of block (0, 0, 0))
// OFF: {{^}}@errors.ptx:51:2: error: 'st.shared.u32' op out-of-bounds access: 4 bytes at offset 16 of the block's shared memory (16 bytes) (thread (4, 0, 0) of block (0, 0, 0))
// CHECK-NEXT: st.shared.u32 [%r3], %r1;
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+15]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+12]]:5: note: the program ends at this synchronization: the kernel launched by 'gpu.launch_func' @errors::@{{[a-z_]+}} ({{[0-9]+}}:5) failed, and a failed launch is sticky
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 8 : i32
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@shared_oob blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:64:2: error: 'ld.shared.u32' op data race in shared memory: reads bytes [4, 8), which thread (1, 0, 0) wrote at 'st.shared.u32' (63:2) with no gpu.barrier in between (thread (0, 0, 0) of block (0, 0, 0))
// CHECK-NEXT: ld.shared.u32 %r5, [%r4+4];
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+15]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+12]]:5: note: the program ends at this synchronization: the kernel launched by 'gpu.launch_func' @errors::@{{[a-z_]+}} ({{[0-9]+}}:5) failed, and a failed launch is sticky
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 8 : i32
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@shared_race blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:74:7: error: 'bar.sync' op divergent barrier: 3 of 8 threads reached it: (0, 0, 0), (1, 0, 0), (2, 0, 0); 5 did not: (3, 0, 0), (4, 0, 0), (5, 0, 0), (6, 0, 0), (7, 0, 0) (block (0, 0, 0))
// CHECK-NEXT: @%p1 bar.sync 0;
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+15]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+12]]:5: note: the program ends at this synchronization: the kernel launched by 'gpu.launch_func' @errors::@{{[a-z_]+}} ({{[0-9]+}}:5) failed, and a failed launch is sticky
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 8 : i32
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@guarded_barrier blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:83:2: error: 'div.u32' op integer division by zero (thread (2, 0, 0) of block (0, 0, 0))
// CHECK-NEXT: div.u32 %r3, 100, %r2;
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+15]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+12]]:5: note: the program ends at this synchronization: the kernel launched by 'gpu.launch_func' @errors::@{{[a-z_]+}} ({{[0-9]+}}:5) failed, and a failed launch is sticky
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 8 : i32
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@div_zero blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:91:2: error: 'shfl.sync.down.b32' op a thread outside the shuffle's member mask 0x0000000f executes it (thread (4, 0, 0) of block (0, 0, 0))
// CHECK-NEXT: shfl.sync.down.b32 %r2, %r1, 1, 31, 15;
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+15]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+12]]:5: note: the program ends at this synchronization: the kernel launched by 'gpu.launch_func' @errors::@{{[a-z_]+}} ({{[0-9]+}}:5) failed, and a failed launch is sticky
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 8 : i32
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@shfl_mask blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^.*}}.tmp.mlir:[[@LINE+14]]:5: error: 'gpu.launch_func' op passes an integer as kernel operand 0 to PTX kernel parameter 0 of type .u64
// CHECK-NEXT: gpu.launch_func @errors::@wild blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%n : i32)
// CHECK-NEXT: ^
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 8 : i32
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@wild blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%n : i32)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^.*}}.tmp.mlir:[[@LINE+14]]:5: error: 'gpu.launch_func' op @errors.ptx has no kernel (.entry) 'nothing'
// CHECK-NEXT: gpu.launch_func @errors::@nothing blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr)
// CHECK-NEXT: ^
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 8 : i32
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@nothing blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@bad.ptx:6:10: error: use of undeclared register '%r1'
// CHECK-NEXT: mov.u32 %r1, 1;
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+8]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @bad [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 8.0\0A.target sm_90\0A.address_size 64\0A.visible .entry k()\0A{\0A\09mov.u32 %r1, 1;\0A}\0A">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @bad::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:101:2: error: 'st.global.u32' op data race in global memory: block (1, 0, 0) writes a different value to 4 bytes at 0x{{[0-9a-f]+}}, which block (0, 0, 0) writes at 'st.global.u32' (101:2); blocks of one launch are not ordered
// CHECK-NEXT: st.global.u32 [%rd1], %r1;
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^}}@errors.ptx:101:2: note: the other access
// CHECK-NEXT: st.global.u32 [%rd1], %r1;
// CHECK-NEXT: {{^}} ^
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@blocks_race blocks in (%c2, %c1, %c1) threads in (%c1, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:110:2: error: 'ld.global.v2.u32': a vector width other than its operand's is not supported by the PTX kernel engine yet
// CHECK-NEXT: ld.global.v2.u32 %r1, [%rd1];
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+12]]:5: note: in the kernel launched here
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 8 : i32
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@vec_mismatch blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:118:2: error: 'shf.l.b32': a shf without one direction (.l, .r) and one mode (.wrap, .clamp) is not supported by the PTX kernel engine yet
// CHECK-NEXT: shf.l.b32 %r2, %r1, %r1, %r1;
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+12]]:5: note: in the kernel launched here
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 8 : i32
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@shf_no_mode blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:126:32: error: the lookup table of lop3 must be an immediate
// CHECK-NEXT: lop3.b32 %r2, %r1, %r1, %r1, %r1;
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+12]]:5: note: in the kernel launched here
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 8 : i32
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@lop3_reg_lut blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:135:2: error: 'st.local.u32' op out-of-bounds access: 4 bytes at offset 16 of the thread's local memory (16 bytes) (thread (0, 0, 0) of block (0, 0, 0))
// CHECK-NEXT: st.local.u32 [v+16], %r1;
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@local_oob blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:144:2: error: 'ld.global.u32' op out-of-bounds access: 4 bytes at 0x{{[0-9a-f]+}}, in no memory the device holds (thread (0, 0, 0) of block (0, 0, 0))
// CHECK-NEXT: ld.global.u32 %r1, [gwords+4096];
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@global_oob blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:152:2: error: 'st.global.u32' op data race in global memory: block (1, 0, 0) writes a different value to 4 bytes at 0x{{[0-9a-f]+}}, which block (0, 0, 0) writes at 'st.global.u32' (152:2); blocks of one launch are not ordered
// CHECK-NEXT: st.global.u32 [gwords+8], %r1;
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@global_race blocks in (%c2, %c1, %c1) threads in (%c1, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:161:2: error: 'fns.b32' op fns with a base of 32 (past bit 31) (thread (2, 0, 0) of block (0, 0, 0))
// CHECK-NEXT: fns.b32 %r3, -1, %r2, 1;
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@fns_base blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:170:2: error: 'cvt.rna.f16.f32': .rna of other than a .tf32 result is not supported by the PTX kernel engine yet
// CHECK-NEXT: cvt.rna.f16.f32 %h1, %f1;
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@no_rna_f16 blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:178:16: error: a whole vector register as this operand is not supported by the PTX kernel engine yet
// CHECK-NEXT: add.f32 %f1, %v1, %v1;
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@whole_vec blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:184:2: error: 'bar.arrive' op 96 threads arrived at barrier 1 of 64 threads (thread (0, 0, 0) of block (0, 0, 0))
// CHECK-NEXT: bar.arrive 	1, 64;
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+13]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 96 : index
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@arrive blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:190:2: error: 'bar.sync' op a barrier of 32 threads in a block of 64 (64 in whole warps) is not supported by the PTX kernel engine yet: its barrier is the whole block's (thread (0, 0, 0) of block (0, 0, 0))
// CHECK-NEXT: bar.sync 	0, 32;
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+13]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 64 : index
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@bar_count blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:198:2: error: 'redux.sync.add.u32' op a thread outside the redux's member mask 0x0000ffff executes it (thread (16, 0, 0) of block (0, 0, 0))
// CHECK-NEXT: redux.sync.add.u32 	%r2, %r1, 65535;
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+13]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 32 : index
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@redux_mask blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:241:2: error: 'call.uni' op assertion failed: tid below 3 (a.mlir:7, in (unknown)) (thread (3, 0, 0) of block (0, 0, 0))
// CHECK-NEXT: call.uni __assertfail, (param0, param1, param2, param3, param4);
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+13]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 8 : index
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@assert_fail blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:254:7: error: 'trap' op trap (thread (5, 0, 0) of block (0, 0, 0))
// CHECK-NEXT: @%p1 trap;
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+13]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 8 : index
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@trap_five blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:272:2: error: 'call' op the call of 'depth' nests calls 33 deep: the PTX kernel engine inlines calls 32 deep at most (thread (0, 0, 0) of block (0, 0, 0))
// CHECK-NEXT: call (rv), depth, (q);
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+13]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 8 : index
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@too_deep blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:302:2: error: 'call' op an indirect call of 0x{{[0-9a-f]+}}, which is not the address of a device function of the module with prototype 'prototype_1' (thread (0, 0, 0) of block (0, 0, 0))
// CHECK-NEXT: call (rv), %rd1, (q), prototype_1;
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+13]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 8 : index
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@indirect blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:316:13: error: a call of the external function 'elsewhere' is not supported by the PTX kernel engine yet (it runs vprintf and __assertfail)
// CHECK-NEXT: call (rv), elsewhere, (q);
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+13]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 8 : index
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@external blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:327:21: error: a call argument other than a .param variable is not supported by the PTX kernel engine yet
// CHECK-NEXT: call (rv), depth, (%r1);
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+13]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 8 : index
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@reg_arg blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:338:2: error: the call of 'depth' passes 2 arguments and 1 return for its 1 parameter and 1 return
// CHECK-NEXT: call (rv), depth, (q, q);
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+13]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 8 : index
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@arg_count blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:346:2: error: 'bar.sync' op divergent barrier: 4 of 8 threads reached it: (0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0); 4 did not: (4, 0, 0), (5, 0, 0), (6, 0, 0), (7, 0, 0) (block (0, 0, 0))
// CHECK-NEXT: bar.sync 	0;
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+13]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 8 : index
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@call_barrier blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:375:2: error: the kernel with its calls inlined has more than 200000 instructions, more than the PTX kernel engine compiles
// CHECK-NEXT: call (rv), fib, (q);
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+13]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 8 : index
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@fib_budget blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@errors.ptx:411:16: error: an address whose offset does not fit in 64 bits
// CHECK-NEXT: st.local.u32 [buf+9223372036854775807], %r1;
// CHECK-NEXT: {{^}} ^
// CHECK-NEXT: {{^.*}}.tmp.mlir:[[@LINE+13]]:5: note: in the kernel launched here
// CHECK-NEXT: gpu.launch_func
// CHECK-NEXT: ^
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @errors [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 8 : index
    %m = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %m : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @errors::@huge_off blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<8xi32>
    vector.print str "after the launch\n"
    return
  }
}
