"""Writes a function of N blocks in one chain, with a diamond and a loop every 1000 blocks, where
every block uses a value of the entry block, of the block before it and of the loop header; with
`bad`, the last block also uses a value defined on one arm of the first diamond, which does not
dominate it."""
import sys

n, bad = int(sys.argv[1]), len(sys.argv) > 2
out = ["func.func @main(%p: i1) {", "  %c = arith.constant 1 : i32", "  cf.br ^b1"]
for i in range(1, n):
    out.append(f"^b{i}:")
    out.append(f"  %v{i} = arith.addi %c, %c : i32" if i == 1 else f"  %v{i} = arith.addi %c, %v{i - 1} : i32")
    if i % 1000 == 1:  # a diamond: ^b{i} -> ^l{i} | ^r{i} -> ^b{i+1}
        out += [f"  cf.cond_br %p, ^l{i}, ^r{i}", f"^l{i}:", f"  %arm{i} = arith.addi %v{i}, %c : i32",
                f"  cf.br ^b{i + 1}", f"^r{i}:", f"  cf.br ^b{i + 1}"]
    elif i % 1000 == 500:  # a loop back to itself
        out.append(f"  cf.cond_br %p, ^b{i}, ^b{i + 1}")
    else:
        out.append(f"  cf.br ^b{i + 1}")
out.append(f"^b{n}:")
out.append(f"  %last = arith.addi %v1, %v{n - 1} : i32")
if bad:
    out.append("  %wrong = arith.addi %arm1, %c : i32")
out += ["  return", "}"]
print("\n".join(out))
