#!/usr/bin/env python3
"""Mutation fuzzer for the whole gpuinterp: parser, verifier, lowering, interpreter and simulator.

    mutate.py [--seed S] [--count N | --duration SECS] [--bin PATH] [--out DIR] [--timeout SECS]
              [--scheds LIST] [--only I] [--quiet]
    mutate.py --reduce DIR

Each mutant is a program from the lit corpus (tests/lit/**/*.mlir and examples/*.mlir, one
`// -----` chunk at a time, leaving out the concurrent-kernels programs, which spin forever
when their kernels do not run at once) or from the program generator (tests/gen/genprog.py SEED), with one
to three edits: a line deleted, duplicated or swapped with another, two SSA names swapped or one
use renamed, an integer set to 0, -1, 1, 2^31, 2^31-1, -2^31, 2^32, 2^63-1 or -2^63, a float set
to 0, -1, nan or a huge value, a dimension of a shape set to 0, 1, a large or a huge size, an
`async` or a dependency token dropped, a `gpu.wait` deleted. It runs under `--lower` and then
under each scheduler of --scheds (default serial,threads,random:N with N from the seed), with a
timeout (default 10 s); the runs get `--timeout` at half of it, so a program that loops forever
ends with the tool's located error (exit 1) and a hang is a run that the tool's bound did not
stop. Each run's outcome is counted:

    ok        exit 0                       error     exit 1 (program or runtime error)
    rejected  exit 2 (parse, verify)       sanitizer an ASan/UBSan/LSan report
    signal    killed by a signal           hang      still running at the timeout
    slow      still ending at the timeout, after the tool's own --timeout stopped the program
    other     any other exit status

A mutant that the first run rejects or hangs on is not run again under the other modes (they
would only say the same). Every sanitizer report, signal, hang and other exit is kept under
--out (default build/fuzz/mutants) as NNNNNN-M-KIND/ (mutant, mode) with the mutant (prog.mlir), what the tool
printed (stderr.txt), how it was made (origin.txt) and the command that reproduces it
(repro.sh); `mutate.py --reduce DIR` deletes the lines of DIR/prog.mlir that the same
outcome does not need and writes DIR/reduced.mlir. At most three per distinct signature (the report's first frame in our code, or the
kind and source) are kept, the rest only counted. The counts are printed at the end; the exit
status is 1 when anything was kept, else 0.

The same --seed gives the same mutants in the same order: mutant I is made from the seed and I
alone, so `--only I` makes and runs just that one again. Progress goes to stderr when it is a
terminal; piped, only the summary is printed (on stdout). SIGINT or SIGTERM stops the run
early, with the summary.

Environment: the runs get ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1:max_allocation_size_mb=1024
(a mutant's allocation above 1 GiB fails, as on a machine without the memory: the tool's
out-of-memory error, not minutes of copying gigabytes that one op does before any bound can stop it) and
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 unless these are set already.
"""
import argparse
import glob
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUTCOMES = ["ok", "error", "rejected", "sanitizer", "signal", "hang", "slow", "other"]
KEPT = {"sanitizer", "signal", "hang", "other"}

INTS = ["0", "-1", "1", "2147483648", "2147483647", "-2147483648", "4294967296",
        "9223372036854775807", "-9223372036854775808", "65536", "1025"]
FLOATS = ["0.0", "-1.0", "0x7FC00000", "1.0e+38", "-0.0", "3.40282347E+38"]
DIMS = ["0", "1", "3", "1024", "65536", "4294967296", "9223372036854775807", "?"]

SSA_RE = re.compile(r"%[A-Za-z_0-9$.#-]+")
INT_RE = re.compile(r"(?<![\w%#@.^\"x-])-?\d+(?![\w.])")
FLOAT_RE = re.compile(r"(?<![\w%#@.])-?\d+\.\d*(?:[eE][+-]?\d+)?")
DIM_RE = re.compile(r"(?<=[<x])(\d+|\?)(?=x)")
DEP_RE = re.compile(r"\[(%[^\],\[]+(?:,\s*%[^\],\[]+)*)\]")


