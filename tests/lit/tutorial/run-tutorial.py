#!/usr/bin/env python3
"""Runs the commands of a tutorial (docs/tutorial.md) and checks what it says they print.

    run-tutorial.py TUTORIAL.md ROOT GPUINTERP MGPUSIM SCRATCH

In each ```sh block, a line `$ COMMAND` is a command, optionally ending in `# exit N` (the exit
status it must have; 0 otherwise). The lines after it, up to the next command or the end of the
block, must appear in its output (stdout, then stderr) in that order, each matching a whole line:
`...` inside a line matches any text, a line that is only `...` any lines, and `0x...` in a line
any hexadecimal address. Commands run with bash in SCRATCH, where examples/ and tests/ point into
ROOT and build/gpuinterp and build/libmgpusim.so are the binaries under test, so the tutorial's
paths work as written. Prints one line per command and exits 1 on the first mismatch.
"""
import os
import re
import subprocess
import sys


def blocks(text):
    out, cur = [], None
    for line in text.splitlines():
        if cur is None and line.strip() == "```sh":
            cur = []
        elif cur is not None and line.strip() == "```":
            out.append(cur)
            cur = None
        elif cur is not None:
            cur.append(line)
    return out


def commands(block):
    cmds = []
    for line in block:
        if line.startswith("$ "):
            m = re.match(r"^\$ (.*?)(?:\s+#\s*exit (\d+))?\s*$", line)
            cmds.append([m.group(1), int(m.group(2) or 0), []])
        elif cmds:
            cmds[-1][2].append(line.rstrip())
    return cmds


def pattern(line):
    parts = re.split(r"(0x\.\.\.|\.\.\.)", line)
    rx = "".join("0x[0-9a-f]+" if p == "0x..." else ".*" if p == "..." else re.escape(p) for p in parts)
    return re.compile("^" + rx + "$")


def matches(expected, actual):
    i = 0
    for want in expected:
        if want.strip() == "...":
            continue
        rx = pattern(want)
        while i < len(actual) and not rx.match(actual[i].rstrip()):
            i += 1
        if i == len(actual):
            return want
        i += 1
    return None


def main():
    tutorial, root, gpuinterp, mgpusim, scratch = sys.argv[1:6]
    os.makedirs(os.path.join(scratch, "build"), exist_ok=True)
    for name, target in (("examples", os.path.join(root, "examples")), ("tests", os.path.join(root, "tests")),
                         ("build/gpuinterp", gpuinterp), ("build/libmgpusim.so", mgpusim)):
        link = os.path.join(scratch, name)
        if not os.path.lexists(link):
            os.symlink(target, link)
    with open(tutorial) as f:
        cmds = [c for b in blocks(f.read()) for c in commands(b)]
    if not cmds:
        sys.exit("run-tutorial: no commands in " + tutorial)
    for cmd, status, expected in cmds:
        r = subprocess.run(["bash", "-c", cmd], cwd=scratch, capture_output=True, text=True, timeout=300)
        actual = (r.stdout + r.stderr).splitlines()
        if r.returncode != status:
            print("FAIL: $ %s\nexit %d, not %d; it printed:\n%s" % (cmd, r.returncode, status, "\n".join(actual)))
            return 1
        missing = matches(expected, actual)
        if missing is not None:
            print("FAIL: $ %s\nno line matches %r after the lines before it; it printed:\n%s" %
                  (cmd, missing, "\n".join(actual)))
            return 1
        print("ok: $ %s" % cmd)
    print("run-tutorial: %d commands" % len(cmds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
