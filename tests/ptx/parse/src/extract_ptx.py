#!/usr/bin/env python3
"""Prints the PTX text held in the first `assembly = "..."` of a gpu.binary in mlir-opt's output.

   extract_ptx.py in.mlir > out.ptx   (MLIR escapes bytes as \\XX hex pairs, quotes as \\", \\\\ as itself)"""
import re
import sys

text = open(sys.argv[1]).read()
m = re.search(r'assembly = "((?:[^"\\]|\\.)*)"', text)
if not m:
    sys.exit("extract_ptx.py: no assembly string in " + sys.argv[1])
s, out, i = m.group(1), bytearray(), 0
while i < len(s):
    if s[i] == '\\':
        nxt = s[i + 1]
        if nxt in '"\\':
            out += nxt.encode()
            i += 2
        else:
            out.append(int(s[i + 1:i + 3], 16))
            i += 3
    else:
        out += s[i].encode()
        i += 1
sys.stdout.buffer.write(bytes(out))
