#!/usr/bin/env python3
"""Writes the MLIR host programs that launch the corpus's PTX kernels, one lit test per kernel.

For every kernel K of NAME.cu, ref/NAME.c is built with the C compiler and run twice:
`ref K --spec` prints the launch (grid, block, arguments, input data; see ref/ref.h) and `ref K`
prints the expected output. This script writes

  expected/K.out            that output
  tests/lit/ptx/cu/K.mlir   a host program: the checked-in NAME.ptx embedded as
                            `gpu.binary @NAME [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "...">]`,
                            device buffers filled from memref.globals, `gpu.launch_func @NAME::@K`
                            with the buffers as !llvm.ptr and the scalars as i32/f32 (the kernel's
                            .param list), the outputs copied back and printed with printMemref*;
                            the expected output as its CHECK lines.

so the PTX text lives only in NAME.ptx. Kernels listed in RUNNING (below) are tests of the
output: the program runs under gpuinterp (and, lowered, under mlir-runner with libmgpusim.so)
and must print the reference's output. Every other kernel's test checks today's located error
(PTX kernels are not supported yet) under both, and still checks that mlir-opt and gpuinterp
accept the program. tests/ptx/README.md says how to move a kernel to RUNNING.

  mkhost.py           rewrite expected/ and tests/lit/ptx/cu/
  mkhost.py --check   exit 1, with a diff, when a checked-in file differs from what it would write
CC overrides the C compiler (default cc).
"""
import difflib
import os
import re
import subprocess
import sys
import tempfile

# Kernels gpuinterp runs (the program and its --gpu-to-llvm lowering): their tests check the output.
# RUNNING_SIM: those libmgpusim.so runs under mlir-runner too (on the same kernel engine). "*" stands for
# every kernel.
RUNNING = {"vadd", "saxpy", "block_sum", "warp_sum", "warp_vote", "histogram", "sum_f32", "cas_max", "collatz",
           "shift_left", "copy_off_by_one", "even_barrier", "half_axpb", "wide_madd", "half2_fma", "gcd_lcm",
           "hello", "cp_pipe", "cp_zfill", "bar_copy", "bulk_copy", "phases", "handoff", "named", "apply", "fold"}
RUNNING_SIM = set(RUNNING)
# gpuinterp options a kernel's runs need. cas_max's first plain read of the maximum races with
# other blocks' compare-and-swaps where its own block then swaps nothing (kernel_race.c grades it
# benign only when the reading block updates it atomically too): the check is off for its output.
GPUINTERP_FLAGS = {"cas_max": "--race-check=off"}
# the same for libmgpusim.so under mlir-runner: its environment
SIM_ENV = {"cas_max": "MGPUSIM_RACE_CHECK=0"}

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
LIT_DIR = os.path.join(ROOT, "tests", "lit", "ptx", "cu")
EXPECTED_DIR = os.path.join(HERE, "expected")

# NAME.cu: its kernels, in the order their tests are written.
KERNELS = {
    "vector": ["vadd", "saxpy"],
    "reduce": ["block_sum"],
    "warp": ["warp_sum", "warp_vote"],
    "atomics": ["histogram", "sum_f32", "cas_max"],
    "divergent": ["collatz"],
    "calls": ["gcd_lcm"],
    "printf": ["hello"],
    "half": ["half_axpb"],
    "wide": ["wide_madd", "half2_fma"],
    "bug_race": ["shift_left"],
    "bug_oob": ["copy_off_by_one"],
    "bug_divbar": ["even_barrier"],
    "async": ["cp_pipe", "cp_zfill", "bar_copy", "bulk_copy"],
    "mbar": ["phases", "handoff", "named"],
    "funcptr": ["apply", "fold"],
}
# the reference program of NAME.cu, when it is not ref/NAME.c
REF_OF = {"bug_race": "bugs", "bug_oob": "bugs", "bug_divbar": "bugs"}

RUNTIME_LIBS = ("%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,"
                "%mgpusim")
LOWER = "--gpu-to-llvm --reconcile-unrealized-casts"
NOT_YET = "error: {{.*}} is not supported by the PTX kernel engine yet"
NOT_YET_SIM = "{{^}}@mgpuModuleLoadJIT#1.ptx:{{[0-9]+}}:{{[0-9]+}}: " + NOT_YET
PRINT = {"f32": "printMemrefF32", "i32": "printMemrefI32"}


def mlir_string(data):
    """data as an MLIR string literal's body: printable ASCII as is, the rest as \\XX."""
    out = []
    for b in data:
        c = chr(b)
        out.append(c if 0x20 <= b < 0x7F and c not in '"\\' else "\\%02X" % b)
    return "".join(out)


def parse_spec(text):
    spec = {"args": [], "check": None}
    for line in text.splitlines():
        f = line.split()
        if f[0] in ("grid", "block"):
            spec[f[0]] = int(f[1])
        elif f[0] == "check":
            spec["check"] = f[1]
        elif f[0] == "buf":
            spec["args"].append({"kind": "buf", "name": f[1], "type": f[2], "n": int(f[3]), "out": f[4] == "out",
                                 "data": f[5:]})
        elif f[0] in ("i32", "f32"):
            spec["args"].append({"kind": f[0], "value": f[1]})
        else:
            raise SystemExit("mkhost.py: unknown spec line: %s" % line)
    return spec


