#!/usr/bin/env python3
"""affine-fuzz.py - random affine maps and integer sets, gpuinterp against mlir-opt 22.

usage: affine-fuzz.py GPUINTERP MLIR_OPT [-n CASES] [--seed S] [--keep DIR]

MLIR simplifies affine expressions while it builds them and prints them its own way;
ir/affine.c does the same so that affine attributes compare equal however they were spelled.
This writes CASES random maps and sets (dims and symbols under their own names or renamed,
constants small and near the int64 limits, every operator, unary minus, parentheses), as
attributes of one function, and checks for each of them:

  exact      gpuinterp prints the attribute exactly as mlir-opt does once mlir-opt's output
             is stable: mlir-opt is run on its own output until that stops changing (its
             print of a right-nested sum reads back as a left-nested one, which may simplify
             further; gpuinterp prints the settled form). mlir-opt prints through #map/#set
             aliases; they are resolved.
  fixed      gpuinterp(mlir-opt(x)) == gpuinterp(x)
  accepted   mlir-opt accepts gpuinterp's output and prints it unchanged

It also counts the cases where mlir-opt's first print is already the settled one.

Exit 0 when every case passes; otherwise the failing cases are printed (input, ours, theirs).
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

BIG = [9223372036854775807, 4611686018427387904, 9223372036854775806, 3037000499]


def const(rng):
    r = rng.random()
    if r < 0.05:
        return rng.choice(BIG)
    if r < 0.15:
        return rng.randint(0, 1 << 40)
    return rng.choice([0, 1, 1, 2, 2, 3, 4, 4, 5, 6, 8, 16, 32, 64, 128, 7, 12])


class Gen:
    def __init__(self, rng, dims, syms):
        self.rng, self.dims, self.syms = rng, dims, syms

    def leaf(self, symbolic):
        rng = self.rng
        choices = ["c"]
        if self.syms:
            choices += ["s", "s"]
        if self.dims and not symbolic:
            choices += ["d", "d", "d"]
        k = rng.choice(choices)
        if k == "c":
            return str(const(rng))
        return rng.choice(self.syms if k == "s" else self.dims)

    def expr(self, depth, symbolic=False):
        """An expression as text; symbolic: free of dims. Returns (text, is_symbolic)."""
        rng = self.rng
        if depth <= 0 or rng.random() < 0.25:
            t = self.leaf(symbolic)
            return t, t not in self.dims
        op = rng.choice(["+", "-", "+", "-", "*", "*", "floordiv", "ceildiv", "mod", "neg", "paren"])
        if op == "neg":
            t, s = self.expr(depth - 1, symbolic)
            return "-" + (t if re.fullmatch(r"\w+", t) else "(" + t + ")"), s
        if op == "paren":
            t, s = self.expr(depth - 1, symbolic)
            return "(" + t + ")", s
        if op in ("+", "-"):
            a, sa = self.expr(depth - 1, symbolic)
            b, sb = self.expr(depth - 1, symbolic)
            if op == "-" and not re.fullmatch(r"[\w ]+|\(.*\)", b) and rng.random() < 0.7:
                b = "(" + b + ")"
            return a + " " + op + " " + b, sa and sb
        # high-precedence: operands are parenthesized unless atomic, so the text reads as built
        if op == "*":
            if rng.random() < 0.5:
                a, sa = self.expr(depth - 1, symbolic)
                b, sb = self.expr(depth - 1, True)
            else:
                a, sa = self.expr(depth - 1, True)
                b, sb = self.expr(depth - 1, symbolic)
        else:
            a, sa = self.expr(depth - 1, symbolic)
            if rng.random() < 0.7:
                b, sb = str(rng.choice([1, 2, 3, 4, 8, 5, 16, 0, 64])), True
                if rng.random() < 0.1:
                    b = "-" + b
            else:
                b, sb = self.expr(depth - 1, True)
        wrap = lambda t: t if re.fullmatch(r"-?\w+", t) else "(" + t + ")"
        return wrap(a) + " " + op + " " + wrap(b), sa and sb


def header(rng):
    nd, ns = rng.randint(0, 3), rng.randint(0, 3)
    if rng.random() < 0.2:
        dn = ["i", "j", "k"][:nd]
        sn = ["n", "m", "p"][:ns]
    else:
        dn = ["d%d" % i for i in range(nd)]
        sn = ["s%d" % i for i in range(ns)]
    h = "(" + ", ".join(dn) + ")"
    if sn or rng.random() < 0.1:
        h += "[" + ", ".join(sn) + "]"
    return h, dn, sn


def case(rng):
    h, dn, sn = header(rng)
    g = Gen(rng, dn, sn)
    n = rng.randint(0, 4)
    if rng.random() < 0.3:
        cons = []
        for _ in range(n):
            a, _ = g.expr(rng.randint(0, 4))
            b, _ = g.expr(rng.randint(0, 2))
            cons.append("%s %s %s" % (a, rng.choice([">=", "<=", "=="]), b))
        return "affine_set<%s : (%s)>" % (h, ", ".join(cons))
    res = [g.expr(rng.randint(0, 5))[0] for _ in range(n)]
    return "affine_map<%s -> (%s)>" % (h, ", ".join(res))


def run(cmd, path):
    p = subprocess.run(cmd + [path], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def attrs_of(text):
    """name -> attribute text of x.aN entries, #map/#set aliases resolved."""
    aliases = dict(re.findall(r"^(#\w+) = (affine_(?:map|set)<.*>)$", text, re.M))
    out = {}
    for name, val in re.findall(r"(x\.a\d+) = (#\w+|affine_(?:map|set)<.*?>)(?=, x\.a\d+ = |\})", text):
        out[name] = aliases.get(val, val)
    return out


