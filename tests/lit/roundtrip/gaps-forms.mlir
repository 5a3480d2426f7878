// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// Forms closed after the interpreters found them missing: cf.switch and llvm.switch case values
// as dense integer elements (zero-extended by cf.switch's printer, signed by llvm.switch's);
// memref alloca_scope (with its implicit alloca_scope.return), realloc, memory_space_cast.

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
}
