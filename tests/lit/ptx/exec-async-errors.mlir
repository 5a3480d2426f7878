// Wrong uses of cp.async, mbarrier and named barriers (Inputs/exec/async-errors.ptx, named
// @async.ptx after its gpu.binary), each stopped at its PTX place with the thread and a note at the
// launch: a thread's read of its own cp.async destination before its cp.async.wait_group (the copy
// is made at issue, but on a GPU the bytes may not be there yet), another thread's read of it after
// a bar.sync but before the copying thread's cp.async.wait_all, a cp.async to a misaligned shared
// address and one reading more than it copies, a cp.async.bulk completing its bytes on an mbarrier
// no mbarrier.init made, an arrive on one, an mbarrier outside shared memory, an mbarrier phase
// that cannot complete (a try_wait loop: the first time every thread waits the wait times out, the
// second it is a deadlock), a named barrier that the threads left cannot complete, and an
// mbarrier.arrive.noComplete that completes the phase.

// RUN: python3 %S/Inputs/exec/embed.py %S/Inputs/exec/async-errors.ptx %s > %t.mlir
// RUN: not %gpuinterp --split-input-file %t.mlir 2>&1 | FileCheck %s
// RUN: %mlir_opt --gpu-to-llvm --reconcile-unrealized-casts --split-input-file %t.mlir | not %gpuinterp --split-input-file - 2>&1 | FileCheck %s --check-prefix=LOW

