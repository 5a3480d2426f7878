"""Writes N parts for --split-input-file, each a small function that returns its number, then one
more part that starts mid-line, after its marker and a tab, with an op that uses an undefined
value. Every 100th function holds an op mlir-opt rejects, with the expected-error directive that
names it."""
import sys

n = int(sys.argv[1])
parts = []
for i in range(n):
    body = ["func.func @f%d(%%m: memref<4xf32>, %%j: index) -> i32 {" % i, "  %%c = arith.constant %d : i32" % i]
    if i % 100 == 99:
        body += ["  // expected-error@+1 {{'memref.load' op incorrect number of indices for load, expected 1 but got 2}}",
                 "  %v = memref.load %m[%j, %j] : memref<4xf32>"]
    body += ["  return %c : i32", "}"]
    parts.append("\n".join(body) + "\n")
print("\n// -----\n\n".join(parts) + "// ----- \t%x = arith.addi %y, %y : i32")
