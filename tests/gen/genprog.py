#!/usr/bin/env python3
"""Random race-free GPU-dialect programs, with their expected output.

    genprog.py SEED [-o PROG] [--emit-expected FILE] [--drop-dep] [--note FILE] [--features]

From SEED (an integer) this writes a program in the high-level gpu dialect form that gpuinterp and
mlir-opt 22 accept, and, with --emit-expected, what running it prints (printMemrefF32/I32 output;
the `base@ = 0x...` address is written as `base@ = ADDR`, compare after rewriting it the same way).
The same seed always gives the same bytes.

What a program holds:
  - host buffers (memref.alloc, filled with memref.store) and device buffers (gpu.alloc async),
    all of one length N (4, 8 or 16) and each f32 or i32; values stay small integers, so float
    results are exact and print the same everywhere;
  - async device ops, each with a token and a dependency list: gpu.memcpy (host to device, device
    to host, device to device), gpu.memset, gpu.launch_func of the kernels in one gpu.module
    (@axpb_T: m[i] = m[i] * a + b; @add_T: d[i] = d[i] + s[i]; one thread per element over a few
    blocks), gpu.alloc and gpu.dealloc in the middle of the program, and joins
    (gpu.wait async [a, b, ...]); ops take several dependencies, so the token graph forks and joins;
  - host phases: a blocking gpu.wait [...] then host stores into a host buffer or a print of one;
  - func.func callees taking tokens and buffers and returning a token (the join of what they ran);
  - scf.for loops carrying a token in iter_args (each iteration yields the join of its ops), and
    scf.if yielding a token from either branch (the condition is a constant comparison or
    depends on the loop index, so both branches run across iterations); regions nest two deep;
  - at the end: a gpu.dealloc of every device buffer, one gpu.wait [...] on what is still
    outstanding, then every host buffer printed.

How it stays race-free. The generator runs the program as it writes it, in Python: an interpreter
(`State`) keeps the happens-before graph (one node per device op and per host segment between
blocking waits; an op's node follows its dependencies and the host segment that submitted it; a
blocking wait starts a new host segment after the ops it waits for; reachability is a bitmask of
ancestors per node) and, per buffer, every access (read, write, alloc/free) with its node. Before
it emits an access, it looks up every earlier conflicting access to that buffer that is not yet
ordered before the new op and adds as dependency a token in scope whose node follows it (or, for a
host access, waits on one first); an access it cannot order that way is not emitted. A region's
token (callee result, loop yield, if yield) is the join of every op in it, and inside a loop every
op depends on a token derived from the iteration's token, so an iteration is ordered after the
whole previous one. Regions are written on a copy of the state, and the real state then runs them
(every iteration, the branch the condition picks). At the end the whole program runs once more on
a fresh state, which must find no race and no read of unwritten device memory (else the generator
retries with a derived seed); that run gives the expected output (all accesses are ordered, so
program order is one valid schedule and every schedule gives the same result).

--drop-dep removes one dependency (of a device op, a join or a blocking wait) whose removal leaves
two conflicting accesses to the same bytes unordered and that is an error for the race detector
(not two writes of the same values, not an access against the alloc), checked by rerunning the
interpreter on the changed program. The note (--note FILE, stderr otherwise, and a comment at the
end of the program) names the dependency and the two ops by line:col.
--features prints the features the program uses, one per line.

tests/gen/check.py runs seeds through mlir-opt and gpuinterp (tests/lit/gen/ uses it), and
tests/soak.sh loops over fresh seeds for a given time.
"""
import argparse
import copy
import itertools
import random
import struct
import sys

F32, I32 = "f32", "i32"


def to_f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def to_i32(x):
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x & 0x80000000 else x


def fmt_val(ty, v):
    if ty == I32:
        return str(v)
    return "%g" % v  # what std::ostream << float prints (6 significant digits)


def conflict(k1, k2):
    return k1 in ("free", "alloc") or k2 in ("free", "alloc") or k1 == "w" or k2 == "w"


class Stmt:
    """One statement of the program; `kind` names it, the rest are its fields."""
    _ids = itertools.count()

    def __init__(self, kind, **kw):
        self.kind = kind
        self.__dict__.update(kw)
        self.id = next(Stmt._ids)

    def __deepcopy__(self, memo):  # statements are shared, never copied with a state
        return self


class Buf:
    def __init__(self, where, ty, n, vals, init):
        self.where, self.ty, self.n, self.vals, self.init = where, ty, n, vals, init
        self.log = []  # (node, kind, stmt id, values written)
        self.alloc_stmt = None