def literal(t, v):
    if t == "i32":
        return str(int(v))
    x = float(v)
    s = repr(x)
    return s if ("." in s or "e" in s or "n" in s) else s + ".0"


def host_program(cu, kernel, spec, expected):
    """The lines of the lit test of kernel (a kernel of cu.cu)."""
    running = "*" in RUNNING or kernel in RUNNING
    sim_running = "*" in RUNNING_SIM or kernel in RUNNING_SIM
    error = spec["check"] == "error"
    ptx = open(os.path.join(HERE, cu + ".ptx"), "rb").read()
    body = []  # the module, so that the launch's line is known before the header is written
    globals_, calls = [], set()
    for a in spec["args"]:
        if a["kind"] == "buf":
            mt = "memref<%dx%s>" % (a["n"], a["type"])
            vals = ", ".join(literal(a["type"], v) for v in a["data"])
            globals_.append('  memref.global "private" constant @%s_init : %s = dense<[%s]>' % (a["name"], mt, vals))
            if a["out"]:
                calls.add(PRINT[a["type"]])
    body.append("module attributes {gpu.container_module} {")
    body.append('  gpu.binary @%s [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "%s">]' %
                (cu, mlir_string(ptx)))
    body += globals_
    for fn in sorted(calls):
        body.append("  func.func private @%s(memref<*x%s>)" % (fn, "f32" if fn.endswith("F32") else "i32"))
    body.append("  func.func @main() {")
    body.append("    %c1 = arith.constant 1 : index")
    body.append("    %%grid = arith.constant %d : index" % spec["grid"])
    body.append("    %%block = arith.constant %d : index" % spec["block"])
    body.append("    %t0 = gpu.wait async")
    tok, ntok = "%t0", 0
    launch_args, bufs = [], []

    def chain(line_fmt):
        nonlocal tok, ntok
        ntok += 1
        new = "%%t%d" % ntok
        body.append("    " + line_fmt.format(tok=new, dep=tok))
        tok = new

    for i, a in enumerate(spec["args"]):
        if a["kind"] != "buf":
            v = "%%arg%d" % i
            body.append("    %s = arith.constant %s : %s" % (v, literal(a["kind"], a["value"]), a["kind"]))
            launch_args.append("%s : %s" % (v, a["kind"]))
            continue
        n, mt = a["name"], "memref<%dx%s>" % (a["n"], a["type"])
        body.append("    %%%s_init = memref.get_global @%s_init : %s" % (n, n, mt))
        chain("%%%s, {tok} = gpu.alloc async [{dep}] () : %s" % (n, mt))
        chain("{tok} = gpu.memcpy async [{dep}] %%%s, %%%s_init : %s, %s" % (n, n, mt, mt))
        body.append("    %%%s_index = memref.extract_aligned_pointer_as_index %%%s : %s -> index" % (n, n, mt))
        body.append("    %%%s_int = arith.index_cast %%%s_index : index to i64" % (n, n))
        body.append("    %%%s_ptr = llvm.inttoptr %%%s_int : i64 to !llvm.ptr" % (n, n))
        launch_args.append("%%%s_ptr : !llvm.ptr" % n)
        bufs.append((n, mt, a))
    launch_line = len(body) + 1  # 1-based within the module
    chain("{tok} = gpu.launch_func async [{dep}] @%s::@%s blocks in (%%grid, %%c1, %%c1) "
          "threads in (%%block, %%c1, %%c1) args(%s)" % (cu, kernel, ", ".join(launch_args)))
    for n, mt, a in bufs:
        if a["out"]:
            body.append("    %%%s_host = memref.alloc() : %s" % (n, mt))
            chain("{tok} = gpu.memcpy async [{dep}] %%%s_host, %%%s : %s, %s" % (n, n, mt, mt))
    for n, mt, a in bufs:
        chain("{tok} = gpu.dealloc async [{dep}] %%%s : %s" % (n, mt))
    body.append("    gpu.wait [%s]" % tok)
    for n, mt, a in bufs:
        if a["out"]:
            t = a["type"]
            body.append("    %%%s_print = memref.cast %%%s_host : %s to memref<*x%s>" % (n, n, mt, t))
            body.append("    call @%s(%%%s_print) : (memref<*x%s>) -> ()" % (PRINT[t], n, t))
            body.append("    memref.dealloc %%%s_host : %s" % (n, mt))
    body.append("    return")
    body.append("  }")
    body.append("}")

    head = ["// GENERATED by tests/ptx/cu/mkhost.py from tests/ptx/cu/%s.cu (its PTX, %s.ptx) and the" % (cu, cu),
            "// reference ref/%s.c; edit those and rerun mkhost.py, not this file." % REF_OF.get(cu, cu),
            "//"]
    if running:
        head.append("// Kernel @%s runs (it is in mkhost.py's RUNNING): the output must be the reference's." % kernel)
    else:
        head.append("// Kernel @%s does not run yet: this checks that mlir-opt and gpuinterp accept the program and" %
                    kernel)
        head.append("// that gpuinterp names, at its PTX place, what it does not run yet.")
        head.append("// The reference's output (the CHECK lines) becomes the test when @%s moves to RUNNING." % kernel)
    if not sim_running:
        head.append("// libmgpusim.so does not run it either: mlir-runner's run checks that it names what it does not run,")
        head.append("// at its PTX place.")
    head.append("")
    head.append("// RUN: %mlir_opt %s -o /dev/null")
    head.append("// RUN: %gpuinterp --emit=mlir %s | %mlir_opt -o /dev/null")
    runner = ("%%mlir_opt %s %%s | %%mlir_runner -e main -entry-point-result=void --shared-libs=%s" %
              (LOWER, RUNTIME_LIBS))
    # three ways to run it: gpuinterp on the program and on its lowering, mlir-runner on the lowering
    flags = GPUINTERP_FLAGS.get(kernel, "")
    gpuinterp = "%gpuinterp" + (" " + flags if flags else "")
    lowered = "%%mlir_opt %s %%s | %s -" % (LOWER, gpuinterp)
    not_ = "" if running and not error else "not "
    not_sim = "" if sim_running and not error else "not "
    prefix = "" if running else " --check-prefix=NOT-YET"
    head.append("// RUN: %s%s %%s 2>&1 | FileCheck %%s%s" % (not_, gpuinterp, prefix))
    head.append("// RUN: %s 2>&1 | FileCheck %%s%s" % (lowered.replace("| %gpuinterp", "| " + not_ + "%gpuinterp"),
                                                      prefix))
    sim_env = "env %s " % SIM_ENV[kernel] if kernel in SIM_ENV else ""
    head.append("// RUN: %s 2>&1 | FileCheck %%s%s" % (runner.replace("| %mlir_runner", "| " + not_sim + sim_env + "%mlir_runner"),
                                                      "" if sim_running else " --check-prefix=NOT-YET-SIM"))
    if not running or not sim_running:
        head.append("")
    if not running:
        head.append("// NOT-YET: {{^}}@%s.ptx:{{[0-9]+}}:{{[0-9]+}}: %s" % (cu, NOT_YET))
    if not sim_running:
        head.append("// NOT-YET-SIM: " + NOT_YET_SIM)
    head.append("")
    directive = "CHECK-DAG" if spec["check"] == "dag" else "CHECK"
    for line in expected.splitlines():
        head.append("// %s: %s" % (directive, line))
    head.append("")
    lines = head + body
    col = body[launch_line - 1].index("gpu.launch_func") + 1
    at = "%d:%d" % (len(head) + launch_line, col)
    return [l.replace("LAUNCH", at, 1) if "LAUNCH" in l else l for l in lines]


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise SystemExit("mkhost.py: %s failed (status %d):\n%s" % (" ".join(cmd), r.returncode, r.stderr))
    return r.stdout


