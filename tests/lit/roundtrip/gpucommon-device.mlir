// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// In the style of the inputs of mlir/test/Conversion/GPUCommon/
// {memory-attrbution,lower-memory-space-attrs,memref-arg-attrs}.mlir:
// gpu.func arguments with memory spaces and llvm.* argument attributes,
// workgroup/private attributions of 0-d and 3-d memrefs, memory spaces
// given as integers and as #gpu.address_space, loads and stores through
// them, and a global id computed from block and thread ids. Lowered by
// tests/corpus-tools/gen-lowered.sh into lowered-gpucommon-device-nvvm.mlir.

gpu.module @kernel {
  gpu.func @private_3d(%arg0: f32) private(%arg1 : memref<4x2x6xf32, #gpu.address_space<private>>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    memref.store %arg0, %arg1[%c0, %c1, %c2] : memref<4x2x6xf32, #gpu.address_space<private>>
    gpu.return
  }

  gpu.func @workgroup_0d(%arg0: f32) workgroup(%arg1 : memref<f32, #gpu.address_space<workgroup>>) kernel {
    memref.store %arg0, %arg1[] : memref<f32, #gpu.address_space<workgroup>>
    gpu.barrier
    gpu.return
  }

  gpu.func @two_workgroup(%arg0: f32) workgroup(%a : memref<16xf32, #gpu.address_space<workgroup>>, %b : memref<2x8xi32, #gpu.address_space<workgroup>>) kernel {
    %c3 = arith.constant 3 : index
    memref.store %arg0, %a[%c3] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.return
  }

  gpu.func @spaces(%g: memref<4xf32, #gpu.address_space<global>>, %w: memref<4xf32, #gpu.address_space<workgroup>>, %p: memref<4xf32, #gpu.address_space<private>>, %n: memref<4xf32, 1>) kernel {
    %c0 = arith.constant 0 : index
    %v = memref.load %g[%c0] : memref<4xf32, #gpu.address_space<global>>
    memref.store %v, %w[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %v, %p[%c0] : memref<4xf32, #gpu.address_space<private>>
    memref.store %v, %n[%c0] : memref<4xf32, 1>
    gpu.return
  }

  gpu.func @arg_attrs(%a: memref<?xf32> {llvm.noalias}, %b: memref<?xf32> {llvm.noalias, llvm.readonly}, %n: index {llvm.align = 8 : i64}) kernel {
    %bid = gpu.block_id x
    %bdim = gpu.block_dim x
    %tid = gpu.thread_id x
    %base = arith.muli %bid, %bdim : index
    %gid = arith.addi %base, %tid : index
    %in = arith.cmpi ult, %gid, %n : index
    scf.if %in {
      %v = memref.load %b[%gid] : memref<?xf32>
      memref.store %v, %a[%gid] : memref<?xf32>
    }
    gpu.return
  }
}