class State:
    """Runs statements in program order, keeping happens-before and every buffer access."""

    def __init__(self, funcs):
        self.funcs = funcs
        self.anc = []
        self.dev_nodes = []
        self.dev_set = set()
        self.host = self.new_node([])
        self.bufs = []
        self.out = []
        self.races = []  # (stmt id, stmt id, hazard, benign)
        self.errors = []

    def __deepcopy__(self, memo):
        c = State.__new__(State)
        memo[id(self)] = c
        for k, v in self.__dict__.items():
            c.__dict__[k] = v if k == "funcs" else copy.deepcopy(v, memo)
        return c

    def new_node(self, preds, dev=False):
        i = len(self.anc)
        a = 1 << i
        for p in preds:
            a |= self.anc[p]
        self.anc.append(a)
        if dev:
            self.dev_nodes.append(i)
            self.dev_set.add(i)
        return i

    def before(self, x, y):
        return x == y or (self.anc[y] >> x) & 1 == 1

    def access(self, b, node, kind, sid, vals=None):
        buf = self.bufs[b]
        dev = node in self.dev_set
        for (x, k, s, v) in buf.log:
            if conflict(kind, k) and not self.before(x, node):
                benign = (kind == "w" and k == "w" and v == vals and dev and x in self.dev_set)
                hazard = "alloc" if "alloc" in (k, kind) else ("free" if "free" in (k, kind) else
                         "write-write" if k == kind else "read-write")
                self.races.append((s, sid, hazard, benign))
        buf.log.append((node, kind, sid, None if vals is None else tuple(vals)))

    def read(self, b, node, sid):
        buf = self.bufs[b]
        if not buf.init:
            self.errors.append("stmt %d reads unwritten device memory" % sid)
        self.access(b, node, "r", sid)
        return list(buf.vals)

    def write(self, b, node, sid, vals):
        buf = self.bufs[b]
        buf.vals = [to_i32(v) if buf.ty == I32 else to_f32(v) for v in vals]
        buf.init = True
        self.access(b, node, "w", sid, buf.vals)

    def run(self, stmts, env):
        for s in stmts:
            self.exec(s, env)

    def exec(self, s, env):
        k = s.kind
        if k == "dev":
            node = self.new_node([self.host] + [env[d] for d in s.deps], dev=True)
            env[s.res] = node
            op = s.op
            if op == "alloc":
                b = len(self.bufs)
                self.bufs.append(Buf("dev", s.ty, s.n, [0] * s.n, False))
                self.bufs[b].alloc_stmt = s.id
                env[s.buf] = b
                self.access(b, node, "alloc", s.id)
            elif op == "dealloc":
                self.access(env[s.buf], node, "free", s.id)
            elif op == "memcpy":
                v = self.read(env[s.src], node, s.id)
                self.write(env[s.dst], node, s.id, v)
            elif op == "memset":
                self.write(env[s.dst], node, s.id, [s.val] * self.bufs[env[s.dst]].n)
            elif op == "axpb":
                v = self.read(env[s.dst], node, s.id)
                self.write(env[s.dst], node, s.id, [x * s.a + s.b for x in v])
            elif op == "add":
                v = self.read(env[s.src], node, s.id)
                d = self.read(env[s.dst], node, s.id)
                self.write(env[s.dst], node, s.id, [x + y for x, y in zip(d, v)])
            elif op != "join":
                raise AssertionError(op)
        elif k == "wait":
            self.host = self.new_node([self.host] + [env[d] for d in s.deps])
        elif k == "store":
            b = env[s.buf]
            v = list(self.bufs[b].vals)
            v[s.idx] = s.val
            self.write(b, self.host, s.id, v)
        elif k == "print":
            b = env[s.buf]
            buf = self.bufs[b]
            self.access(b, self.host, "r", s.id)
            self.out.append("Unranked Memref base@ = ADDR rank = 1 offset = 0 sizes = [%d] "
                            "strides = [1] data = \n[%s]\n"
                            % (buf.n, ",  ".join(fmt_val(buf.ty, x) for x in buf.vals)))
        elif k == "call":
            f = self.funcs[s.fn]
            fenv = {p: env[a] for p, a in zip(f.params, s.args)}
            self.run(f.body, fenv)
            env[s.res] = fenv[f.ret]
        elif k == "for":
            env[s.it] = env[s.init]
            for i in range(s.n):
                env[s.iv] = i
                self.run(s.body, env)
                env[s.it] = env[s.yv]
            env[s.res] = env[s.it]
        elif k == "if":
            lhs = env[s.lhs] if isinstance(s.lhs, str) else s.lhs
            taken = lhs < s.rhs if s.pred == "slt" else lhs == s.rhs
            self.run(s.then if taken else s.els, env)
            env[s.res] = env[s.ty if taken else s.ey]
        elif k == "hostbuf":
            b = len(self.bufs)
            self.bufs.append(Buf("host", s.ty, s.n, list(s.vals), True))
            env[s.buf] = b
            self.access(b, self.host, "w", s.id, s.vals)
        else:
            raise AssertionError(k)


