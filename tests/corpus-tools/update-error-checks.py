#!/usr/bin/env python3
"""update-error-checks.py — write the CHECK lines of tests/lit/parse-errors/
from what mlir-opt 22 says about each file.

usage: tests/corpus-tools/update-error-checks.py [--mlir-opt PATH] FILE...
       tests/corpus-tools/update-error-checks.py            (all of parse-errors/)

A parse-error test is
    // RUN: <gpuinterp, expecting exit 2> | FileCheck --strict-whitespace %s
    // RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
    // <what the case is>
    // CHECK... lines (generated)
    <blank line>
    <the malformed program>

For every `error:` diagnostic mlir-opt prints, three checks are written:
the `FILE:LINE:COL: error: MESSAGE` line (file name matched by {{.*}} and
the base name), the echoed source line and the caret line, anchored with
{{^}} so that --strict-whitespace checks the caret's column. `note:` lines
are not checked (their text, e.g. mlir-opt's generic print of the op, is
the front end's own business). Messages that embed a printed op are cut
before it. The second RUN line keeps the checks honest: they must stay
true of mlir-opt itself.

The number of CHECK lines is what it was, or the loop runs again until it
is stable, so the line numbers of the program below them come out right.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DIAG = re.compile(r"^(.*?):(\d+):(\d+): (error|note|warning): (.*)$")
# Message tails that print IR in mlir-opt's own generic form: cut there.
CUTS = [re.compile(r"(block with no terminator), has .*")]


def escape(text):
    """Make literal text safe for a FileCheck pattern."""
    return text.replace("{{", "{{[{][{]}}").replace("[[", "{{[[][[]}}")


def checks_for(path, mlir_opt):
    out = subprocess.run([mlir_opt, path], capture_output=True, text=True)
    if out.returncode == 0:
        sys.exit(f"{path}: mlir-opt accepts this file; it is not a parse error")
    lines = out.stderr.splitlines()
    base = os.path.basename(path)
    checks = []
    i = 0
    while i < len(lines):
        m = DIAG.match(lines[i])
        if not m or m.group(4) != "error":
            i += 1
            continue
        msg = m.group(5).rstrip()
        for cut in CUTS:
            msg = cut.sub(r"\1", msg)
        checks.append(f"// CHECK: {{{{.*}}}}{base}:{m.group(2)}:{m.group(3)}: error: {escape(msg)}")
        if i + 2 < len(lines) and lines[i + 2].strip() == "^":
            checks.append(f"// CHECK-NEXT: {{{{^}}}}{escape(lines[i + 1])}")
            checks.append(f"// CHECK-NEXT: {{{{^}}}}{lines[i + 2]}")
            i += 3
        else:
            i += 1
    if not checks:
        sys.exit(f"{path}: mlir-opt failed without an error diagnostic:\n{out.stderr}")
    return checks


def rewrite(path, mlir_opt):
    for _ in range(5):
        with open(path) as f:
            lines = f.read().splitlines()
        old = [l for l in lines if l.startswith("// CHECK")]
        first = next((k for k, l in enumerate(lines) if l.startswith("// CHECK")), None)
        if first is None:  # new file: checks go before the first blank line
            first = lines.index("")
        rest = [l for l in lines if not l.startswith("// CHECK")]
        new = checks_for(path, mlir_opt)
        out = rest[:first] + new + rest[first:]
        with open(path, "w") as f:
            f.write("\n".join(out) + "\n")
        if new == old or len(new) == len(old):
            if checks_for(path, mlir_opt) == new:
                return
    sys.exit(f"{path}: CHECK lines do not settle")


def main(argv):
    mlir_opt = "/usr/lib/llvm-22/bin/mlir-opt"
    if len(argv) >= 2 and argv[0] == "--mlir-opt":
        mlir_opt, argv = argv[1], argv[2:]
    if not argv:
        d = os.path.join(ROOT, "tests", "lit", "parse-errors")
        argv = sorted(os.path.join(d, f) for f in os.listdir(d)
                      if f.endswith(".mlir") and not f.startswith("legacy-"))
    for path in argv:
        rewrite(path, mlir_opt)
        print(f"updated {os.path.relpath(path, ROOT)}")


if __name__ == "__main__":
    main(sys.argv[1:])
