#!/usr/bin/env python3
"""Writes a large, realistic MLIR program for the parse benchmark (bench/parse.sh).

    bench/gen_mlir.py [--mb N] [--seed S] > big.mlir

The program is a module of host functions and one gpu.module of kernels, the shape a GPU
pipeline hands to gpu-to-llvm. Each host function runs 8-16 rounds of: i32 constants and integer
arith, float constants, an scf.for with iter_args over memref.load/store, arith.cmpi and an scf.if
with results, a gpu.wait/alloc/memcpy/launch_func/memcpy/dealloc chain ordered by async tokens,
one arith.addi in MLIR's generic form (properties, attributes, loc) and an arith.select; then a
func.call and a return. Kernels are gpu.func with gpu.thread_id/block_id and memref accesses. All
but the generic op use custom forms the front end reads. Names, constants, element types and
shapes vary, so interning and number parsing see realistic traffic. Deterministic for a seed.
"""
import argparse
import random
import sys

SIZES = [64, 128, 256, 1024, 4096]
ETYS = ["f32", "f16", "f64", "f32"]
NKERNELS = 80  # kernel k works on memref<SIZES[k % 5] x ETYS[k // 5 % 4]>

INT_OPS = ["arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori", "arith.xori",
           "arith.maxsi", "arith.minui", "arith.shli"]
FLOAT_OPS = ["arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.maximumf"]
CMPI = ["eq", "ne", "slt", "sle", "sgt", "uge"]


class Fn:
    def __init__(self, rnd, out):
        self.rnd, self.out, self.n = rnd, out, 0

    def v(self):
        self.n += 1
        return "%%v%d" % self.n

    def line(self, ind, s):
        self.out.append("  " * ind + s + "\n")