class Func:
    def __init__(self, name, params, ptypes):
        self.name, self.params, self.ptypes = name, params, ptypes
        self.body, self.ret = [], None


class Ctx:
    """Where the generator is writing: the state, the frame, what is in scope."""

    def __init__(self, st, env):
        self.st, self.env = st, env
        self.toks = []  # (name, loop id): tokens in scope
        self.bufs = []  # buffer names in scope
        self.ivs = []  # loop indices in scope
        self.leaves = []  # tokens made in this region that no op of it depends on yet
        self.loop = None  # innermost loop id; its ops must depend on a token derived from it
        self.depth = 0
        self.main = True
        self.stmts = None

    def fork(self):
        c = copy.copy(self)
        c.st = copy.deepcopy(self.st)
        c.env = dict(self.env)
        c.toks, c.bufs, c.leaves = list(self.toks), list(self.bufs), list(self.leaves)
        c.ivs = list(self.ivs)
        return c


class Gen:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.count = {}
        self.funcs = {}
        self.func_order = []
        self.features = set()
        r = self.rng
        self.n = r.choice([4, 8, 16])
        self.types = r.choice([[F32], [I32], [F32, I32]])
        self.steps = r.randint(6, 22)

    def name(self, p):
        self.count[p] = self.count.get(p, -1) + 1
        return "%s%d" % (p, self.count[p])

    def buf_ty(self, c, name):
        return c.st.bufs[c.env[name]].ty

    def buf(self, c, name):
        return c.st.bufs[c.env[name]]

    # --- dependencies ---------------------------------------------------------------------------

    def pick_deps(self, c, accesses, extra=True):
        """Dependencies for a new device op doing `accesses` [(buffer name, kind)]: every earlier
        conflicting access not yet ordered before it gets a token in scope that follows it.
        None when some access cannot be ordered from here."""
        r, st = self.rng, c.st
        deps = []
        derived = [t for t, l in c.toks if l == c.loop] if c.loop is not None else []
        if c.loop is not None:
            if not derived:
                return None
            deps.append(r.choice(derived))
        elif extra and c.toks and r.random() < 0.5:
            deps.append(r.choice(c.toks)[0])
        if extra and c.toks and r.random() < 0.3:
            deps.append(r.choice(c.toks)[0])

        def anc():
            a = st.anc[st.host]
            for d in deps:
                a |= st.anc[c.env[d]]
            return a
        a = anc()
        for name, kind in accesses:
            for (x, k, _, _) in self.buf(c, name).log:
                if not conflict(kind, k) or (a >> x) & 1:
                    continue
                cands = [t for t, _ in c.toks if (st.anc[c.env[t]] >> x) & 1]
                if not cands:
                    return None
                exact = [t for t in cands if c.env[t] == x]
                deps.append(exact[0] if exact and r.random() < 0.7 else r.choice(cands))
                a = anc()
        out = []
        for d in deps:
            if d not in out:
                out.append(d)
        if len(out) > 1:
            self.features.add("several-deps")
        return out

    def host_cover(self, c, name, kind):
        """Tokens a blocking wait needs so the host may access `name`; None if impossible."""
        st, deps = c.st, []
        a = st.anc[c.st.host]
        for (x, k, _, _) in self.buf(c, name).log:
            if not conflict(kind, k) or (a >> x) & 1:
                continue
            cands = [t for t, _ in c.toks if (st.anc[c.env[t]] >> x) & 1]
            if not cands:
                return None
            exact = [t for t in cands if c.env[t] == x]
            d = exact[0] if exact else self.rng.choice(cands)
            deps.append(d)
            a |= st.anc[c.env[d]]
        return deps

    def add_tok(self, c, name):
        c.toks.append((name, c.loop))
        c.leaves.append(name)

    def emit(self, c, s):
        c.stmts.append(s)
        c.st.exec(s, c.env)
        deps = getattr(s, "deps", None) if s.kind == "dev" else None
        if deps:
            c.leaves = [t for t in c.leaves if t not in deps]
        if getattr(s, "res", None):
            self.add_tok(c, s.res)

    def dev(self, c, op, accesses, **kw):
        deps = self.pick_deps(c, accesses)
        if deps is None:
            return False
        s = Stmt("dev", op=op, res=self.name("t"), deps=deps, **kw)
        self.emit(c, s)
        self.features.add(op)
        return True

    def join(self, c, toks):
        """A token after all of `toks` (a gpu.wait async when there are several)."""
        if len(toks) == 1:
            return toks[0]
        s = Stmt("dev", op="join", res=self.name("t"), deps=list(toks))
        self.emit(c, s)
        self.features.add("join")
        return s.res

    # --- actions ----------------------------------------------------------------------------------

    def readable(self, c, name):
        return self.buf(c, name).init

    def act(self, c):
        r = self.rng
        acts = ["memcpy"] * 4 + ["memset"] * 2 + ["axpb"] * 3 + ["add"] * 2 + ["join"]
        if c.depth < 2:
            acts += ["call", "for", "if"]
        if c.main:
            acts += ["alloc", "dealloc", "store", "print"]
        for _ in range(20):
            a = r.choice(acts)
            if getattr(self, "act_" + a)(c):
                return

    def act_memcpy(self, c):
        r = self.rng
        pairs = [(d, s) for d in c.bufs for s in c.bufs if d != s and
                 self.buf_ty(c, d) == self.buf_ty(c, s) and self.readable(c, s) and
                 "dev" in (self.buf(c, d).where, self.buf(c, s).where)]
        if not pairs:
            return False
        d, s = r.choice(pairs)
        ok = self.dev(c, "memcpy", [(s, "r"), (d, "w")], dst=d, src=s)
        if ok:
            ws = (self.buf(c, s).where, self.buf(c, d).where)
            self.features.add({("host", "dev"): "memcpy-h2d", ("dev", "host"): "memcpy-d2h",
                               ("dev", "dev"): "memcpy-d2d"}[ws])
        return ok

    def dev_bufs(self, c, init=False):
        return [b for b in c.bufs if self.buf(c, b).where == "dev" and
                (not init or self.readable(c, b))]

    def act_memset(self, c):
        bs = self.dev_bufs(c)
        if not bs:
            return False
        d = self.rng.choice(bs)
        return self.dev(c, "memset", [(d, "w")], dst=d, val=self.rng.randint(-4, 9))

    def act_axpb(self, c):
        bs = self.dev_bufs(c, init=True)
        if not bs:
            return False
        d = self.rng.choice(bs)
        return self.dev(c, "axpb", [(d, "w")], dst=d, a=self.rng.choice([-1, 1, 1, 2, 0, 3]),
                        b=self.rng.randint(-3, 5), blocks=self.blocks())

    def act_add(self, c):
        bs = self.dev_bufs(c, init=True)
        pairs = [(d, s) for d in bs for s in bs if d != s and
                 self.buf_ty(c, d) == self.buf_ty(c, s)]
        if not pairs:
            return False
        d, s = self.rng.choice(pairs)
        return self.dev(c, "add", [(s, "r"), (d, "w")], dst=d, src=s, blocks=self.blocks())

    def blocks(self):
        return self.rng.choice([b for b in (1, 2, 4) if self.n // b >= 2])

    def act_join(self, c):
        pool = [t for t, l in c.toks if c.loop is None or l == c.loop]
        if len(c.toks) < 2 or not pool:
            return False
        first = self.rng.choice(pool)
        rest = self.rng.sample([t for t, _ in c.toks if t != first],
                               min(len(c.toks) - 1, self.rng.randint(1, 2)))
        self.join(c, [first] + rest)
        return True

    def act_alloc(self, c):
        if len(self.dev_bufs(c)) >= 5:
            return False
        name = self.name("d")
        deps = self.pick_deps(c, [])
        s = Stmt("dev", op="alloc", res=self.name("t"), deps=deps, buf=name,
                 ty=self.rng.choice(self.types), n=self.n)
        self.emit(c, s)
        c.bufs.append(name)
        self.features.add("alloc")
        return True

    def act_dealloc(self, c):
        bs = self.dev_bufs(c)
        if len(bs) < 3:
            return False
        d = self.rng.choice(bs)
        if not self.dev(c, "dealloc", [(d, "free")], buf=d):
            return False
        c.bufs.remove(d)
        return True

    def host_bufs(self, c):
        return [b for b in c.bufs if self.buf(c, b).where == "host"]

    def host_wait(self, c, name, kind):
        deps = self.host_cover(c, name, kind)
        if deps is None:
            return False
        if not deps and self.rng.random() < 0.5 and c.toks:
            deps = [self.rng.choice(c.toks)[0]]
        if deps:
            self.emit(c, Stmt("wait", deps=deps))
            self.features.add("host-wait")
        return True

    def act_store(self, c):
        h = self.rng.choice(self.host_bufs(c))
        if not self.host_wait(c, h, "w"):
            return False
        for _ in range(self.rng.randint(1, 3)):
            self.emit(c, Stmt("store", buf=h, idx=self.rng.randrange(self.n),
                              val=self.rng.randint(-5, 20), ty=self.buf_ty(c, h)))
        self.features.add("host-store")
        return True

    def act_print(self, c):
        h = self.rng.choice(self.host_bufs(c))
        if not self.host_wait(c, h, "r"):
            return False
        self.emit(c, Stmt("print", buf=h, ty=self.buf_ty(c, h)))
        self.features.add("host-print")
        return True

    def region(self, c, stmts, steps):
        """Fill a region with `steps` actions; returns the token that follows all of them."""
        c.stmts = stmts
        c.leaves = []
        for _ in range(steps):
            self.act(c)
        return list(c.leaves)

    def region_token(self, c, leaves, default):
        return self.join(c, leaves) if leaves else default

    def act_call(self, c):
        r = self.rng
        if not c.toks:
            return False
        fname = "f%d" % len(self.funcs)
        pool = [t for t, l in c.toks if c.loop is None or l == c.loop]
        if not pool:
            return False
        targs = [r.choice(pool)]
        for _ in range(r.randint(0, 2)):
            t = r.choice(c.toks)[0]
            if t not in targs:
                targs.append(t)
        bargs = r.sample(c.bufs, min(len(c.bufs), r.randint(1, 3)))
        params, ptypes = [], []
        for t in targs:
            params.append(self.name("a"))
            ptypes.append("!gpu.async.token")
        for b in bargs:
            params.append(self.name("m"))
            ptypes.append("memref<%dx%s>" % (self.n, self.buf_ty(c, b)))
        f = Func(fname, params, ptypes)
        self.funcs[fname] = f
        self.func_order.append(fname)
        # write the body on a copy, running in the callee's frame
        fc = c.fork()
        fc.env = {p: c.env[a] for p, a in zip(params, targs + bargs)}
        loops = dict((t, l) for t, l in c.toks)
        fc.toks = [(p, loops[a]) for p, a in zip(params, targs)]
        fc.bufs = params[len(targs):]
        fc.main = False
        fc.ivs = []
        fc.depth = c.depth + 1
        leaves = self.region(fc, f.body, r.randint(1, 4))
        f.ret = self.region_token(fc, leaves, params[0])
        s = Stmt("call", fn=fname, res=self.name("t"), args=targs + bargs, types=ptypes)
        self.emit(c, s)
        self.features.add("call")
        return True

    def act_for(self, c):
        r = self.rng
        pool = [t for t, l in c.toks if c.loop is None or l == c.loop]
        if not pool:
            return False
        lid = self.name("L")
        s = Stmt("for", n=r.randint(1, 4), res=self.name("t"), iv=self.name("i"),
                 it=self.name("it"), init=r.choice(pool), body=[], yv=None)
        bc = c.fork()
        bc.env[s.it] = bc.env[s.init]
        bc.env[s.iv] = 0
        bc.loop = lid
        bc.toks.append((s.it, lid))
        bc.ivs.append(s.iv)
        bc.depth = c.depth + 1
        bc.main = False
        leaves = self.region(bc, s.body, r.randint(1, 4))
        s.yv = self.region_token(bc, leaves, s.it)
        self.emit(c, s)
        self.features.add("for")
        return True

    def act_if(self, c):
        r = self.rng
        ivs = c.ivs
        if ivs and r.random() < 0.7:
            lhs, pred, rhs = r.choice(ivs), r.choice(["slt", "eq"]), r.randint(0, 2)
            self.features.add("if-on-index")
        else:
            lhs, pred, rhs = r.randint(0, 3), "slt", r.randint(0, 3)
        pool = [t for t, l in c.toks if c.loop is None or l == c.loop]
        if not pool:
            return False
        default = r.choice(pool)
        s = Stmt("if", lhs=lhs, pred=pred, rhs=rhs, res=self.name("t"), then=[], els=[],
                 ty=None, ey=None)
        for branch in ("then", "els"):
            bc = c.fork()
            bc.depth = c.depth + 1
            bc.main = False
            leaves = self.region(bc, getattr(s, branch), r.randint(0, 3))
            y = self.region_token(bc, leaves, default)
            setattr(s, "ty" if branch == "then" else "ey", y)
        self.emit(c, s)
        self.features.add("if")
        return True

    # --- the program ------------------------------------------------------------------------------

    def build(self):
        r = self.rng
        st = State(self.funcs)
        c = Ctx(st, {})
        c.stmts = self.main = []
        for _ in range(r.randint(2, 3)):
            ty = r.choice(self.types)
            name = self.name("h")
            p, q = r.randint(-2, 3), r.randint(-3, 5)
            self.emit(c, Stmt("hostbuf", buf=name, ty=ty, n=self.n, p=p, q=q,
                              vals=[i * p + q for i in range(self.n)]))
            c.bufs.append(name)
        t0 = Stmt("dev", op="join", res=self.name("t"), deps=[])
        self.emit(c, t0)
        for _ in range(r.randint(1, 3)):
            self.act_alloc(c)
        for _ in range(self.steps):
            self.act(c)
        for d in self.dev_bufs(c):
            self.dev(c, "dealloc", [(d, "free")], buf=d)
        # what is not yet ordered before the host
        st = c.st
        out, seen = [], set()
        for t in c.leaves:  # one token per node (an if may yield a token made before it)
            if not st.before(c.env[t], st.host) and c.env[t] not in seen:
                seen.add(c.env[t])
                out.append(t)
        out = [t for t in out if not any(u != t and st.before(c.env[t], c.env[u]) for u in out)]
        missing = [x for x in st.dev_nodes if not st.before(x, st.host) and
                   not any(st.before(x, c.env[t]) for t in out)]
        assert not missing, missing
        self.emit(c, Stmt("wait", deps=out, final=True))
        for h in self.host_bufs(c):
            self.emit(c, Stmt("print", buf=h, ty=self.buf_ty(c, h)))
        self.hosts = self.host_bufs(c)
        self.hosts_all = [s.buf for s in self.main if s.kind == "hostbuf"]


class Emitter:
    """Writes the program's text and records each statement's line:col."""

    def __init__(self, g):
        self.g, self.lines, self.loc, self.k = g, [], {}, 0
        self.types = {}

    def const(self, ind, v, ty):
        self.k += 1
        name = "%%k%d" % self.k
        lit = ("%d.0" % v) if ty == F32 else str(v)
        self.lines.append("%s%s = arith.constant %s : %s" % (ind, name, lit, ty))
        return name

    def line(self, ind, text, s, opname):
        self.lines.append(ind + text)
        self.loc[s.id] = "%d:%d" % (len(self.lines), len(ind) + text.index(opname) + 1)

    def mt(self, ty):
        return "memref<%dx%s>" % (self.g.n, ty)

    def deps(self, deps):
        return " [%s]" % ", ".join("%" + d for d in deps) if deps else ""

    def block(self, stmts, ind, tys):
        for s in stmts:
            self.stmt(s, ind, tys)

    def stmt(self, s, ind, tys):
        g, k = self.g, s.kind
        if k == "hostbuf":
            tys[s.buf] = s.ty
            self.line(ind, "%%%s = memref.alloc() : %s" % (s.buf, self.mt(s.ty)), s, "memref.alloc")
            c0 = self.const(ind, 0, "index")
            cn = self.const(ind, s.n, "index")
            c1 = self.const(ind, 1, "index")
            self.k += 1
            i = "%%j%d" % self.k
            self.lines.append("%sscf.for %s = %s to %s step %s {" % (ind, i, c0, cn, c1))
            ind2 = ind + "  "
            x, y, z = ("%%x%d_%d" % (self.k, j) for j in range(3))
            self.lines.append("%s%s = arith.index_cast %s : index to i32" % (ind2, x, i))
            cp = self.const(ind2, s.p, I32)
            cq = self.const(ind2, s.q, I32)
            self.lines.append("%s%s = arith.muli %s, %s : i32" % (ind2, y, x, cp))
            self.lines.append("%s%s = arith.addi %s, %s : i32" % (ind2, z, y, cq))
            if s.ty == F32:
                self.lines.append("%s%s_f = arith.sitofp %s : i32 to f32" % (ind2, z, z))
                z += "_f"
            self.lines.append("%smemref.store %s, %%%s[%s] : %s" % (ind2, z, s.buf, i,
                                                                     self.mt(s.ty)))
            self.lines.append(ind + "}")
        elif k == "store":
            cv = self.const(ind, s.val, s.ty)
            ci = self.const(ind, s.idx, "index")
            self.line(ind, "memref.store %s, %%%s[%s] : %s" % (cv, s.buf, ci, self.mt(s.ty)), s,
                      "memref.store")
        elif k == "print":
            self.k += 1
            u = "%%u%d" % self.k
            T = "F32" if s.ty == F32 else "I32"
            self.lines.append("%s%s = memref.cast %%%s : %s to memref<*x%s>" %
                              (ind, u, s.buf, self.mt(s.ty), s.ty))
            self.line(ind, "func.call @printMemref%s(%s) : (memref<*x%s>) -> ()" % (T, u, s.ty), s,
                      "func.call")
        elif k == "wait":
            self.line(ind, "gpu.wait" + self.deps(s.deps), s, "gpu.wait")
        elif k == "dev":
            op, d, res = s.op, self.deps(s.deps), "%" + s.res
            if op == "join":
                self.line(ind, "%s = gpu.wait async%s" % (res, d), s, "gpu.wait")
            elif op == "alloc":
                tys[s.buf] = s.ty
                self.line(ind, "%%%s, %s = gpu.alloc async%s () : %s" % (s.buf, res, d,
                                                                         self.mt(s.ty)),
                          s, "gpu.alloc")
            elif op == "dealloc":
                self.line(ind, "%s = gpu.dealloc async%s %%%s : %s" % (res, d, s.buf,
                                                                       self.mt(tys[s.buf])),
                          s, "gpu.dealloc")
            elif op == "memcpy":
                self.line(ind, "%s = gpu.memcpy async%s %%%s, %%%s : %s, %s" % (
                    res, d, s.dst, s.src, self.mt(tys[s.dst]), self.mt(tys[s.src])), s,
                    "gpu.memcpy")
            elif op == "memset":
                ty = tys[s.dst]
                cv = self.const(ind, s.val, ty)
                self.line(ind, "%s = gpu.memset async%s %%%s, %s : %s, %s" % (
                    res, d, s.dst, cv, self.mt(ty), ty), s, "gpu.memset")
            else:
                ty = tys[s.dst]
                n = g.n
                blocks = s.blocks
                cb = self.const(ind, blocks, "index")
                ct = self.const(ind, n // blocks, "index")
                c1 = self.const(ind, 1, "index")
                if op == "axpb":
                    ca = self.const(ind, s.a, ty)
                    cb2 = self.const(ind, s.b, ty)
                    args = "%%%s : %s, %s : %s, %s : %s" % (s.dst, self.mt(ty), ca, ty, cb2, ty)
                else:
                    args = "%%%s : %s, %%%s : %s" % (s.dst, self.mt(ty), s.src, self.mt(ty))
                self.line(ind, "%s = gpu.launch_func async%s @kernels::@%s_%s blocks in (%s, %s, %s) "
                          "threads in (%s, %s, %s) args(%s)" % (res, d, op, ty, cb, c1, c1, ct,
                                                                c1, c1, args),
                          s, "gpu.launch_func")
                self.used_kernels.add((op, ty))
        elif k == "call":
            f = g.funcs[s.fn]
            self.line(ind, "%%%s = func.call @%s(%s) : (%s) -> !gpu.async.token" % (
                s.res, s.fn, ", ".join("%" + a for a in s.args), ", ".join(f.ptypes)), s,
                "func.call")
        elif k == "for":
            c0 = self.const(ind, 0, "index")
            cn = self.const(ind, s.n, "index")
            c1 = self.const(ind, 1, "index")
            self.line(ind, "%%%s = scf.for %%%s = %s to %s step %s iter_args(%%%s = %%%s) -> "
                      "(!gpu.async.token) {" % (s.res, s.iv, c0, cn, c1, s.it, s.init), s,
                      "scf.for")
            self.block(s.body, ind + "  ", tys)
            self.lines.append("%s  scf.yield %%%s : !gpu.async.token" % (ind, s.yv))
            self.lines.append(ind + "}")
        elif k == "if":
            lhs = "%" + s.lhs if isinstance(s.lhs, str) else self.const(ind, s.lhs, "index")
            rhs = self.const(ind, s.rhs, "index")
            self.k += 1
            cond = "%%b%d" % self.k
            self.lines.append("%s%s = arith.cmpi %s, %s, %s : index" % (ind, cond, s.pred, lhs, rhs))
            self.line(ind, "%%%s = scf.if %s -> (!gpu.async.token) {" % (s.res, cond), s, "scf.if")
            self.block(s.then, ind + "  ", tys)
            self.lines.append("%s  scf.yield %%%s : !gpu.async.token" % (ind, s.ty))
            self.lines.append(ind + "} else {")
            self.block(s.els, ind + "  ", tys)
            self.lines.append("%s  scf.yield %%%s : !gpu.async.token" % (ind, s.ey))
            self.lines.append(ind + "}")
        else:
            raise AssertionError(k)

    def kernels(self):
        L = ["  gpu.module @kernels {"]
        for op, ty in sorted(self.used_kernels):
            m = self.mt(ty)
            mul, add = ("arith.mulf", "arith.addf") if ty == F32 else ("arith.muli", "arith.addi")
            if op == "axpb":
                L += ["    gpu.func @axpb_%s(%%m: %s, %%a: %s, %%b: %s) kernel {" % (ty, m, ty, ty),
                      "      %i = gpu.global_id x",
                      "      %%x = memref.load %%m[%%i] : %s" % m,
                      "      %%y = %s %%x, %%a : %s" % (mul, ty),
                      "      %%z = %s %%y, %%b : %s" % (add, ty),
                      "      memref.store %%z, %%m[%%i] : %s" % m]
            else:
                L += ["    gpu.func @add_%s(%%d: %s, %%s: %s) kernel {" % (ty, m, m),
                      "      %i = gpu.global_id x",
                      "      %%x = memref.load %%d[%%i] : %s" % m,
                      "      %%y = memref.load %%s[%%i] : %s" % m,
                      "      %%z = %s %%x, %%y : %s" % (add, ty),
                      "      memref.store %%z, %%d[%%i] : %s" % m]
            L += ["      gpu.return", "    }"]
        return L + ["  }"]

    def program(self, seed, note=None):
        g = self.g
        self.used_kernels = set()
        body_lines = []
        # the callees and main go first into self.lines; the header is added after
        head = ["// Generated by tests/gen/genprog.py %d: a race-free random program." % seed,
                "module attributes {gpu.container_module} {",
                "  func.func private @printMemrefF32(memref<*xf32>)",
                "  func.func private @printMemrefI32(memref<*xi32>)"]
        # kernels come last so that every line above them keeps its number whatever is used
        self.lines = list(head)
        for fname in g.func_order:
            f = g.funcs[fname]
            tys = {}
            for p, t in zip(f.params, f.ptypes):
                if t.startswith("memref"):
                    tys[p] = t[-4:-1]
            self.lines.append("  func.func @%s(%s) -> !gpu.async.token {" % (
                fname, ", ".join("%%%s: %s" % (p, t) for p, t in zip(f.params, f.ptypes))))
            self.block(f.body, "    ", tys)
            self.lines.append("    return %%%s : !gpu.async.token" % f.ret)
            self.lines.append("  }")
        self.lines.append("  func.func @main() {")
        tys = {}
        self.block(g.main, "    ", tys)
        for h in g.hosts_all:
            self.lines.append("    memref.dealloc %%%s : %s" % (h, self.mt(tys[h])))
        self.lines.append("    return")
        self.lines.append("  }")
        self.lines += self.kernels()
        self.lines.append("}")
        if note:
            self.lines += ["// " + l for l in note.splitlines()]
        del body_lines
        return "\n".join(self.lines) + "\n"


def all_deps(stmts, funcs):
    """(statement, index) of every dependency that can be dropped, in program order."""
    out = []

    def walk(ss):
        for s in ss:
            if s.kind in ("dev", "wait"):
                out.extend((s, i) for i in range(len(s.deps)))
            elif s.kind == "for":
                walk(s.body)
            elif s.kind == "if":
                walk(s.then)
                walk(s.els)
    for f in funcs.values():
        walk(f.body)
    walk(stmts)
    return out


def rerun(g):
    st = State(g.funcs)
    st.run(g.main, {})
    return st


def generate(seed):
    for attempt in range(50):
        g = Gen(seed * 7919 + attempt)
        g.build()
        st = rerun(g)
        big = any(abs(v) >= (1 << 24) for b in st.bufs if b.ty == F32 for v in b.vals)
        if not st.races and not st.errors and not big:
            return g, st
    raise SystemExit("genprog: seed %d: no race-free program in 50 attempts" % seed)


def drop_dep(g, seed):
    """Drop one dependency that leaves an error-level race; returns a description."""
    r = random.Random(seed)
    cands = all_deps(g.main, g.funcs)
    r.shuffle(cands)
    for s, i in cands:
        dep = s.deps.pop(i)
        st = rerun(g)
        bad = [x for x in st.races if not x[3] and x[2] != "alloc"]
        if bad:
            return s, dep, bad[0]
        s.deps.insert(i, dep)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("-o", dest="out", help="write the program here (default: stdout)")
    ap.add_argument("--emit-expected", metavar="FILE", help="write the expected output here")
    ap.add_argument("--drop-dep", action="store_true",
                    help="drop one dependency needed for race-freedom")
    ap.add_argument("--note", metavar="FILE", help="with --drop-dep: write the note here")
    ap.add_argument("--features", action="store_true", help="print the features used and exit")
    a = ap.parse_args()
    g, st = generate(a.seed)
    if a.features:
        print("\n".join(sorted(g.features)))
        return 0
    note = None
    if a.drop_dep:
        found = drop_dep(g, a.seed)
        if found is None:
            sys.stderr.write("genprog: seed %d: no dependency to drop\n" % a.seed)
            return 3
        e = Emitter(g)
        e.program(a.seed)  # locations of the changed program
        s, dep, (s1, s2, hazard, _) = found
        note = ("drop-dep: removed %%%s from the dependencies of the op at %s; now the ops at "
                "%s and %s race (%s)" % (dep, e.loc[s.id], e.loc[s1], e.loc[s2], hazard))
    text = Emitter(g).program(a.seed, note)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if a.emit_expected and not a.drop_dep:
        with open(a.emit_expected, "w") as f:
            f.write("".join(st.out))
    if note:
        if a.note:
            with open(a.note, "w") as f:
                f.write(note + "\n")
        else:
            sys.stderr.write(note + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