def main():
    check = sys.argv[1:] == ["--check"]
    if sys.argv[1:] and not check:
        raise SystemExit("usage: mkhost.py [--check]")
    cc = os.environ.get("CC", "cc")
    files = {}  # path -> text
    with tempfile.TemporaryDirectory() as tmp:
        refs = {}
        for cu in KERNELS:
            ref = REF_OF.get(cu, cu)
            if ref not in refs:
                exe = os.path.join(tmp, ref)
                run([cc, "-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-o", exe,
                     os.path.join(HERE, "ref", ref + ".c")])
                refs[ref] = exe
            for k in KERNELS[cu]:
                spec = parse_spec(run([refs[ref], k, "--spec"]))
                expected = run([refs[ref], k])
                files[os.path.join(EXPECTED_DIR, k + ".out")] = expected
                files[os.path.join(LIT_DIR, k + ".mlir")] = "\n".join(host_program(cu, k, spec, expected)) + "\n"
    status = 0
    for path, text in files.items():
        old = open(path).read() if os.path.exists(path) else None
        if old == text:
            continue
        rel = os.path.relpath(path, ROOT)
        if check:
            status = 1
            sys.stdout.writelines(difflib.unified_diff((old or "").splitlines(True), text.splitlines(True),
                                                       rel + " (checked in)", rel + " (mkhost.py)"))
            print("mkhost.py: %s is out of date (run tests/ptx/cu/mkhost.py)" % rel, file=sys.stderr)
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
    for d, ext in ((LIT_DIR, ".mlir"), (EXPECTED_DIR, ".out")):
        for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            path = os.path.join(d, name)
            if name.endswith(ext) and path not in files:
                if check:
                    status = 1
                    print("mkhost.py: %s is no kernel's (remove it)" % os.path.relpath(path, ROOT), file=sys.stderr)
                else:
                    os.remove(path)
    return status


if __name__ == "__main__":
    sys.exit(main())