def host_func(rnd, idx, nkernels):
    out = []
    f = Fn(rnd, out)
    si, ei = rnd.randrange(len(SIZES)), rnd.randrange(len(ETYS))
    n, ety = SIZES[si], ETYS[ei]
    out.append("  func.func @host_%d(%%arg0: memref<%dx%s>, %%arg1: memref<%dx%s>, %%arg2: index,"
               " %%arg3: i32) -> (%s, i32) {\n" % (idx, n, ety, n, ety, ety))
    c0, c1, cn = f.v(), f.v(), f.v()
    f.line(2, "%s = arith.constant 0 : index" % c0)
    f.line(2, "%s = arith.constant 1 : index" % c1)
    f.line(2, "%s = arith.constant %d : index" % (cn, n))
    ints = ["%arg3"]
    # the body: rounds of scalar code, a loop, a branch and one round of device work
    for _ in range(rnd.randint(8, 16)):
        for _ in range(rnd.randint(4, 10)):
            c = f.v()
            f.line(2, "%s = arith.constant %d : i32" % (c, rnd.randint(-100000, 100000)))
            ints.append(c)
        for _ in range(rnd.randint(6, 16)):
            r = f.v()
            f.line(2, "%s = %s %s, %s : i32" % (r, rnd.choice(INT_OPS), rnd.choice(ints), rnd.choice(ints)))
            ints.append(r)
        fl = []
        for _ in range(rnd.randint(2, 5)):
            c = f.v()
            f.line(2, "%s = arith.constant %s : %s" % (c, repr(rnd.uniform(-1e3, 1e3))[:10], ety))
            fl.append(c)
        # a loop with iter_args: a reduction over arg0 scaled into arg1
        acc, iv, a, x, y, z = f.v(), f.v(), f.v(), f.v(), f.v(), f.v()
        f.line(2, "%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (%s) {" %
               (acc, iv, c0, cn, c1, a, fl[0], ety))
        f.line(3, "%s = memref.load %%arg0[%s] : memref<%dx%s>" % (x, iv, n, ety))
        f.line(3, "%s = %s %s, %s : %s" % (y, rnd.choice(FLOAT_OPS), x, rnd.choice(fl), ety))
        f.line(3, "memref.store %s, %%arg1[%s] : memref<%dx%s>" % (y, iv, n, ety))
        f.line(3, "%s = arith.addf %s, %s : %s" % (z, a, y, ety))
        f.line(3, "scf.yield %s : %s" % (z, ety))
        f.line(2, "}")
        # a condition and an scf.if with results
        cmp, r = f.v(), f.v()
        f.line(2, "%s = arith.cmpi %s, %s, %s : i32" % (cmp, rnd.choice(CMPI), rnd.choice(ints), rnd.choice(ints)))
        t1, t2 = f.v(), f.v()
        f.line(2, "%s = scf.if %s -> (i32) {" % (r, cmp))
        f.line(3, "%s = arith.muli %s, %s : i32" % (t1, rnd.choice(ints), rnd.choice(ints)))
        f.line(3, "scf.yield %s : i32" % t1)
        f.line(2, "} else {")
        f.line(3, "%s = arith.subi %s, %s : i32" % (t2, rnd.choice(ints), rnd.choice(ints)))
        f.line(3, "scf.yield %s : i32" % t2)
        f.line(2, "}")
        ints.append(r)
        # device work: tokens, alloc, copy in, launch, copy out, free
        t0, t1_, d, t2_, t3, t4, t5 = (f.v() for _ in range(7))
        f.line(2, "%s = gpu.wait async" % t0)
        f.line(2, "%s, %s = gpu.alloc async [%s] () : memref<%dx%s>" % (d, t1_, t0, n, ety))
        f.line(2, "%s = gpu.memcpy async [%s] %s, %%arg0 : memref<%dx%s>, memref<%dx%s>" %
               (t2_, t1_, d, n, ety, n, ety))
        k = si + len(SIZES) * (ei + len(ETYS) * rnd.randrange(nkernels // (len(SIZES) * len(ETYS))))
        bx = f.v()
        f.line(2, "%s = arith.constant %d : index" % (bx, rnd.choice([32, 64, 128, 256])))
        f.line(2, "%s = gpu.launch_func async [%s] @kernels::@k%d blocks in (%s, %s, %s) threads in "
                  "(%s, %s, %s) args(%s : memref<%dx%s>, %s : i32)" %
               (t3, t2_, k, cn, c1, c1, bx, c1, c1, d, n, ety, rnd.choice(ints)))
        f.line(2, "%s = gpu.memcpy async [%s] %%arg1, %s : memref<%dx%s>, memref<%dx%s>" %
               (t4, t3, d, n, ety, n, ety))
        f.line(2, "%s = gpu.dealloc async [%s] %s : memref<%dx%s>" % (t5, t4, d, n, ety))
        f.line(2, "gpu.wait [%s]" % t5)
        # a few ops in the generic form, with properties, attributes and a location
        g = f.v()
        f.line(2, '%s = "arith.addi"(%s, %s) <{overflowFlags = #arith.overflow<none>}> '
                  '{tag = "g%d", weight = %d : i64} : (i32, i32) -> i32 loc("gen.py":%d:%d)' %
               (g, rnd.choice(ints), rnd.choice(ints), idx, rnd.randint(0, 1 << 30), idx + 1, rnd.randint(1, 80)))
        ints.append(g)
        sel = f.v()
        f.line(2, "%s = arith.select %s, %s, %s : i32" % (sel, cmp, rnd.choice(ints), rnd.choice(ints)))
    if idx > 0:
        cr = f.v()
        f.line(2, "%s:2 = func.call @host_%d(%%arg0, %%arg1, %%arg2, %s) : (memref<%dx%s>, memref<%dx%s>,"
                  " index, i32) -> (%s, i32)" % (cr, idx, sel, n, ety, n, ety, ety))
    f.line(2, "return %s, %s : %s, i32" % (acc, sel, ety))
    out.append("  }\n")
    return "".join(out)


def kernel(rnd, k):
    n, ety = SIZES[k % len(SIZES)], ETYS[k // len(SIZES) % len(ETYS)]
    out = []
    f = Fn(rnd, out)
    out.append("    gpu.func @k%d(%%arg0: memref<%dx%s>, %%arg1: i32) kernel {\n" % (k, n, ety))
    tid, bid, bdim, i, x, y, c, s = (f.v() for _ in range(8))
    f.line(3, "%s = gpu.thread_id x" % tid)
    f.line(3, "%s = gpu.block_id x" % bid)
    f.line(3, "%s = gpu.block_dim x" % bdim)
    t = f.v()
    f.line(3, "%s = arith.muli %s, %s : index" % (t, bid, bdim))
    f.line(3, "%s = arith.addi %s, %s : index" % (i, t, tid))
    f.line(3, "%s = memref.load %%arg0[%s] : memref<%dx%s>" % (x, i, n, ety))
    f.line(3, "%s = arith.sitofp %%arg1 : i32 to %s" % (c, ety))
    f.line(3, "%s = arith.mulf %s, %s : %s" % (y, x, c, ety))
    f.line(3, "%s = arith.addf %s, %s : %s" % (s, y, x, ety))
    f.line(3, "memref.store %s, %%arg0[%s] : memref<%dx%s>" % (s, i, n, ety))
    f.line(3, "gpu.return")
    out.append("    }\n")
    return "".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=12.0, help="approximate size in MB (default 12)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    target = int(args.mb * 1e6)
    nkernels = NKERNELS
    w = sys.stdout.write
    size = 0
    head = "module attributes {gpu.container_module} {\n"
    w(head)
    size += len(head)
    idx = 0
    while size < target:
        s = host_func(rnd, idx, nkernels)
        w(s)
        size += len(s)
        idx += 1
    w("  gpu.module @kernels {\n")
    for k in range(nkernels):
        w(kernel(rnd, k))
    w("  }\n}\n")


if __name__ == "__main__":
    main()
