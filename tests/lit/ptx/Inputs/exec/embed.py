#!/usr/bin/env python3
"""embed.py PTX TEMPLATE: prints TEMPLATE with "@PTX@" replaced by PTX's text as an MLIR string's
contents (the form a gpu.binary's #gpu.object holds), so that a test's PTX stays readable in its
own file and its diagnostics point at lines of that file."""
import sys

ptx = open(sys.argv[1], "rb").read()
esc = "".join(chr(b) if 32 <= b < 127 and b not in (ord('"'), ord("\\")) else "\\%02X" % b for b in ptx)
sys.stdout.write(open(sys.argv[2]).read().replace("@PTX@", esc))
