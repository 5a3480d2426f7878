#!/usr/bin/env python3
"""deep.py DIR N: writes into DIR one program per recursive path of the parser, each nesting a
type, attribute or location N deep (see nesting-too-deep.test)."""
import os
import sys

d, n = sys.argv[1], int(sys.argv[2])
func = "func.func @f(%a: {}) {{\n  return\n}}\n"
attr = "module attributes {{x = {}}} {{\n}}\n"
cases = {
    "attr-array": attr.format("[" * n + "]" * n),
    "attr-dict": attr.format("{a = " * n + "1" + "}" * n),
    "attr-dense": attr.format("dense<" + "[" * n + "1" + "]" * n + "> : tensor<1xi32>"),
    "type-func": func.format("(" * n + "i32" + ")" * n),
    "type-result": func.format("() -> (" * n + "i32" + ")" * n),
    "type-tuple": func.format("tuple<" * n + "i32" + ">" * n),
    "type-vector": attr.format("vector<4x" * n + "f32" + ">" * n),
    "type-memref": func.format("memref<4x" * n + "f32" + ">" * n),
    "type-async": func.format("!async.value<" * n + "f32" + ">" * n),
    "llvm-struct": func.format("!llvm.struct<(" * n + "i32" + ")>" * n),
    "llvm-struct-nested": func.format("!llvm.struct<(" + "struct<(" * n + "i32" + ")>" * n + ")>"),
    "llvm-named": func.format('!llvm.struct<"s", (' * n + "i32" + ")>" * n),
    "llvm-array": func.format("!llvm.array<2 x " + "array<2 x " * n + "i32" + ">" * n + ">"),
    "llvm-func": func.format("!llvm.func<void (" + "func<void (" * n + ")>" * n + ")>"),
    "loc-fused": "func.func @f() {\n  return\n} loc(" + "fused[" * n + "unknown" + "]" * n + ")\n",
    "loc-callsite": "func.func @f() {\n  return\n} loc(" + "callsite(" * n + '"a"' + ' at "b")' * n + ")\n",
    "loc-name": "func.func @f() {\n  return\n} loc(" + '"a"(' * n + "unknown" + ")" * n + ")\n",
    "mixed": attr.format("[{a = " * n + "1" + "}]" * n),
    "op-attr": '"test.op"() {x = ' + "[" * n + "]" * n + "} : () -> ()\n",
    "op-type": '"test.op"() : () -> ' + "tuple<" * n + "i32" + ">" * n + "\n",
    "custom-form": "func.func @f() {\n  %0 = arith.constant " + "[" * n + "]" * n + " : i32\n  return\n}\n",
}
os.makedirs(d, exist_ok=True)
for name, text in cases.items():
    with open(os.path.join(d, name + ".mlir"), "w") as f:
        f.write(text)