def program(cases):
    body = ",\n  ".join("x.a%d = %s" % (i, c) for i, c in enumerate(cases))
    return "func.func @f() attributes {\n  %s\n} {\n  return\n}\n" % body


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gpuinterp")
    ap.add_argument("mlir_opt")
    ap.add_argument("-n", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    d = a.keep or tempfile.mkdtemp(prefix="affine-fuzz.")
    os.makedirs(d, exist_ok=True)

    # Keep only what mlir-opt accepts (a constant may overflow, a product may be non-affine),
    # and whose print mlir-opt reads back (it prints INT64_MIN as a literal it then rejects).
    cases = []
    while len(cases) < a.n:
        c = case(rng)
        path, path2 = os.path.join(d, "one.mlir"), os.path.join(d, "one-opt.mlir")
        open(path, "w").write(program([c]))
        rc, out, _ = run([a.mlir_opt], path)
        if rc == 0:
            open(path2, "w").write(out)
            if run([a.mlir_opt], path2)[0] == 0:
                cases.append(c)
    src = os.path.join(d, "cases.mlir")
    open(src, "w").write(program(cases))

    failures = []
    rc, ref, err = run([a.mlir_opt], src)
    rc1, ours, err1 = run([a.gpuinterp, "--emit=mlir"], src)
    if rc1:
        print("gpuinterp failed on %s:\n%s" % (src, err1))
        return 1
    p_ours = os.path.join(d, "ours.mlir")
    open(p_ours, "w").write(ours)
    p_ref = os.path.join(d, "ref.mlir")
    open(p_ref, "w").write(ref)
    rc2, back, err2 = run([a.gpuinterp, "--emit=mlir"], p_ref)
    rc3, ref_of_ours, err3 = run([a.mlir_opt], p_ours)
    if rc2 or rc3:
        print("back: rc %d %s\naccepted: rc %d %s" % (rc2, err2[:2000], rc3, err3[:2000]))
        return 1
    settled = ref
    for _ in range(16):
        p_set = os.path.join(d, "settled.mlir")
        open(p_set, "w").write(settled)
        nxt = run([a.mlir_opt], p_set)[1]
        if nxt == settled:
            break
        settled = nxt
    A_ours, A_ref, A_back, A_acc = attrs_of(ours), attrs_of(ref), attrs_of(back), attrs_of(ref_of_ours)
    A_set = attrs_of(settled)
    exact = fixed = accepted = first = 0
    for i, c in enumerate(cases):
        k = "x.a%d" % i
        o, r, b, acc, st = A_ours.get(k), A_ref.get(k), A_back.get(k), A_acc.get(k), A_set.get(k)
        first += r == st
        ok = o is not None and o == st and o == b and acc == o
        exact += o == st
        fixed += o == b
        accepted += acc == o
        if not ok:
            failures.append("case %d\n  input:     %s\n  gpuinterp: %s\n  mlir-opt:  %s\n"
                            "  settled:   %s\n  ours back: %s\n  opt(ours): %s" % (i, c, o, r, st, b, acc))
    n = len(cases)
    for f in failures[:30]:
        print(f)
    print("affine-fuzz: %d cases (seed %d): exact %d/%d, fixed point %d/%d, accepted %d/%d "
          "(mlir-opt's first print already settled in %d)"
          % (n, a.seed, exact, n, fixed, n, accepted, n, first))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
