// A tree reduction of 4 blocks x 128 i32 in workgroup memory, a gpu.barrier after each of its
// 7 steps; each block's sum goes to out[block]. Race-free: racecheck and the simulator must
// both say so (tests/gpu/run.sh).
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @reduce(%in: memref<512xi32>, %out: memref<4xi32>) workgroup(%sh: memref<128xi32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %base = arith.muli %bx, %c128 : index
      %i = arith.addi %base, %tx : index
      %v = memref.load %in[%i] : memref<512xi32>
      memref.store %v, %sh[%tx] : memref<128xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %h64 = arith.constant 64 : index
      %go64 = arith.cmpi ult, %tx, %h64 : index
      scf.if %go64 {
        %j64 = arith.addi %tx, %h64 : index
        %a64 = memref.load %sh[%tx] : memref<128xi32, #gpu.address_space<workgroup>>
        %b64 = memref.load %sh[%j64] : memref<128xi32, #gpu.address_space<workgroup>>
        %s64 = arith.addi %a64, %b64 : i32
        memref.store %s64, %sh[%tx] : memref<128xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %h32 = arith.constant 32 : index
      %go32 = arith.cmpi ult, %tx, %h32 : index
      scf.if %go32 {
        %j32 = arith.addi %tx, %h32 : index
        %a32 = memref.load %sh[%tx] : memref<128xi32, #gpu.address_space<workgroup>>
        %b32 = memref.load %sh[%j32] : memref<128xi32, #gpu.address_space<workgroup>>
        %s32 = arith.addi %a32, %b32 : i32
        memref.store %s32, %sh[%tx] : memref<128xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %h16 = arith.constant 16 : index
      %go16 = arith.cmpi ult, %tx, %h16 : index
      scf.if %go16 {
        %j16 = arith.addi %tx, %h16 : index
        %a16 = memref.load %sh[%tx] : memref<128xi32, #gpu.address_space<workgroup>>
        %b16 = memref.load %sh[%j16] : memref<128xi32, #gpu.address_space<workgroup>>
        %s16 = arith.addi %a16, %b16 : i32
        memref.store %s16, %sh[%tx] : memref<128xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %h8 = arith.constant 8 : index
      %go8 = arith.cmpi ult, %tx, %h8 : index
      scf.if %go8 {
        %j8 = arith.addi %tx, %h8 : index
        %a8 = memref.load %sh[%tx] : memref<128xi32, #gpu.address_space<workgroup>>
        %b8 = memref.load %sh[%j8] : memref<128xi32, #gpu.address_space<workgroup>>
        %s8 = arith.addi %a8, %b8 : i32
        memref.store %s8, %sh[%tx] : memref<128xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %h4 = arith.constant 4 : index
      %go4 = arith.cmpi ult, %tx, %h4 : index
      scf.if %go4 {
        %j4 = arith.addi %tx, %h4 : index
        %a4 = memref.load %sh[%tx] : memref<128xi32, #gpu.address_space<workgroup>>
        %b4 = memref.load %sh[%j4] : memref<128xi32, #gpu.address_space<workgroup>>
        %s4 = arith.addi %a4, %b4 : i32
        memref.store %s4, %sh[%tx] : memref<128xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %h2 = arith.constant 2 : index
      %go2 = arith.cmpi ult, %tx, %h2 : index
      scf.if %go2 {
        %j2 = arith.addi %tx, %h2 : index
        %a2 = memref.load %sh[%tx] : memref<128xi32, #gpu.address_space<workgroup>>
        %b2 = memref.load %sh[%j2] : memref<128xi32, #gpu.address_space<workgroup>>
        %s2 = arith.addi %a2, %b2 : i32
        memref.store %s2, %sh[%tx] : memref<128xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %h1 = arith.constant 1 : index
      %go1 = arith.cmpi ult, %tx, %h1 : index
      scf.if %go1 {
        %j1 = arith.addi %tx, %h1 : index
        %a1 = memref.load %sh[%tx] : memref<128xi32, #gpu.address_space<workgroup>>
        %b1 = memref.load %sh[%j1] : memref<128xi32, #gpu.address_space<workgroup>>
        %s1 = arith.addi %a1, %b1 : i32
        memref.store %s1, %sh[%tx] : memref<128xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        %r = memref.load %sh[%c0] : memref<128xi32, #gpu.address_space<workgroup>>
        memref.store %r, %out[%bx] : memref<4xi32>
      }
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %n = arith.constant 512 : index
    %h = memref.alloc() : memref<512xi32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      memref.store %ii, %h[%i] : memref<512xi32>
    }
    %ho = memref.alloc() : memref<4xi32>
    %d = gpu.alloc () : memref<512xi32>
    %o = gpu.alloc () : memref<4xi32>
    gpu.memcpy %d, %h : memref<512xi32>, memref<512xi32>
    gpu.launch_func @k::@reduce blocks in (%c4, %c1, %c1) threads in (%c128, %c1, %c1) args(%d : memref<512xi32>, %o : memref<4xi32>)
    gpu.memcpy %ho, %o : memref<4xi32>, memref<4xi32>
    gpu.dealloc %d : memref<512xi32>
    gpu.dealloc %o : memref<4xi32>
    %u = memref.cast %ho : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %h : memref<512xi32>
    memref.dealloc %ho : memref<4xi32>
    return
  }
}