def corpus_sources():
    """(name, text) of every corpus program chunk, in a fixed order."""
    files = sorted(glob.glob(os.path.join(ROOT, "tests/lit/**/*.mlir"), recursive=True))
    files += sorted(glob.glob(os.path.join(ROOT, "examples/*.mlir")))
    out = []
    for f in files:
        if "/Inputs/" in f or "/fuzz/" in f:
            continue
        try:
            with open(f, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
        except OSError:
            continue
        if "would wait forever" in text or "concurrent-kernels" in f:
            continue  # spins by design unless its kernels run at once: its mutants only hang
        chunks = re.split(r"^// -----.*$", text, flags=re.M)
        rel = os.path.relpath(f, ROOT)
        for k, c in enumerate(chunks):
            if c.strip():
                out.append((f"{rel}#{k}" if len(chunks) > 1 else rel, c))
    return out


class GenCache:
    """Programs of tests/gen/genprog.py, made once per seed."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.cache = {}

    def get(self, seed):
        if seed not in self.cache:
            path = os.path.join(self.tmp, f"gen{seed}.mlir")
            r = subprocess.run([sys.executable, os.path.join(ROOT, "tests/gen/genprog.py"), str(seed),
                                "-o", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            text = open(path).read() if r.returncode == 0 and os.path.exists(path) else ""
            if len(self.cache) > 200:
                self.cache.clear()
            self.cache[seed] = text
        return self.cache[seed]


# ---- Mutations: each takes (rng, lines) and returns a description, or None when it did not fit.

def code_lines(lines):
    return [i for i, l in enumerate(lines) if l.strip() and not l.lstrip().startswith("//")]


def m_delete(rng, lines):
    c = code_lines(lines)
    if not c:
        return None
    i = rng.choice(c)
    del lines[i]
    return f"delete line {i + 1}"


def m_duplicate(rng, lines):
    c = code_lines(lines)
    if not c:
        return None
    i = rng.choice(c)
    lines.insert(i + 1, lines[i])
    return f"duplicate line {i + 1}"


def m_swap_lines(rng, lines):
    c = code_lines(lines)
    if len(c) < 2:
        return None
    i = rng.choice(c)
    j = rng.choice(c) if rng.random() < 0.5 else min(i + 1, len(lines) - 1)
    lines[i], lines[j] = lines[j], lines[i]
    return f"swap lines {i + 1} and {j + 1}"


def replace_match(rng, lines, regex, pick, what):
    """Replaces one match of regex (over code lines) by pick(match text)."""
    sites = [(i, m) for i in code_lines(lines) for m in regex.finditer(lines[i])]
    if not sites:
        return None
    i, m = rng.choice(sites)
    new = pick(m.group(0))
    if new is None:
        return None
    lines[i] = lines[i][:m.start()] + new + lines[i][m.end():]
    return f"{what} on line {i + 1}: {m.group(0)} -> {new}"


def m_int(rng, lines):
    return replace_match(rng, lines, INT_RE, lambda s: rng.choice(INTS), "integer")


def m_constant_int(rng, lines):
    """An arith.constant's value (launch sizes, loop bounds, indices)."""
    c = [i for i in code_lines(lines) if "arith.constant" in lines[i] or "llvm.mlir.constant" in lines[i]]
    if not c:
        return None
    i = rng.choice(c)
    ms = list(INT_RE.finditer(lines[i]))
    ms = [m for m in ms if not re.match(r"i\d", lines[i][m.end():m.end() + 2])]
    if not ms:
        return None
    m = rng.choice(ms)
    new = rng.choice(INTS)
    lines[i] = lines[i][:m.start()] + new + lines[i][m.end():]
    return f"constant on line {i + 1}: {m.group(0)} -> {new}"


def m_float(rng, lines):
    return replace_match(rng, lines, FLOAT_RE, lambda s: rng.choice(FLOATS), "float")


def m_dim(rng, lines):
    return replace_match(rng, lines, DIM_RE, lambda s: rng.choice(DIMS), "dimension")


def m_ssa_swap(rng, lines):
    names = sorted({n for i in code_lines(lines) for n in SSA_RE.findall(lines[i])})
    if len(names) < 2:
        return None
    a, b = rng.sample(names, 2)
    if rng.random() < 0.5:  # every occurrence
        pat = re.compile(re.escape(a) + r"(?![\w$.])|" + re.escape(b) + r"(?![\w$.])")
        for i in code_lines(lines):
            lines[i] = pat.sub(lambda m: b if m.group(0) == a else a, lines[i])
        return f"swap SSA names {a} and {b} everywhere"
    sites = [(i, m) for i in code_lines(lines) for m in SSA_RE.finditer(lines[i]) if m.group(0) == a]
    i, m = rng.choice(sites)
    lines[i] = lines[i][:m.start()] + b + lines[i][m.end():]
    return f"rename one {a} to {b} on line {i + 1}"


def m_drop_wait(rng, lines):
    c = [i for i in code_lines(lines) if "gpu.wait" in lines[i] or "mgpuStreamSynchronize" in lines[i]
         or "mgpuEventSynchronize" in lines[i]]
    if not c:
        return None
    i = rng.choice(c)
    del lines[i]
    return f"drop the wait on line {i + 1}"


def m_drop_dep(rng, lines):
    sites = [(i, m) for i in code_lines(lines) for m in DEP_RE.finditer(lines[i])]
    if not sites:
        return None
    i, m = rng.choice(sites)
    deps = [d.strip() for d in m.group(1).split(",")]
    k = rng.randrange(len(deps))
    del deps[k]
    lines[i] = lines[i][:m.start()] + "[" + ", ".join(deps) + "]" + lines[i][m.end():]
    return f"drop dependency {k} on line {i + 1}"


def m_drop_async(rng, lines):
    c = [i for i in code_lines(lines) if re.search(r"\basync\b", lines[i])]
    if not c:
        return None
    i = rng.choice(c)
    lines[i] = re.sub(r"\basync\b\s*", "", lines[i], count=1)
    return f"drop async on line {i + 1}"


PTX_STR_RE = re.compile(r'(assembly = ")([^"]*)(")')
PTX_REG_RE = re.compile(r"%(rd|r|f|fd|p|rs|h)(\d+)")
PTX_TYPES = [".u8", ".u16", ".u32", ".u64", ".s32", ".s64", ".b32", ".b64", ".f32", ".f64", ".pred", ".v2", ".v4"]
PTX_TYPE_RE = re.compile("|".join(re.escape(t) for t in PTX_TYPES) + r"(?![\w])")


def m_ptx(rng, lines):
    """One edit inside the PTX text of a gpu.binary object (lines of it are joined by \\0A)."""
    sites = [i for i in code_lines(lines) if PTX_STR_RE.search(lines[i])]
    if not sites:
        return None
    i = rng.choice(sites)
    m = PTX_STR_RE.search(lines[i])
    ptx = m.group(2).split("\\0A")
    code = [k for k, l in enumerate(ptx) if l.strip() and not l.lstrip().startswith("//")]
    if not code:
        return None
    k = rng.choice(code)
    what = rng.choice(["delete", "duplicate", "swap", "int", "reg", "type"])
    if what == "delete":
        del ptx[k]
    elif what == "duplicate":
        ptx.insert(k + 1, ptx[k])
    elif what == "swap":
        j = min(k + 1, len(ptx) - 1)
        ptx[k], ptx[j] = ptx[j], ptx[k]
    else:
        regex = {"int": INT_RE, "reg": PTX_REG_RE, "type": PTX_TYPE_RE}[what]
        found = list(regex.finditer(ptx[k]))
        if not found:
            return None
        f = rng.choice(found)
        if what == "int":
            new = rng.choice(INTS)
        elif what == "reg":
            new = f"%{f.group(1)}{rng.choice([0, 1, 2, 3, 7, 31, 255, 4096])}"
        else:
            new = rng.choice(PTX_TYPES)
        ptx[k] = ptx[k][:f.start()] + new + ptx[k][f.end():]
    lines[i] = lines[i][:m.start(2)] + "\\0A".join(ptx) + lines[i][m.end(2):]
    return f"PTX {what} at PTX line {k + 1} of line {i + 1}"


MUTATIONS = [(m_ptx, 4), (m_delete, 3), (m_duplicate, 1), (m_swap_lines, 2), (m_int, 2), (m_constant_int, 3),
             (m_float, 1), (m_dim, 2), (m_ssa_swap, 3), (m_drop_wait, 2), (m_drop_dep, 2),
             (m_drop_async, 1)]


def make_mutant(seed, index, corpus, gen):
    """Mutant `index` of `seed`: (text, origin description); gen None: the corpus only."""
    rng = random.Random(f"{seed}:{index}")
    if gen is not None and rng.random() < 0.3:
        gseed = rng.randrange(1 << 20)
        name, text = f"genprog.py {gseed}", gen.get(gseed)
    else:
        name, text = rng.choice(corpus)
    lines = text.split("\n")
    edits = []
    fns = [f for f, w in MUTATIONS for _ in range(w)]
    for _ in range(rng.choice([1, 1, 2, 3])):
        for _attempt in range(8):
            d = rng.choice(fns)(rng, lines)
            if d:
                edits.append(d)
                break
    return "\n".join(lines), f"source: {name}\nmutant: --seed {seed} --only {index}\n" + \
        "".join(f"edit: {e}\n" for e in edits)


# ---- Running

SAN_RE = re.compile(r"ERROR: (AddressSanitizer|LeakSanitizer|ThreadSanitizer)|runtime error:|"
                    r"SUMMARY: UndefinedBehaviorSanitizer")
FRAME_RE = re.compile(r"#\d+ 0x[0-9a-f]+ in (\S+) (\S*?(?:ir|interp|sim|lower|backends|tools|traces)/[\w./]+:\d+)")


def signature(kind, err, origin):
    if kind == "sanitizer":
        m = re.search(r"(\S+:\d+:\d+): runtime error: (.*)", err)
        if m:
            return "ubsan " + m.group(1).split("/")[-1] + " " + re.sub(r"-?\d+", "N", m.group(2))[:60]
        head = re.search(r"ERROR: \w+: ([\w-]+)", err)
        f = FRAME_RE.search(err)
        return f"{head.group(1) if head else 'report'} {f.group(1) if f else '?'}"
    if kind == "signal":
        f = FRAME_RE.search(err)
        return f"signal {f.group(1) if f else '?'}"
    return kind + " " + origin.split("\n")[0]


def run_one(binary, args, path, timeout, env):
    cmd = [binary] + args + [path]
    try:
        r = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=timeout, env=env)
    except subprocess.TimeoutExpired as e:
        err = (e.stderr or b"").decode("utf-8", "replace")
        # the tool's own bound stopped the program, and ending the process (freeing gigabytes a
        # mutant touched) ran past the timeout: slow, not endless
        return ("slow" if "error: time limit of" in err else "hang"), err
    err = r.stderr.decode("utf-8", "replace")
    if SAN_RE.search(err):
        return "sanitizer", err
    if r.returncode < 0:
        return "signal", err + f"\n(killed by signal {-r.returncode})\n"
    return {0: "ok", 1: "error", 2: "rejected"}.get(r.returncode, "other"), err


