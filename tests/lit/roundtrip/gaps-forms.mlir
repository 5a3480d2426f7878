// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// Forms closed after the interpreters found them missing: cf.switch and llvm.switch case values
// as dense integer elements (zero-extended by cf.switch's printer, signed by llvm.switch's);
// memref alloca_scope (with its implicit alloca_scope.return), realloc, memory_space_cast;
// llvm extractelement, insertelement, shufflevector, the vector reductions (only the float
// min/max ones have a custom form in MLIR 22; the others, fadd and fmul with their fastmath
// flags, stay generic) and stacksave/stackrestore.

module {
  func.func @cf_switch(%x: i8, %y: i32, %z: i64) {
    cf.switch %x : i8, [default: ^bb1, 200: ^bb1, -1: ^bb2(%y : i32), 5: ^bb1]
  ^bb1:
    cf.switch %z : i64, [default: ^bb2(%y : i32), -1: ^bb3, 9223372036854775807: ^bb3]
  ^bb2(%a: i32):
    cf.switch %y : i32, [default: ^bb3, 4: ^bb3, 4: ^bb3]
  ^bb3:
    return
  }
  llvm.func @llvm_switch(%x: i8, %y: i32) {
    llvm.switch %x : i8, ^bb1 [200: ^bb1, -1: ^bb2(%y : i32), 3: ^bb1]
  ^bb1:
    llvm.switch %y : i32, ^bb2(%y : i32) [7: ^bb3, 7: ^bb3]
  ^bb2(%a: i32):
    llvm.switch %y : i32, ^bb3 []
  ^bb3:
    llvm.return
  }
  func.func @memref_ops(%m: memref<4xf32>, %n: index) -> f32 {
    memref.alloca_scope {
      %a = memref.alloca() : memref<4xf32>
    }
    memref.alloca_scope {
    }
    memref.alloca_scope {
      memref.alloca_scope.return
    } {tag = 1}
    %r = memref.alloca_scope -> (f32) {
      %c0 = arith.constant 0 : index
      %v = memref.load %m[%c0] : memref<4xf32>
      memref.alloca_scope.return %v : f32
    }
    %r2:2 = memref.alloca_scope -> (f32, index) {
      memref.alloca_scope.return %r, %n : f32, index
    }
    %b = memref.realloc %m : memref<4xf32> to memref<8xf32>
    %c = memref.realloc %b(%n) : memref<8xf32> to memref<?xf32>
    %d = memref.realloc %c {alignment = 8} : memref<?xf32> to memref<16xf32>
    %e = memref.memory_space_cast %m : memref<4xf32> to memref<4xf32, 1>
    %g = memref.memory_space_cast %e : memref<4xf32, 1> to memref<4xf32, #gpu.address_space<workgroup>>
    %u = memref.cast %g : memref<4xf32, #gpu.address_space<workgroup>> to memref<*xf32, #gpu.address_space<workgroup>>
    %h = memref.memory_space_cast %u : memref<*xf32, #gpu.address_space<workgroup>> to memref<*xf32>
    return %r : f32
  }
  llvm.func @vec(%v: vector<4xf32>, %i: i32, %x: f32, %j: i64, %s: vector<[4]xf32>, %w: vector<4xi32>) {
    %a = llvm.extractelement %v[%i : i32] : vector<4xf32>
    %b = llvm.insertelement %x, %v[%j : i64] {tag} : vector<4xf32>
    %c = llvm.shufflevector %v, %v [0, 1, 4, -1] : vector<4xf32>
    %c2 = llvm.shufflevector %v, %v [0, 1] {tag} : vector<4xf32>
    %c3 = llvm.shufflevector %s, %s [0, 0, 0, 0] : vector<[4]xf32>
    %e = llvm.extractelement %s[%i : i32] : vector<[4]xf32>
    %f = llvm.insertelement %x, %s[%i : i32] : vector<[4]xf32>
    %r0 = "llvm.intr.vector.reduce.add"(%w) : (vector<4xi32>) -> i32
    %r1 = "llvm.intr.vector.reduce.mul"(%w) : (vector<4xi32>) -> i32
    %r2 = "llvm.intr.vector.reduce.and"(%w) : (vector<4xi32>) -> i32
    %r3 = "llvm.intr.vector.reduce.or"(%w) : (vector<4xi32>) -> i32
    %r4 = "llvm.intr.vector.reduce.xor"(%w) : (vector<4xi32>) -> i32
    %r5 = "llvm.intr.vector.reduce.smax"(%w) : (vector<4xi32>) -> i32
    %r6 = "llvm.intr.vector.reduce.smin"(%w) : (vector<4xi32>) -> i32
    %r7 = "llvm.intr.vector.reduce.umax"(%w) : (vector<4xi32>) -> i32
    %r8 = "llvm.intr.vector.reduce.umin"(%w) : (vector<4xi32>) -> i32
    %r9 = "llvm.intr.vector.reduce.fadd"(%x, %v) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, vector<4xf32>) -> f32
    %r10 = "llvm.intr.vector.reduce.fadd"(%x, %v) <{fastmathFlags = #llvm.fastmath<reassoc>}> : (f32, vector<4xf32>) -> f32
    %r11 = "llvm.intr.vector.reduce.fmul"(%x, %v) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, vector<4xf32>) -> f32
    %r12 = "llvm.intr.vector.reduce.fmul"(%x, %v) {fastmathFlags = #llvm.fastmath<nnan, reassoc>} : (f32, vector<4xf32>) -> f32
    %r13 = llvm.intr.vector.reduce.fmax(%v) : (vector<4xf32>) -> f32
    %r14 = llvm.intr.vector.reduce.fmin(%v) {fastmathFlags = #llvm.fastmath<fast>} : (vector<4xf32>) -> f32
    %r15 = llvm.intr.vector.reduce.fmaximum(%v) {fastmathFlags = #llvm.fastmath<nnan>} : (vector<4xf32>) -> f32
    %r16 = llvm.intr.vector.reduce.fminimum(%v) : (vector<4xf32>) -> f32
    %r17 = llvm.intr.vector.reduce.fmax(%s) : (vector<[4]xf32>) -> f32
    %s1 = llvm.intr.stacksave : !llvm.ptr
    llvm.intr.stackrestore %s1 : !llvm.ptr
    %s2 = llvm.intr.stacksave : !llvm.ptr<1>
    llvm.intr.stackrestore %s2 : !llvm.ptr<1>
    llvm.return
  }
}
