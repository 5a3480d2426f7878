#!/usr/bin/env python3
"""Checks the project's layout rules on its #include lines (docs/design.md, "Data flow").

  includes.py ROOT [--forbid FROM:TO]...

Every `#include "DIR/file.h"` in a .c or .h file of a top-level folder DIR0 of ROOT is an arrow
DIR0 -> DIR. Fails (exit 1, one line per finding, file:line) when
  - a file of folder FROM includes a header of folder TO, for each --forbid FROM:TO;
  - the folders' arrows make a cycle (arrows only point down: a folder never reaches itself).
Folders named build, .git and those that hold no .c or .h file are not looked at."""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+)/[^"]+"')
SKIP = {"build", ".git"}


def arrows(root):
    """{(from, to): [file:line, ...]} for every include of another top-level folder's file."""
    found = {}
    for top in sorted(os.listdir(root)):
        if top in SKIP or not os.path.isdir(os.path.join(root, top)):
            continue
        for dirpath, dirnames, files in os.walk(os.path.join(root, top)):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP)
            for name in sorted(files):
                if not name.endswith((".c", ".h", ".def")):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, errors="replace") as f:
                    for no, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if m and m.group(1) != top and os.path.isdir(os.path.join(root, m.group(1))):
                            where = "%s:%d" % (os.path.relpath(path, root), no)
                            found.setdefault((top, m.group(1)), []).append(where)
    return found


def cycle(edges):
    """One cycle of folders as a list (first == last), or None."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
    state = {}

    def visit(n, path):
        state[n] = 1
        path.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return path[path.index(m):] + [m]
            if not state.get(m):
                c = visit(m, path)
                if c:
                    return c
        path.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if not state.get(n):
            c = visit(n, [])
            if c:
                return c
    return None


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root, forbid, args = argv[1], [], argv[2:]
    while args:
        if args[0] != "--forbid" or len(args) < 2 or ":" not in args[1]:
            print("includes.py: expected --forbid FROM:TO, got %r" % " ".join(args), file=sys.stderr)
            return 2
        forbid.append(tuple(args[1].split(":", 1)))
        args = args[2:]
    edges = arrows(root)
    bad = 0
    for a, b in forbid:
        for where in edges.get((a, b), []):
            print("%s: error: a file of %s/ includes a header of %s/" % (where, a, b))
            bad += 1
    c = cycle(edges)
    if c:
        steps = ["%s -> %s (%s)" % (x, y, edges[(x, y)][0]) for x, y in zip(c, c[1:])]
        print("error: folders include each other in a cycle: " + ", ".join(steps))
        bad += 1
    if not bad:
        print("includes.py: %d folders, %d arrows, no cycle" % (len({x for e in edges for x in e}), len(edges)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
