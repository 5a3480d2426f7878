// PTX kernels of hand-written PTX (Inputs/exec/fp.ptx) run on the kernel engine: cvt between f16,
// bf16, tf32, f32, f64 and integers by every rounding with .relu and .satfinite, f16x2/bf16x2
// packing (@cvts); f16, f16x2, bf16 and bf16x2 add, sub, mul, fma (.ftz, .sat, .relu), neg, abs,
// min and max (.NaN), setp and set, ex2 and tanh, on normal, subnormal, infinite and NaN halves
// (@halves); the carry chain (add.cc, addc, sub.cc, subc, mad.cc, madc; 32 and 64 bits) making
// 128-bit sums, differences and products (@carry); f32 and f64 add, sub, mul, fma, div, sqrt and
// rcp rounded toward zero, down and up, mad24.hi.sat, dp4a, dp2a, fns, lop3 with a predicate
// result, tanh.approx.f32, ex2.approx.ftz.f32, min/max.NaN, a vector register's components and
// whole-register ld/st, f16x2 registers in .v2 accesses, .v4.b16 loads, pack and unpack of halves,
// cvt.rni/.rpi of halves and cvt.rz.bf16.u64 (@misc). Every word is compared, bit for bit, with
// what the CPU reference Inputs/exec/fp-ref.c computes (host _Float16 and fesetround for f16 and
// the directed roundings, round-to-odd for bf16 and fma, unsigned __int128 for the carries), built
// and run by the test.

// RUN: python3 %S/Inputs/exec/embed.py %S/Inputs/exec/fp.ptx %s > %t.mlir
// RUN: cc -std=gnu11 -O1 -frounding-math -o %t.ref %S/Inputs/exec/fp-ref.c -lm
// RUN: %t.ref > %t.want
// RUN: %gpuinterp %t.mlir > %t.out
// RUN: grep '^\[' %t.out | diff %t.want -
// RUN: %mlir_opt --gpu-to-llvm --reconcile-unrealized-casts %t.mlir | %gpuinterp - | grep '^\[' | diff %t.want -

module attributes {gpu.container_module} {
  gpu.binary @fp [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func private @printMemrefI32(memref<*xi32>)

  func.func @ptr_i32(%m: memref<?xi32>) -> !llvm.ptr {
    %i = memref.extract_aligned_pointer_as_index %m : memref<?xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    return %p : !llvm.ptr
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %zero = arith.constant 0 : i32
    %cvts_out = gpu.alloc () : memref<1024xi32>
    gpu.memset %cvts_out, %zero : memref<1024xi32>, i32
    %cvts_dyn = memref.cast %cvts_out : memref<1024xi32> to memref<?xi32>
    %cvts_p = call @ptr_i32(%cvts_dyn) : (memref<?xi32>) -> !llvm.ptr
    gpu.launch_func @fp::@cvts blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%cvts_p : !llvm.ptr)
    %cvts_host = memref.alloc() : memref<1024xi32>
    gpu.memcpy %cvts_host, %cvts_out : memref<1024xi32>, memref<1024xi32>
    %cvts_u = memref.cast %cvts_host : memref<1024xi32> to memref<*xi32>
    call @printMemrefI32(%cvts_u) : (memref<*xi32>) -> ()
    gpu.dealloc %cvts_out : memref<1024xi32>
    memref.dealloc %cvts_host : memref<1024xi32>

    %halves_out = gpu.alloc () : memref<1024xi32>
    gpu.memset %halves_out, %zero : memref<1024xi32>, i32
    %halves_dyn = memref.cast %halves_out : memref<1024xi32> to memref<?xi32>
    %halves_p = call @ptr_i32(%halves_dyn) : (memref<?xi32>) -> !llvm.ptr
    gpu.launch_func @fp::@halves blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%halves_p : !llvm.ptr)
    %halves_host = memref.alloc() : memref<1024xi32>
    gpu.memcpy %halves_host, %halves_out : memref<1024xi32>, memref<1024xi32>
    %halves_u = memref.cast %halves_host : memref<1024xi32> to memref<*xi32>
    call @printMemrefI32(%halves_u) : (memref<*xi32>) -> ()
    gpu.dealloc %halves_out : memref<1024xi32>
    memref.dealloc %halves_host : memref<1024xi32>

    %carry_out = gpu.alloc () : memref<1024xi32>
    gpu.memset %carry_out, %zero : memref<1024xi32>, i32
    %carry_dyn = memref.cast %carry_out : memref<1024xi32> to memref<?xi32>
    %carry_p = call @ptr_i32(%carry_dyn) : (memref<?xi32>) -> !llvm.ptr
    gpu.launch_func @fp::@carry blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%carry_p : !llvm.ptr)
    %carry_host = memref.alloc() : memref<1024xi32>
    gpu.memcpy %carry_host, %carry_out : memref<1024xi32>, memref<1024xi32>
    %carry_u = memref.cast %carry_host : memref<1024xi32> to memref<*xi32>
    call @printMemrefI32(%carry_u) : (memref<*xi32>) -> ()
    gpu.dealloc %carry_out : memref<1024xi32>
    memref.dealloc %carry_host : memref<1024xi32>

    %misc_out = gpu.alloc () : memref<2048xi32>
    gpu.memset %misc_out, %zero : memref<2048xi32>, i32
    %misc_dyn = memref.cast %misc_out : memref<2048xi32> to memref<?xi32>
    %misc_p = call @ptr_i32(%misc_dyn) : (memref<?xi32>) -> !llvm.ptr
    gpu.launch_func @fp::@misc blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%misc_p : !llvm.ptr)
    %misc_host = memref.alloc() : memref<2048xi32>
    gpu.memcpy %misc_host, %misc_out : memref<2048xi32>, memref<2048xi32>
    %misc_u = memref.cast %misc_host : memref<2048xi32> to memref<*xi32>
    call @printMemrefI32(%misc_u) : (memref<*xi32>) -> ()
    gpu.dealloc %misc_out : memref<2048xi32>
    memref.dealloc %misc_host : memref<2048xi32>
    return
  }
}
