// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// The generic op form mixed with custom forms, for registered ops:
// properties <{...}> and discardable attributes {...}, regions, successors
// with operands, multiple results, ops with no results, an explicit empty
// properties dictionary, result types in parentheses, unusual spacing, and
// a generic op nested inside a custom op and vice versa.

"builtin.module"() ({
  "func.func"() <{function_type = (i32, i1) -> i32, sym_name = "g", sym_visibility = "private"}> ({
  ^bb0(%a: i32, %c: i1):
    %0 = "arith.addi"(%a, %a) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32
    %1 = "arith.constant"() <{value = 3 : i32}> {x.note = "discardable"} : () -> i32
    %2:2 = "arith.addui_extended"(%0, %1) : (i32, i32) -> (i32, i1)
    "cf.cond_br"(%c, %0, %2#0)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (i1, i32, i32) -> ()
  ^bb1(%x: i32):
    "cf.br"(%x)[^bb3] : (i32) -> ()
  ^bb2(%y: i32):
    %r = scf.if %c -> (i32) {
      %z = "arith.muli"(%y, %y) : (i32, i32) -> (i32)
      "scf.yield"(%z) : (i32) -> ()
    } else {
      scf.yield %y : i32
    }
    "cf.br"(%r)[^bb3] : (i32) -> ()
  ^bb3(%w: i32):
    "func.return"(%w) : (i32) -> ()
  }) : () -> ()
  func.func @h(%n: index) {
    %c0 = "arith.constant"() <{value = 0 : index}> : () -> index
    %c1 = arith.constant 1 : index
    "scf.for"(%c0, %n, %c1) ({
    ^bb0(%i: index):
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    %m = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32>
    "memref.dealloc"(%m) : (memref<4xf32>) -> ()
    "func.return"  (  )  :  (  )  ->  (  )
  }
  "gpu.module"() <{sym_name = "kernels"}> ({
    "gpu.func"() <{function_type = () -> ()}> ({
      %t = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
      "gpu.barrier"() : () -> ()
      "gpu.return"() : () -> ()
    }) {gpu.kernel, sym_name = "k", workgroup_attributions = 0 : i64} : () -> ()
  }) : () -> ()
}) {gpu.container_module} : () -> ()
