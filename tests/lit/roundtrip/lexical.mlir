// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// Lexical corner cases: SSA and block names with punctuation and digits,
// result groups (%x:2 / %x#1) and lists (%a, %b = ...), a string holding
// "//" and braces, comments after code and between tokens, tabs, trailing
// spaces, blank lines with spaces, Unicode in comments (∑ ü), keywords used
// as names, a very long line, and no newline at the end of the file.

func.func @names(%arg: i32, %_under: i32, %x.y: i32, %$dollar: i32, %a-b: i32, %0: i32) -> i32 {  // trailing comment
  %1 = arith.addi %arg, %_under : i32   
	%2 = arith.addi %x.y, %$dollar : i32
  %for = arith.addi %a-b, %0 : i32 // comment: { } " ( 
    
  %pair:2 = arith.addui_extended %1, %2 : i32, i1
  %lo, %hi = arith.mulsi_extended %pair#0, %for : i32
  %s = arith.addi %lo, // a comment between operands
                  %hi : i32
  cf.br ^bb.with.dots(%s : i32)
^bb.with.dots(%v: i32):
  cf.br ^bb_2(%v : i32)
^bb_2(%w: i32):
  return %w : i32
}
func.func @strings() attributes {x.s = "// not a comment { } ( ) %0 ^bb @sym", x.t = "a\"b"} {
  %c = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63]> : vector<64xi32>
  return
}
func.func @no_final_newline() {
  return
}