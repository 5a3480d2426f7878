  // vector.cu's kernels written by hand in the llvm and nvvm dialects: the same parameters
  // (pointers, an f32, an i32) and the same results as the PTX, for host-frame.test.
  gpu.module @vector {
    llvm.func @vadd(%a: !llvm.ptr, %b: !llvm.ptr, %c: !llvm.ptr, %n: i32) attributes {gpu.kernel, nvvm.kernel} {
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %bi = nvvm.read.ptx.sreg.ctaid.x : i32
      %bd = nvvm.read.ptx.sreg.ntid.x : i32
      %m = llvm.mul %bi, %bd : i32
      %i = llvm.add %m, %t : i32
      %in = llvm.icmp "slt" %i, %n : i32
      llvm.cond_br %in, ^bb1, ^bb2
    ^bb1:
      %pa = llvm.getelementptr %a[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %pb = llvm.getelementptr %b[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %pc = llvm.getelementptr %c[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %x = llvm.load %pa : !llvm.ptr -> f32
      %y = llvm.load %pb : !llvm.ptr -> f32
      %z = llvm.fadd %x, %y : f32
      llvm.store %z, %pc : f32, !llvm.ptr
      llvm.br ^bb2
    ^bb2:
      llvm.return
    }
    llvm.func @saxpy(%alpha: f32, %x: !llvm.ptr, %y: !llvm.ptr, %n: i32) attributes {gpu.kernel, nvvm.kernel} {
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %bi = nvvm.read.ptx.sreg.ctaid.x : i32
      %bd = nvvm.read.ptx.sreg.ntid.x : i32
      %m = llvm.mul %bi, %bd : i32
      %i = llvm.add %m, %t : i32
      %in = llvm.icmp "slt" %i, %n : i32
      llvm.cond_br %in, ^bb1, ^bb2
    ^bb1:
      %px = llvm.getelementptr %x[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %py = llvm.getelementptr %y[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %u = llvm.load %px : !llvm.ptr -> f32
      %v = llvm.load %py : !llvm.ptr -> f32
      %p = llvm.fmul %alpha, %u : f32
      %s = llvm.fadd %p, %v : f32
      llvm.store %s, %py : f32, !llvm.ptr
      llvm.br ^bb2
    ^bb2:
      llvm.return
    }
  }
