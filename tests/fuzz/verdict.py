#!/usr/bin/env python3
"""Verdict fuzzer: gpuinterp's front end must accept what mlir-opt 22 accepts and reject what it rejects.

    verdict.py [--seed S] [--count N | --duration SECS] [--bin PATH] [--mlir-opt PATH] [--out DIR]
               [--sources TEXT] [--quiet]

The mutants are mutate.py's (same corpus, same edits, same seeds), made only from corpus chunks
that both tools accept as written. Each mutant is read by `gpuinterp --emit=mlir` (parse and
verify, nothing runs) and by `mlir-opt`; where both accept it, mlir-opt also reads what gpuinterp
printed. Each mutant's outcome is one of:

    agree        both accept (and mlir-opt accepts gpuinterp's output), or both reject
    lax          gpuinterp accepts a program mlir-opt rejects: a check that gpuinterp lacks
    output       both accept the program, mlir-opt rejects gpuinterp's printed form of it
    unsupported  gpuinterp rejects, saying that what the program uses is not supported (yet), or
                 past one of its documented limits (a shape of more than 2^50 elements)
    strict       gpuinterp rejects, for another reason, a program mlir-opt accepts
    crash        gpuinterp ended otherwise (a signal, a status other than 0 and 2, a timeout)

Every lax, output, strict and crash mutant is kept under --out (default build/fuzz/verdict) as
NNNNNN-KIND/ with the mutant (prog.mlir), both tools' messages (ours.txt, upstream.txt) and how
it was made (origin.txt), at most three per signature (the kind and the deciding message with its
numbers and names blotted out). The counts and the signatures are printed at the end; the exit
status is 1 when anything was kept, else 0. Progress goes to stderr when it is a terminal.
"""
import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
spec = importlib.util.spec_from_file_location("mutate", os.path.join(HERE, "mutate.py"))
mutate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mutate)

KINDS = ["agree", "lax", "output", "unsupported", "strict", "crash"]
KEPT = {"lax", "output", "strict", "crash"}
# words of gpuinterp's rejections that are by design: what it does not support, and its limits
LIMITS = ["not supported", "unsupported", "dimension too large", "(more than 2^50)"]


def run(cmd, path, timeout, stdin=None):
    """(exit status or 'timeout', stdout, stderr) of cmd + [path]."""
    try:
        r = subprocess.run(cmd + [path], stdin=stdin or subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", b"", b""
    return r.returncode, r.stdout, r.stderr.decode("utf-8", "replace")


def first_error(text):
    m = re.search(r"error: (.*)", text)
    return m.group(1) if m else text.strip().split("\n")[0][:120]


def blot(msg):
    msg = re.sub(r"'[^']*'", "'X'", msg)
    msg = re.sub(r"%[\w$.#-]+|@[\w$.-]+", "V", msg)
    msg = re.sub(r"-?\d+", "N", msg)
    return msg[:100]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=None)
    ap.add_argument("--duration", type=float, default=None)
    ap.add_argument("--bin", default=os.path.join(ROOT, "build/gpuinterp"))
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    ap.add_argument("--out", default=os.path.join(ROOT, "build/fuzz/verdict"))
    ap.add_argument("--sources", metavar="TEXT", default=None,
                    help="mutate only corpus chunks whose path holds TEXT")
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    if a.count is None and a.duration is None:
        a.count = 200
    ours = [os.path.abspath(a.bin), "--emit=mlir"]
    upstream = [a.mlir_opt]
    for b in (ours[0], upstream[0]):
        if not os.access(b, os.X_OK):
            print(f"verdict.py: no executable {b}", file=sys.stderr)
            return 2
    progress = sys.stderr.isatty() and not a.quiet
    tmp = tempfile.mkdtemp(prefix="gpuinterp-verdict.")
    # a copy, so that a rebuild during a long run does not pull the binary from under it
    shutil.copy(ours[0], os.path.join(tmp, "gpuinterp"))
    ours[0] = os.path.join(tmp, "gpuinterp")
    path = os.path.join(tmp, "prog.mlir")
    corpus = [c for c in mutate.corpus_sources() if not a.sources or a.sources in c[0]]
    # only chunks both tools accept as written: a mutant of one they already disagree on (the
    # corpus has some on purpose) says nothing new
    kept_corpus = []
    for name, text in corpus:
        if "verify-corpus:" in text or "expected-error" in text:
            continue
        with open(path, "w") as f:
            f.write(text)
        if run(ours, path, a.timeout)[0] == 0 and run(upstream, path, a.timeout)[0] == 0:
            kept_corpus.append((name, text))
    if not kept_corpus:
        print("verdict.py: no corpus chunk that both tools accept", file=sys.stderr)
        return 2
    counts = {k: 0 for k in KINDS}
    sigs = {}
    kept = 0
    os.makedirs(a.out, exist_ok=True)
    start = time.monotonic()
    i = 0
    while True:
        if a.count is not None and i >= a.count:
            break
        if a.duration is not None and time.monotonic() - start >= a.duration:
            break
        text, origin = mutate.make_mutant(a.seed, i, kept_corpus, None)
        with open(path, "w") as f:
            f.write(text)
        g, gout, gerr = run(ours, path, a.timeout)
        m, _, merr = run(upstream, path, a.timeout)
        extra = ""
        if g not in (0, 2):
            kind, why = "crash", f"status {g}"
        elif g == 0 and m != 0:
            kind, why = "lax", first_error(merr)
        elif g == 2 and m == 0:
            e = first_error(gerr)
            kind, why = ("unsupported" if any(w in e for w in LIMITS) else "strict"), e
        elif g == 0:
            printed = os.path.join(tmp, "printed.mlir")
            with open(printed, "wb") as f:
                f.write(gout)
            r, _, perr = run(upstream, printed, a.timeout)
            kind, why = ("output", first_error(perr)) if r != 0 else ("agree", "")
            extra = perr
        else:
            kind, why = "agree", ""
        counts[kind] += 1
        if kind in KEPT or kind == "unsupported":
            sig = f"{kind}: {blot(why)}"
            n = sigs.get(sig, 0)
            sigs[sig] = n + 1
            if kind in KEPT and n < 3:
                d = os.path.join(a.out, f"{i:06d}-{kind}")
                os.makedirs(d, exist_ok=True)
                shutil.copy(path, os.path.join(d, "prog.mlir"))
                with open(os.path.join(d, "ours.txt"), "w") as f:
                    f.write(gerr)
                with open(os.path.join(d, "upstream.txt"), "w") as f:
                    f.write(merr + extra)
                with open(os.path.join(d, "origin.txt"), "w") as f:
                    f.write(origin + f"verdict: {why}\n")
                kept += 1
        i += 1
        if progress:
            print(f"\r{i} mutants: " + ", ".join(f"{k} {counts[k]}" for k in KINDS), end="", file=sys.stderr)
    if progress:
        print(file=sys.stderr)
    shutil.rmtree(tmp, ignore_errors=True)
    secs = time.monotonic() - start
    print(f"verdict.py: seed {a.seed}, {i} mutants of {len(kept_corpus)} corpus chunks in {secs:.0f} s: " +
          ", ".join(f"{k} {counts[k]}" for k in KINDS))
    for sig, n in sorted(sigs.items(), key=lambda s: -s[1]):
        print(f"  {n:5d}  {sig}")
    if kept:
        print(f"kept {kept} under {a.out}")
    return 1 if kept else 0


if __name__ == "__main__":
    sys.exit(main())
