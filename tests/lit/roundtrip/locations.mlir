// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// Locations: every form (unknown, file:line:col, file:line:col ranges,
// names with and without a child, callsite, fused with and without
// metadata, nested), on ops, on block arguments (entry and non-entry,
// region arguments), on the module, through #loc aliases (defined before
// and after use, aliases of aliases), and ops without any (they get the
// file:line:col mlir-opt synthesizes).

#loc_file = loc("kernel.cu":10:3)
#loc_named = loc("named_site"(#loc_file))
#gen = loc("generated.mlir":1:1)

module @locs {
  func.func @f(%a: i32 loc("args.c":1:10), %b: i32 loc(unknown)) -> i32 {
    %0 = arith.addi %a, %b : i32 loc("file.mlir":3:5)
    %1 = arith.muli %0, %a : i32 loc(unknown)
    %2 = arith.subi %1, %b : i32 loc("just_a_name")
    %3 = arith.addi %2, %2 : i32 loc("name_with_child"("inner.c":7:1))
    %4 = arith.addi %3, %3 : i32 loc(callsite("callee.c":2:2 at "caller.c":9:9))
    %5 = arith.addi %4, %4 : i32 loc(callsite(callsite("a.c":1:1 at "b.c":2:2) at "c.c":3:3))
    %6 = arith.addi %5, %5 : i32 loc(fused["one.c":1:1, "two.c":2:2])
    %7 = arith.addi %6, %6 : i32 loc(fused<"meta">["three.c":3:3])
    %8 = arith.addi %7, %7 : i32 loc(fused<{k = 1 : i64}>["four.c":4:4, "x"])
    %9 = arith.addi %8, %8 : i32 loc(#loc_file)
    %10 = arith.addi %9, %9 : i32 loc(#loc_named)
    %11 = arith.addi %10, %10 : i32 loc(#loc_late)
    %12 = arith.addi %11, %11 : i32 loc("range.c":1:2 to 3:4)
    %13 = arith.addi %12, %12 : i32 loc("line_range.c":5:6 to :8)
    %14 = arith.addi %13, %13 : i32 loc("no_col.c":12)
    %15 = arith.addi %14, %14 : i32
    %16 = arith.addi %15, %15 : i32 loc("with\"quote\\.c":1:1)
    %17 = arith.addi %16, %16 : i32 loc(fused[#gen, "name"(#loc_file)])
    cf.br ^bb1(%17 : i32) loc("br.c":1:1)
  ^bb1(%x: i32 loc("blockarg.c":4:4)):
    %c = arith.constant 1 : i32
    %r = scf.execute_region -> i32 {
      scf.yield %x : i32 loc("yield.c":6:6)
    } loc("region_op.c":5:5)
    return %r : i32 loc(#gen)
  } loc("func.c":1:1)
  func.func @loop(%n: index) {
    %c0 = arith.constant 0 : index loc(unknown)
    scf.for %i = %c0 to %n step %n {
    } loc("for.c":2:2)
    %w = scf.while (%arg = %c0) : (index) -> index {
      %t = arith.constant false
      scf.condition(%t) %arg : index
    } do {
    ^bb0(%v: index loc("after_arg.c":3:3)):
      scf.yield %v : index
    }
    return
  }
} loc("module.c":0:0)

#loc_late = loc("defined_after_use.c":99:1)