def reduce(d, timeout, env):
    """Greedy line deletion keeping the signature of DIR's kept run; writes DIR/reduced.mlir."""
    origin = open(os.path.join(d, "origin.txt")).read()
    sig = re.search(r"^signature: (.*)$", origin, re.M).group(1)
    mode = re.search(r"^mode: (.*)$", origin, re.M).group(1).split()
    binary = re.search(r"timeout \d+ (\S+)", open(os.path.join(d, "repro.sh")).read()).group(1)
    lines = open(os.path.join(d, "prog.mlir")).read().split("\n")
    path = os.path.join(d, "reduced.mlir")

    def same(ls):
        with open(path, "w") as fh:
            fh.write("\n".join(ls))
        kind, err = run_one(binary, mode, path, timeout, env)
        return kind in KEPT and signature(kind, err, origin) == sig

    chunk = max(1, len(lines) // 2)
    while chunk >= 1:
        i = 0
        while i < len(lines):
            cand = lines[:i] + lines[i + chunk:]
            if cand and same(cand):
                lines = cand
            else:
                i += chunk
        chunk //= 2
    with open(path, "w") as fh:
        fh.write("\n".join(lines))
    print(f"{path}: {len(lines)} lines, {sig}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=None)
    ap.add_argument("--duration", type=float, default=None)
    ap.add_argument("--bin", default=os.path.join(ROOT, "build/asan/gpuinterp"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build/fuzz/mutants"))
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--scheds", default=None)
    ap.add_argument("--only", type=int, default=None)
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--reduce", metavar="DIR", default=None)
    ap.add_argument("--sources", metavar="TEXT", default=None,
                    help="mutate only corpus files whose path holds TEXT (e.g. ptx), no generated programs")
    a = ap.parse_args()
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "allocator_may_return_null=1:detect_leaks=1:max_allocation_size_mb=1024")
    env.setdefault("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1")
    if a.reduce:
        reduce(a.reduce, a.timeout, env)
        return 0
    if a.count is None and a.duration is None and a.only is None:
        a.count = 100
    binary = os.path.abspath(a.bin)
    if not os.access(binary, os.X_OK):
        print(f"mutate.py: no executable {binary} (build it: ninja build/asan/gpuinterp)", file=sys.stderr)
        return 2
    scheds = (a.scheds or f"serial,threads,random:{a.seed}").split(",")
    # the tool's own wall-clock bound ends a mutant that loops forever (exit 1) well before the
    # fuzzer's timeout, so a hang is a run that did not stop at that bound
    bound = f"--timeout={max(a.timeout / 2, 0.5):g}"
    modes = [["--lower"]] + [[f"--sched={s}", bound] for s in scheds]
    progress = sys.stderr.isatty() and not a.quiet
    corpus = corpus_sources()
    if a.sources:
        corpus = [c for c in corpus if a.sources in c[0]]
        if not corpus:
            print(f"mutate.py: no corpus file's path holds '{a.sources}'", file=sys.stderr)
            return 2
    tmp = tempfile.mkdtemp(prefix="gpuinterp-mutate.")
    gen = GenCache(tmp) if not a.sources else None
    counts = {k: 0 for k in OUTCOMES}
    sigs = {}
    kept = 0
    n = 0
    start = time.monotonic()
    prog = os.path.join(tmp, "prog.mlir")
    def interrupt(signum, frame):
        raise KeyboardInterrupt
    # SIGINT or SIGTERM end the run early with the summary (SIGINT too when started in the
    # background, where the shell ignores it)
    signal.signal(signal.SIGINT, interrupt)
    signal.signal(signal.SIGTERM, interrupt)
    try:
        indices = [a.only] if a.only is not None else iter(range(1 << 62))
        for i in indices:
            if a.count is not None and a.only is None and n >= a.count:
                break
            if a.duration is not None and time.monotonic() - start >= a.duration:
                break
            text, origin = make_mutant(a.seed, i, corpus, gen)
            with open(prog, "w") as fh:
                fh.write(text)
            n += 1
            for k, mode in enumerate(modes):
                kind, err = run_one(binary, mode, prog, a.timeout, env)
                counts[kind] += 1
                if kind in KEPT:
                    sig = signature(kind, err, origin)
                    sigs[sig] = sigs.get(sig, 0) + 1
                    if sigs[sig] <= 3:
                        kept += 1
                        d = os.path.join(a.out, f"{i:06d}-{k}-{kind}")
                        os.makedirs(d, exist_ok=True)
                        shutil.copy(prog, os.path.join(d, "prog.mlir"))
                        with open(os.path.join(d, "stderr.txt"), "w") as fh:
                            fh.write(err)
                        with open(os.path.join(d, "origin.txt"), "w") as fh:
                            fh.write(origin + f"signature: {sig}\nmode: {' '.join(mode)}\n")
                        with open(os.path.join(d, "repro.sh"), "w") as fh:
                            fh.write("#!/bin/sh\n# " + origin.replace("\n", "\n# ").rstrip("# ") + "\n")
                            fh.write(f"ASAN_OPTIONS={shlex.quote(env['ASAN_OPTIONS'])} "
                                     f"UBSAN_OPTIONS={shlex.quote(env['UBSAN_OPTIONS'])} "
                                     f"timeout {int(a.timeout)} {shlex.quote(binary)} "
                                     f"{' '.join(mode)} \"$(dirname \"$0\")/prog.mlir\"\n")
                        os.chmod(os.path.join(d, "repro.sh"), 0o755)
                if kind in ("rejected", "hang") and k == 0:
                    break
            if progress:
                el = time.monotonic() - start
                sys.stderr.write(f"\r{n} mutants, {el:.0f}s: " +
                                 " ".join(f"{k} {counts[k]}" for k in OUTCOMES if counts[k]) + "\033[K")
                sys.stderr.flush()
    except KeyboardInterrupt:
        pass
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if progress:
        sys.stderr.write("\n")
    el = time.monotonic() - start
    print(f"mutate: seed {a.seed}, {n} mutants, {sum(counts.values())} runs in {el:.0f}s")
    print("outcomes: " + ", ".join(f"{k} {counts[k]}" for k in OUTCOMES))
    if kept:
        print(f"kept {kept} under {a.out}:")
        for s, c in sorted(sigs.items(), key=lambda x: -x[1]):
            print(f"  {c:5d}  {s}")
    return 1 if kept else 0


if __name__ == "__main__":
    sys.exit(main())