// CHECK: {{^}}@async.ptx:23:2: error: 'cp.async.wait_group' op data race in shared memory: thread (0, 0, 0) read bytes [0, 4) at 'ld.shared.u32' (22:2) while the copy of the cp.async at 'cp.async.ca.shared.global' (20:2) into them was in flight (it completes at this wait) (thread (0, 0, 0) of block (0, 0, 0))
// CHECK: note: in the kernel launched here
// CHECK-NOT: after the launch
// LOW: {{^}}@async.ptx:23:2: error: 'cp.async.wait_group' op data race in shared memory: thread (0, 0, 0) read bytes [0, 4) at 'ld.shared.u32' (22:2) while the copy of the cp.async at 'cp.async.ca.shared.global' (20:2) into them was in flight (it completes at this wait) (thread (0, 0, 0) of block (0, 0, 0))
module attributes {gpu.container_module} {
  gpu.binary @async [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 8 : index
    %z = arith.constant 0 : i32
    %m = gpu.alloc () : memref<64xi32>
    gpu.memset %m, %z : memref<64xi32>, i32
    %i = memref.extract_aligned_pointer_as_index %m : memref<64xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @async::@read_early blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<64xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@async.ptx:46:2: error: 'cp.async.wait_all' op data race in shared memory: thread (4, 0, 0) read bytes [0, 4) at 'ld.shared.u32' (45:2) while the copy of the cp.async at 'cp.async.ca.shared.global' (40:2) into them was in flight (it completes at this wait) (thread (0, 0, 0) of block (0, 0, 0))
// CHECK: note: in the kernel launched here
// CHECK-NOT: after the launch
// LOW: {{^}}@async.ptx:46:2: error: 'cp.async.wait_all' op data race in shared memory: thread (4, 0, 0) read bytes [0, 4) at 'ld.shared.u32' (45:2) while the copy of the cp.async at 'cp.async.ca.shared.global' (40:2) into them was in flight (it completes at this wait) (thread (0, 0, 0) of block (0, 0, 0))
module attributes {gpu.container_module} {
  gpu.binary @async [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 8 : index
    %z = arith.constant 0 : i32
    %m = gpu.alloc () : memref<64xi32>
    gpu.memset %m, %z : memref<64xi32>, i32
    %i = memref.extract_aligned_pointer_as_index %m : memref<64xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @async::@read_other blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<64xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@async.ptx:56:2: error: 'cp.async.cg.shared.global' op cp.async of 16 bytes to shared offset 4, which is not a multiple of 16 (thread (0, 0, 0) of block (0, 0, 0))
// CHECK: note: in the kernel launched here
// CHECK-NOT: after the launch
// LOW: {{^}}@async.ptx:56:2: error: 'cp.async.cg.shared.global' op cp.async of 16 bytes to shared offset 4, which is not a multiple of 16 (thread (0, 0, 0) of block (0, 0, 0))
module attributes {gpu.container_module} {
  gpu.binary @async [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 1 : index
    %z = arith.constant 0 : i32
    %m = gpu.alloc () : memref<64xi32>
    gpu.memset %m, %z : memref<64xi32>, i32
    %i = memref.extract_aligned_pointer_as_index %m : memref<64xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @async::@misaligned blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<64xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@async.ptx:67:2: error: 'cp.async.ca.shared.global' op cp.async reads 12 bytes, more than the 8 it copies (thread (0, 0, 0) of block (0, 0, 0))
// CHECK: note: in the kernel launched here
// CHECK-NOT: after the launch
// LOW: {{^}}@async.ptx:67:2: error: 'cp.async.ca.shared.global' op cp.async reads 12 bytes, more than the 8 it copies (thread (0, 0, 0) of block (0, 0, 0))
module attributes {gpu.container_module} {
  gpu.binary @async [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 1 : index
    %z = arith.constant 0 : i32
    %m = gpu.alloc () : memref<64xi32>
    gpu.memset %m, %z : memref<64xi32>, i32
    %i = memref.extract_aligned_pointer_as_index %m : memref<64xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @async::@too_much blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<64xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@async.ptx:77:2: error: 'cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes' op the mbarrier object at shared offset 256 is not initialized (mbarrier.init) (thread (0, 0, 0) of block (0, 0, 0))
// CHECK: note: in the kernel launched here
// CHECK-NOT: after the launch
// LOW: {{^}}@async.ptx:77:2: error: 'cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes' op the mbarrier object at shared offset 256 is not initialized (mbarrier.init) (thread (0, 0, 0) of block (0, 0, 0))
module attributes {gpu.container_module} {
  gpu.binary @async [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 1 : index
    %z = arith.constant 0 : i32
    %m = gpu.alloc () : memref<64xi32>
    gpu.memset %m, %z : memref<64xi32>, i32
    %i = memref.extract_aligned_pointer_as_index %m : memref<64xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @async::@bulk blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<64xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@async.ptx:85:2: error: 'mbarrier.arrive.shared.b64' op the mbarrier object at shared offset 0 is not initialized (mbarrier.init) (thread (0, 0, 0) of block (0, 0, 0))
// CHECK: note: in the kernel launched here
// CHECK-NOT: after the launch
// LOW: {{^}}@async.ptx:85:2: error: 'mbarrier.arrive.shared.b64' op the mbarrier object at shared offset 0 is not initialized (mbarrier.init) (thread (0, 0, 0) of block (0, 0, 0))
module attributes {gpu.container_module} {
  gpu.binary @async [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 1 : index
    %z = arith.constant 0 : i32
    %m = gpu.alloc () : memref<64xi32>
    gpu.memset %m, %z : memref<64xi32>, i32
    %i = memref.extract_aligned_pointer_as_index %m : memref<64xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @async::@uninit blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<64xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@async.ptx:93:2: error: 'mbarrier.init.b64' op an mbarrier object at address 0x{{[0-9a-f]+}}, which is not 8 bytes of the block's shared memory (0 bytes) (thread (0, 0, 0) of block (0, 0, 0))
// CHECK: note: in the kernel launched here
// CHECK-NOT: after the launch
// LOW: {{^}}@async.ptx:93:2: error: 'mbarrier.init.b64' op an mbarrier object at address 0x{{[0-9a-f]+}}, which is not 8 bytes of the block's shared memory (0 bytes) (thread (0, 0, 0) of block (0, 0, 0))
module attributes {gpu.container_module} {
  gpu.binary @async [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 1 : index
    %z = arith.constant 0 : i32
    %m = gpu.alloc () : memref<64xi32>
    gpu.memset %m, %z : memref<64xi32>, i32
    %i = memref.extract_aligned_pointer_as_index %m : memref<64xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @async::@outside blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<64xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@async.ptx:111:2: error: 'mbarrier.try_wait.shared.b64' op deadlock: every thread of the block that has not ended waits, and no mbarrier phase they wait for can complete (thread (0, 0, 0) of block (0, 0, 0))
// CHECK: note: in the kernel launched here
// CHECK-NOT: after the launch
// LOW: {{^}}@async.ptx:111:2: error: 'mbarrier.try_wait.shared.b64' op deadlock: every thread of the block that has not ended waits, and no mbarrier phase they wait for can complete (thread (0, 0, 0) of block (0, 0, 0))
module attributes {gpu.container_module} {
  gpu.binary @async [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 32 : index
    %z = arith.constant 0 : i32
    %m = gpu.alloc () : memref<64xi32>
    gpu.memset %m, %z : memref<64xi32>, i32
    %i = memref.extract_aligned_pointer_as_index %m : memref<64xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @async::@deadlock blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<64xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@async.ptx:124:2: error: 'bar.sync' op deadlock: barrier 1 waits for 64 threads, 32 arrived, and no other thread of the block can arrive (the others ended or wait elsewhere) (thread (0, 0, 0) of block (0, 0, 0))
// CHECK: note: in the kernel launched here
// CHECK-NOT: after the launch
// LOW: {{^}}@async.ptx:124:2: error: 'bar.sync' op deadlock: barrier 1 waits for 64 threads, 32 arrived, and no other thread of the block can arrive (the others ended or wait elsewhere) (thread (0, 0, 0) of block (0, 0, 0))
module attributes {gpu.container_module} {
  gpu.binary @async [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 64 : index
    %z = arith.constant 0 : i32
    %m = gpu.alloc () : memref<64xi32>
    gpu.memset %m, %z : memref<64xi32>, i32
    %i = memref.extract_aligned_pointer_as_index %m : memref<64xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @async::@named_deadlock blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<64xi32>
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@async.ptx:134:2: error: 'mbarrier.arrive.noComplete.shared.b64' op mbarrier.arrive.noComplete completes the mbarrier's phase (thread (0, 0, 0) of block (0, 0, 0))
// CHECK: note: in the kernel launched here
// CHECK-NOT: after the launch
// LOW: {{^}}@async.ptx:134:2: error: 'mbarrier.arrive.noComplete.shared.b64' op mbarrier.arrive.noComplete completes the mbarrier's phase (thread (0, 0, 0) of block (0, 0, 0))
module attributes {gpu.container_module} {
  gpu.binary @async [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cn = arith.constant 1 : index
    %z = arith.constant 0 : i32
    %m = gpu.alloc () : memref<64xi32>
    gpu.memset %m, %z : memref<64xi32>, i32
    %i = memref.extract_aligned_pointer_as_index %m : memref<64xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @async::@no_complete blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %m : memref<64xi32>
    vector.print str "after the launch\n"
    return
  }
}

// CHECK: gpuinterp: 10 errors
