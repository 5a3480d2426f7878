/* diff_order.c - `gpuinterp --diff` compares ordering on the serial runs' traces, as
 * happens-before graphs with vector clocks over a chain decomposition (graph_build): lost
 * ordering (lost_ordering, a frontier per range of bytes of each buffer), lost concurrency
 * (lost_concurrency, edge by edge), and under GPUINTERP_DIFF_ORACLE their textbook forms
 * (clocks_oracle, lost_ordering_oracle). The method is described at the top of diff.c. */
#include "tools/diff_internal.h"

#include <inttypes.h>

/* ---- happens-before ------------------------------------------------------------------------ */

typedef struct Edge {
  uint32_t from, next;
  TraceEdgeKind kind;
} Edge;

typedef struct Acc {
  uint32_t node;
  uint64_t off, size;
  bool write;
  bool atomic;         /* a read-modify-write: two of them do not conflict (be_access_conflict) */
} Acc;

typedef struct Node {
  bool host;
  bool device;         /* a memcpy, memset or kernel */
  uint32_t site, occ;  /* device ops */
  const char *call;    /* device op: the lowered call; host segment: the sync call that began it */
  uint64_t stream;
  uint32_t host_at;    /* ops: the host segment that submitted it */
  uint32_t first_edge; /* index + 1 into edges */
  uint32_t chain, idx; /* idx from 1 */
  size_t vco;          /* its clock: pool[vco .. vco + nvc) (dense) or nvc pairs from vco (sparse) */
  uint32_t nvc;
  bool sparse;         /* its clock is (chain, idx) pairs by chain, its nonzero entries only */
} Node;

typedef struct Graph {
  Node *v;
  size_t n, cap;
  Edge *e;
  size_t ne, cape;
  uint32_t *chain_tail; /* per chain: its last node */
  size_t nchains, capchains;
  uint32_t *pool;       /* every node's clock */
  Acc **bufacc;         /* per buffer id */
  size_t *nbufacc, *capbufacc, nbuffers;
  uint64_t *match;      /* (site << 32 | occ) -> node, open addressing (index + 1 in low bits) */
  uint32_t *matchv;
  size_t matchcap;
} Graph;

static void add_edge(Graph *G, uint32_t from, uint32_t to, TraceEdgeKind kind) {
  if (from >= to)
    return;
  PUSH(G->e, G->ne, G->cape, ((Edge){from, G->v[to].first_edge, kind}));
  G->v[to].first_edge = (uint32_t)G->ne;
}

static uint32_t add_node(Graph *G, Node n) {
  PUSH(G->v, G->n, G->cap, n);
  return (uint32_t)G->n - 1;
}

static uint64_t match_key(uint32_t site, uint32_t occ) { return (uint64_t)site << 32 | occ; }

static void match_put(Graph *G, uint64_t key, uint32_t node) {
  size_t h = hash_slot(key, G->matchcap);
  while (G->matchv[h])
    h = (h + 1) & (G->matchcap - 1);
  G->match[h] = key;
  G->matchv[h] = node + 1;
}

static uint32_t match_get(const Graph *G, uint32_t site, uint32_t occ) {
  if (!G->matchcap)
    return UINT32_MAX;
  uint64_t key = match_key(site, occ);
  size_t h = hash_slot(key, G->matchcap);
  while (G->matchv[h]) {
    if (G->match[h] == key)
      return G->matchv[h] - 1;
    h = (h + 1) & (G->matchcap - 1);
  }
  return UINT32_MAX;
}

static void add_accesses(Graph *G, uint32_t node, const TraceAccess *a, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint64_t b = a[i].buffer;
    if (!b || !a[i].size)
      continue;
    if (b >= G->nbuffers) {
      size_t nb = b + 64;
      G->bufacc = xrealloc(G->bufacc, nb * sizeof *G->bufacc);
      G->nbufacc = xrealloc(G->nbufacc, nb * sizeof *G->nbufacc);
      G->capbufacc = xrealloc(G->capbufacc, nb * sizeof *G->capbufacc);
      for (size_t k = G->nbuffers; k < nb; k++) {
        G->bufacc[k] = NULL;
        G->nbufacc[k] = G->capbufacc[k] = 0;
      }
      G->nbuffers = nb;
    }
    PUSH(G->bufacc[b], G->nbufacc[b], G->capbufacc[b],
         ((Acc){node, a[i].offset, a[i].size, (a[i].mode & TRACE_WRITE) != 0, (a[i].mode & TRACE_ATOMIC) != 0}));
  }
}

static int by_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static int by_node(const void *a, const void *b) {
  const Acc *x = a, *y = b;
  return x->node < y->node ? -1 : x->node > y->node;
}

static void graph_build(Graph *G, TraceRecorder *rec, SiteTab *S) {
  memset(G, 0, sizeof *G);
  uint32_t host = add_node(G, (Node){.host = true});
  uint32_t *of_op = NULL; /* trace op id -> node */
  size_t nof = 0;
  size_t n = trace_recorder_count(rec);
  bool want_call = false;
  for (size_t i = 0; i < n; i++) {
    const TraceEvent *ev = trace_recorder_event(rec, i);
    switch (ev->kind) {
    case TRACE_ENQUEUE: {
      const char *call = "";
      Node nd = {.host_at = host, .stream = ev->stream};
      nd.device = ev->name && (!strcmp(ev->name, "memcpy") || !strcmp(ev->name, "memset") ||
                               !strcmp(ev->name, "kernel"));
      nd.site = diff_site_of(S, ev->loc, &call);
      nd.call = call;
      uint32_t v = add_node(G, nd);
      add_edge(G, host, v, TRACE_EDGE_SYNC);
      if (ev->op >= nof) {
        size_t nn = ev->op + 64;
        of_op = xrealloc(of_op, nn * sizeof *of_op);
        for (size_t k = nof; k < nn; k++)
          of_op[k] = UINT32_MAX;
        nof = nn;
      }
      of_op[ev->op] = v;
      if (nd.device)
        add_accesses(G, v, ev->accesses, ev->n_accesses);
      break;
    }
    case TRACE_END:
      if (ev->op < nof && of_op[ev->op] != UINT32_MAX && G->v[of_op[ev->op]].device)
        add_accesses(G, of_op[ev->op], ev->accesses, ev->n_accesses);
      break;
    case TRACE_EDGE: {
      uint32_t from = ev->op == TRACE_HOST ? host : ev->op < nof ? of_op[ev->op] : UINT32_MAX;
      if (from == UINT32_MAX)
        break;
      if (ev->op2 == TRACE_HOST) {
        uint32_t h = add_node(G, (Node){.host = true, .call = ""});
        add_edge(G, host, h, TRACE_EDGE_SYNC);
        add_edge(G, from, h, TRACE_EDGE_SYNC);
        host = h;
        want_call = true;
      } else if (ev->op2 < nof && of_op[ev->op2] != UINT32_MAX) {
        add_edge(G, from, of_op[ev->op2], ev->edge);
      }
      break;
    }
    case TRACE_CALL:
      /* the call during which the host synchronized names the segment it began */
      if (want_call) {
        for (uint32_t k = host; k > 0 && G->v[k].host && !G->v[k].call[0]; k--)
          G->v[k].call = ev->loc ? ev->loc : "";
        want_call = false;
      }
      break;
    default:
      break;
    }
  }
  free(of_op);
  /* occurrences of device ops per site, in submission order */
  uint32_t *count = calloc(S->n + 1, sizeof *count);
  G->matchcap = 64;
  while (G->matchcap < 2 * G->n)
    G->matchcap *= 2;
  G->match = calloc(G->matchcap, sizeof *G->match);
  G->matchv = calloc(G->matchcap, sizeof *G->matchv);
  if (!count || !G->match || !G->matchv)
    exit(1);
  for (uint32_t v = 0; v < G->n; v++)
    if (G->v[v].device) {
      G->v[v].occ = count[G->v[v].site]++;
      match_put(G, match_key(G->v[v].site, G->v[v].occ), v);
    }
  free(count);
  /* chains and vector clocks, in node order (a topological order). A node's clock is the join of
   * its predecessors'; it then extends the chain of a predecessor that ends that chain or, failing
   * that, any chain whose last node its clock covers (that node happens before it), and only
   * else starts a chain. Chains are so reused as soon as what ends them is ordered before the
   * next node, and their number follows the width of the graph, not its length. */
  size_t at = 0, cap = 0;
  uint32_t *dense = NULL, *touched = NULL; /* the clock being built: dense over all chains, zero
                                              but at the chains in touched[0 .. nt) */
  size_t capdense = 0;
  for (uint32_t v = 0; v < G->n; v++) {
    Node *nd = &G->v[v];
    uint32_t nc = (uint32_t)G->nchains;
    if (nc + 1 > capdense) {
      size_t old = capdense;
      capdense = capdense ? 2 * capdense : 64;
      while (capdense < nc + 1)
        capdense *= 2;
      dense = xrealloc(dense, capdense * sizeof *dense);
      memset(dense + old, 0, (capdense - old) * sizeof *dense);
      touched = xrealloc(touched, capdense * sizeof *touched);
    }
    size_t nt = 0;
    uint32_t chain = UINT32_MAX;
#define JOIN_ENTRY(c, x)                                                                           \
  do {                                                                                             \
    uint32_t c_ = (c), x_ = (x);                                                                   \
    if (!dense[c_])                                                                                \
      touched[nt++] = c_;                                                                          \
    if (x_ > dense[c_])                                                                            \
      dense[c_] = x_;                                                                              \
  } while (0)
    for (uint32_t e = nd->first_edge; e; e = G->e[e - 1].next) {
      const Node *p = &G->v[G->e[e - 1].from];
      const uint32_t *pv = G->pool + p->vco;
      if (p->sparse) {
        for (uint32_t i = 0; i < p->nvc; i++)
          JOIN_ENTRY(pv[2 * i], pv[2 * i + 1]);
      } else {
        for (uint32_t c = 0; c < p->nvc; c++)
          if (pv[c])
            JOIN_ENTRY(c, pv[c]);
      }
      if (chain == UINT32_MAX && G->chain_tail[p->chain] == G->e[e - 1].from && p->host == nd->host)
        chain = p->chain;
    }
    /* else the lowest chain whose last node the clock covers: only a nonzero entry can */
    if (chain == UINT32_MAX) {
      uint32_t best = UINT32_MAX;
      for (size_t i = 0; i < nt; i++) {
        uint32_t c = touched[i];
        const Node *t = &G->v[G->chain_tail[c]];
        if (c < best && t->host == nd->host && dense[c] == t->idx)
          best = c;
      }
      chain = best;
    }
    uint32_t idx;
    if (chain == UINT32_MAX) {
      PUSH(G->chain_tail, G->nchains, G->capchains, v);
      chain = nc++;
      idx = 1;
    } else {
      idx = G->v[G->chain_tail[chain]].idx + 1;
      G->chain_tail[chain] = v;
    }
    if (!dense[chain])
      touched[nt++] = chain;
    dense[chain] = idx;
#undef JOIN_ENTRY
    nd->idx = idx;
    nd->chain = chain;
    /* a clock of few entries among many chains (a wide graph) is kept as pairs, so clocks cost
       their nonzero entries, not nodes x width; else dense, one word per chain */
    nd->sparse = 2 * nt < nc;
    size_t words = nd->sparse ? 2 * nt : nc;
    if (at + words > cap) {
      cap = cap ? 2 * cap : 1024;
      while (at + words > cap)
        cap *= 2;
      G->pool = xrealloc(G->pool, cap * sizeof *G->pool);
    }
    uint32_t *vc = G->pool + at;
    if (nd->sparse) {
      qsort(touched, nt, sizeof *touched, by_u32);
      for (size_t i = 0; i < nt; i++) {
        vc[2 * i] = touched[i];
        vc[2 * i + 1] = dense[touched[i]];
      }
      nd->nvc = (uint32_t)nt;
    } else {
      memset(vc, 0, nc * sizeof *vc);
      for (size_t i = 0; i < nt; i++)
        vc[touched[i]] = dense[touched[i]];
      nd->nvc = nc;
    }
    for (size_t i = 0; i < nt; i++)
      dense[touched[i]] = 0;
    nd->vco = at;
    at += words;
  }
  free(dense);
  free(touched);
  for (size_t b = 0; b < G->nbuffers; b++) { /* in node order most often already (serial runs) */
    size_t i = 1;
    while (i < G->nbufacc[b] && G->bufacc[b][i - 1].node <= G->bufacc[b][i].node)
      i++;
    if (i < G->nbufacc[b])
      qsort(G->bufacc[b], G->nbufacc[b], sizeof *G->bufacc[b], by_node);
  }
}

static void graph_free(Graph *G) {
  for (size_t b = 0; b < G->nbuffers; b++)
    free(G->bufacc[b]);
  free(G->bufacc);
  free(G->nbufacc);
  free(G->capbufacc);
  free(G->v);
  free(G->e);
  free(G->chain_tail);
  free(G->pool);
  free(G->match);
  free(G->matchv);
}

/* Node v's clock entry for chain c. */
static uint32_t clock_at(const Graph *G, uint32_t v, uint32_t c) {
  const Node *y = &G->v[v];
  const uint32_t *vc = G->pool + y->vco;
  if (!y->sparse)
    return c < y->nvc ? vc[c] : 0;
  uint32_t lo = 0, hi = y->nvc; /* pairs by chain */
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (vc[2 * mid] < c)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < y->nvc && vc[2 * lo] == c ? vc[2 * lo + 1] : 0;
}

/* a happens before b (strictly) */
static bool before(const Graph *G, uint32_t a, uint32_t b) {
  if (a == b)
    return false;
  const Node *x = &G->v[a];
  return clock_at(G, b, x->chain) >= x->idx;
}

static const char *call_of(const char *loc) {
  const char *sp = loc ? strchr(loc, ' ') : NULL;
  return sp ? sp + 1 : "";
}

/* ---- lost ordering ------------------------------------------------------------------------- */

/* The check walks each buffer's accesses in node order (a topological order of the reference)
 * and keeps, for every range of bytes, what a later access must be ordered after: the last plain
 * write and the reads and atomics since it (a frontier, as FastTrack keeps a location's last
 * write and read set). A new access is compared with the frontier of the bytes it touches: a
 * plain write with all of it, a read with the write and the atomics, an atomic with the write
 * and the reads (two atomics do not conflict). Since the reference is race-free, every
 * conflicting pair it has is joined by a path of such compared pairs (through the plain writes
 * of its bytes), and the lowered form's order composes along the path: if it orders every
 * compared pair, it orders them all, and where it does not, a compared pair shows it. A read
 * (an atomic) that the lowered form orders before a newer one of its kind leaves the frontier:
 * what is ordered after the newer is ordered after it too, so the sets hold no two reads the
 * lowered form orders, at most its width. The ranges are a treap by offset, split where an
 * access begins and ends, so an access costs the log of the buffer's ranges plus the ranges it
 * touches, and a kernel's many separate ranges (a strided access) cost one lookup each, not a
 * walk over all the earlier ones. */

typedef struct Touch {
  uint32_t node, lnode; /* the reference's node, its match in the lowered form (UINT32_MAX: none) */
  uint64_t off, size;   /* the whole access, for the message */
  bool atomic;          /* in a frontier's set: an atomic, else a read */
} Touch;

typedef struct Seg {    /* bytes [lo, hi) of a buffer: a treap node, by lo */
  uint64_t lo, hi;
  uint32_t left, right; /* index + 1 into the pool, 0 for none */
  uint32_t prio;
  bool has_w;
  Touch w;              /* the last plain write */
  Touch *set;           /* the reads and atomics since it */
  uint32_t nset, capset;
} Seg;

typedef struct Frontier {
  Seg *s;               /* the pool; s[i - 1] is node i */
  size_t n, cap;
  uint32_t *freed;      /* nodes to reuse */
  size_t nfreed, capfreed;
  uint32_t rng;
  uint32_t *walk, *stack; /* scratch: the nodes of a range in order, an in-order walk's stack */
  size_t nwalk, capwalk, nstack, capstack;
} Frontier;

#define SEG(F, i) (&(F)->s[(i) - 1])

static uint32_t seg_new(Frontier *F, uint64_t lo, uint64_t hi) {
  uint32_t i;
  if (F->nfreed) {
    i = F->freed[--F->nfreed];
  } else {
    PUSH(F->s, F->n, F->cap, ((Seg){0}));
    i = (uint32_t)F->n;
  }
  F->rng ^= F->rng << 13;
  F->rng ^= F->rng >> 17;
  F->rng ^= F->rng << 5;
  *SEG(F, i) = (Seg){.lo = lo, .hi = hi, .prio = F->rng};
  return i;
}

static void seg_drop(Frontier *F, uint32_t i) {
  free(SEG(F, i)->set);
  SEG(F, i)->set = NULL;
  PUSH(F->freed, F->nfreed, F->capfreed, i);
}

/* A copy of node i's state for bytes [lo, hi). */
static uint32_t seg_copy(Frontier *F, uint32_t i, uint64_t lo, uint64_t hi) {
  uint32_t c = seg_new(F, lo, hi);
  Seg *s = SEG(F, i), *t = SEG(F, c);
  t->has_w = s->has_w;
  t->w = s->w;
  if (s->nset) {
    t->set = xrealloc(NULL, s->nset * sizeof *t->set);
    memcpy(t->set, s->set, s->nset * sizeof *t->set);
    t->nset = t->capset = s->nset;
  }
  return c;
}

/* t split into the nodes with lo < key (*a) and the others (*b). */
static void seg_split(Frontier *F, uint32_t t, uint64_t key, uint32_t *a, uint32_t *b) {
  uint32_t *pa = a, *pb = b;
  while (t) {
    Seg *s = SEG(F, t);
    if (s->lo < key) {
      *pa = t;
      pa = &s->right;
      t = s->right;
    } else {
      *pb = t;
      pb = &s->left;
      t = s->left;
    }
  }
  *pa = *pb = 0;
}

/* a and b joined, every lo of a below every lo of b. */
static uint32_t seg_merge(Frontier *F, uint32_t a, uint32_t b) {
  uint32_t root = 0, *p = &root;
  while (a && b) {
    if (SEG(F, a)->prio >= SEG(F, b)->prio) {
      *p = a;
      p = &SEG(F, a)->right;
      a = SEG(F, a)->right;
    } else {
      *p = b;
      p = &SEG(F, b)->left;
      b = SEG(F, b)->left;
    }
  }
  *p = a ? a : b;
  return root;
}

/* The node of t with the highest lo, or 0. */
static uint32_t seg_last(Frontier *F, uint32_t t) {
  while (t && SEG(F, t)->right)
    t = SEG(F, t)->right;
  return t;
}

/* F->walk = t's nodes in order. */
static void seg_walk(Frontier *F, uint32_t t) {
  F->nwalk = F->nstack = 0;
  while (t || F->nstack) {
    while (t) {
      PUSH(F->stack, F->nstack, F->capstack, t);
      t = SEG(F, t)->left;
    }
    t = F->stack[--F->nstack];
    PUSH(F->walk, F->nwalk, F->capwalk, t);
    t = SEG(F, t)->right;
  }
}

/* y joins set s (reads with reads, atomics with atomics), less those the lowered form orders
 * before it; it stays out if the lowered form orders it before one of them. */
static void set_add(Graph *L, Seg *s, const Touch *y) {
  if (y->lnode == UINT32_MAX)
    return; /* no pair with it is compared */
  uint32_t j = 0;
  bool keep = true;
  for (uint32_t i = 0; i < s->nset; i++) {
    Touch *x = &s->set[i];
    if (x->atomic == y->atomic && keep && (x->lnode == y->lnode || before(L, y->lnode, x->lnode)))
      keep = false;
    if (x->atomic == y->atomic && before(L, x->lnode, y->lnode))
      continue;
    s->set[j++] = *x;
  }
  s->nset = j;
  if (keep) {
    if (s->nset == s->capset) {
      s->capset = s->capset ? 2 * s->capset : 2;
      s->set = xrealloc(s->set, s->capset * sizeof *s->set);
    }
    s->set[s->nset++] = *y;
  }
}

/* The reference orders x before y, two conflicting accesses of one buffer: does the lowering? */
static void order_pair(Checker *C, Graph *H, Graph *L, const Touch *x, const Touch *y) {
  if (x->node == y->node || !before(H, x->node, y->node))
    return; /* one op; or a race of the reference, reported as such */
  uint32_t lx = x->lnode, ly = y->lnode;
  if (lx == UINT32_MAX || ly == UINT32_MAX || before(L, lx, ly))
    return;
  if (C->oracle)
    PUSH(C->order_found, C->norder_found, C->caporder_found, ((uint64_t)x->node << 32 | y->node));
  const Node *hx = &H->v[x->node], *hy = &H->v[y->node];
  if (!diff_once(C, 10, hx->site, hy->site))
    return;
  char na[128], nb[128], where[1100];
  diff_once(C, 8, hx->site, hy->site); /* the lowered form's race on them says the same */
  diff_once(C, 8, hy->site, hx->site);
  diff_report(C, DIAG_ERROR, hy->site,
              "the lowering lost the ordering of %s at %s and %s here: the program orders them (both touch bytes [%" PRIu64 ", %" PRIu64 ") of one buffer), the lowered program does not",
         diff_op_name(C, hx->site, na, sizeof na), diff_site_text(C, hx->site, where, sizeof where),
         diff_op_name(C, hy->site, nb, sizeof nb),
         x->off > y->off ? x->off : y->off,
         x->off + x->size < y->off + y->size ? x->off + x->size : y->off + y->size);
  diff_report(C, DIAG_NOTE, hx->site, "%s is here", na);
  const Node *a = &L->v[lx], *bb = &L->v[ly];
  if (before(L, ly, lx))
    ir_diag(C->hi.ctx, DIAG_NOTE, NULL, "the lowered program runs them in the opposite order");
  else if (a->stream && bb->stream && a->stream != bb->stream)
    ir_diag(C->hi.ctx, DIAG_NOTE, NULL,
            "in the lowered program %s runs on stream %" PRIu64 " and %s on stream %" PRIu64
            ", with no mgpuStreamWaitEvent between them",
            a->call[0] ? a->call : na, a->stream, bb->call[0] ? bb->call : nb, bb->stream);
  else
    ir_diag(C->hi.ctx, DIAG_NOTE, NULL, "in the lowered program nothing orders %s and %s",
            a->call[0] ? a->call : na, bb->call[0] ? bb->call : nb);
  diff_witness(C, "serial");
}

/* Access y (of node y->node, in node order) against the frontier of its bytes, which it then
 * joins; returns the new root. */
static uint32_t frontier_access(Checker *C, Graph *H, Graph *L, Frontier *F, uint32_t root,
                                const Touch *y, bool write) {
  uint64_t lo = y->off, hi = y->off + y->size;
  uint32_t a, m, c;
  seg_split(F, root, lo, &a, &m);
  uint32_t t = seg_last(F, a);
  if (t && SEG(F, t)->hi > lo) { /* a range across lo: its part from lo on goes to m */
    uint32_t u = seg_copy(F, t, lo, SEG(F, t)->hi);
    SEG(F, t)->hi = lo;
    m = seg_merge(F, u, m);
  }
  seg_split(F, m, hi, &m, &c);
  t = seg_last(F, m);
  if (t && SEG(F, t)->hi > hi) {
    uint32_t u = seg_copy(F, t, hi, SEG(F, t)->hi);
    SEG(F, t)->hi = hi;
    c = seg_merge(F, u, c);
  }
  seg_walk(F, m);
  bool plain = write && !y->atomic;
  for (size_t k = 0; k < F->nwalk; k++) {
    Seg *s = SEG(F, F->walk[k]);
    if (s->has_w)
      order_pair(C, H, L, &s->w, y);
    for (uint32_t i = 0; i < s->nset; i++)
      if (plain || s->set[i].atomic != y->atomic)
        order_pair(C, H, L, &s->set[i], y);
  }
  if (plain) { /* y is all that later accesses of these bytes must follow */
    for (size_t k = 0; k < F->nwalk; k++)
      seg_drop(F, F->walk[k]);
    m = seg_new(F, lo, hi);
    SEG(F, m)->has_w = true;
    SEG(F, m)->w = *y;
  } else { /* y joins every range's set, and bytes no one touched yet get a range */
    Touch ty = *y;
    ty.atomic = write;
    m = 0;
    uint64_t at = lo;
    for (size_t k = 0; k <= F->nwalk; k++) {
      uint32_t i = k < F->nwalk ? F->walk[k] : 0;
      uint64_t next = i ? SEG(F, i)->lo : hi;
      if (next > at) {
        uint32_t g = seg_new(F, at, next);
        set_add(L, SEG(F, g), &ty);
        SEG(F, g)->left = SEG(F, g)->right = 0;
        m = seg_merge(F, m, g);
      }
      if (!i)
        break;
      set_add(L, SEG(F, i), &ty);
      at = SEG(F, i)->hi;
      SEG(F, i)->left = SEG(F, i)->right = 0;
      m = seg_merge(F, m, i);
    }
  }
  return seg_merge(F, seg_merge(F, a, m), c);
}

static void lost_ordering(Checker *C, Graph *H, Graph *L) {
  Frontier F = {.rng = 2463534242u};
  for (size_t b = 0; b < H->nbuffers; b++) {
    uint32_t root = 0;
    for (size_t j = 0; j < H->nbufacc[b]; j++) {
      const Acc *x = &H->bufacc[b][j];
      const Node *hx = &H->v[x->node];
      Touch y = {x->node, match_get(L, hx->site, hx->occ), x->off, x->size, x->atomic};
      root = frontier_access(C, H, L, &F, root, &y, x->write);
    }
    for (size_t i = 1; i <= F.n; i++)
      free(SEG(&F, i)->set);
    F.n = F.nfreed = 0;
  }
  free(F.s);
  free(F.freed);
  free(F.walk);
  free(F.stack);
}

/* GPUINTERP_DIFF_ORACLE: every node's clock, sparse or dense, against a dense one built again
 * from the chains the nodes were given (the join of the predecessors' clocks, the node's own
 * entry on its chain), entry by entry; so the compact clocks answer as the nodes x width ones
 * did. Skipped (with a note under =stats) past 2^26 entries. */
static void clocks_oracle(const Checker *C, const Graph *G, const char *form) {
  size_t nc = G->nchains;
  if (!G->n || (uint64_t)G->n * nc > ((uint64_t)1 << 26)) {
    if (C->oracle_stats && G->n)
      fprintf(stderr, "gpuinterp: diff oracle: the %s form's clocks are not checked (%zu nodes x %zu chains)\n",
              form, G->n, nc);
    return;
  }
  uint32_t *full = xrealloc(NULL, G->n * nc * sizeof *full);
  memset(full, 0, G->n * nc * sizeof *full);
  size_t sparse = 0;
  for (uint32_t v = 0; v < G->n; v++) {
    uint32_t *vc = full + (size_t)v * nc;
    for (uint32_t e = G->v[v].first_edge; e; e = G->e[e - 1].next) {
      const uint32_t *pv = full + (size_t)G->e[e - 1].from * nc;
      for (size_t c = 0; c < nc; c++)
        if (pv[c] > vc[c])
          vc[c] = pv[c];
    }
    vc[G->v[v].chain] = G->v[v].idx;
    sparse += G->v[v].sparse;
    for (uint32_t c = 0; c < nc; c++)
      if (clock_at(G, v, c) != vc[c]) {
        fprintf(stderr, "gpuinterp: diff oracle: the %s form's node %u has %u for chain %u in its %s clock, "
                "the dense reference %u\n", form, v, clock_at(G, v, c), c, G->v[v].sparse ? "sparse" : "dense",
                vc[c]);
        abort();
      }
  }
  free(full);
  if (C->oracle_stats)
    fprintf(stderr, "gpuinterp: diff oracle: the %s form's clocks agree (%zu nodes, %zu chains, %zu sparse)\n",
            form, G->n, nc, sparse);
}

/* GPUINTERP_DIFF_ORACLE=1: every pair of conflicting accesses compared, the textbook check
 * lost_ordering is pruned from; O(accesses^2), for tests. The verdicts must agree: lost_ordering
 * found a pair iff there is one, and every pair it found is one. */
static void lost_ordering_oracle(Checker *C, Graph *H, Graph *L) {
  size_t lost = 0;
  uint64_t first = 0;
  for (size_t b = 0; b < H->nbuffers; b++) {
    const Acc *acc = H->bufacc[b];
    for (size_t j = 0; j < H->nbufacc[b]; j++)
      for (size_t i = 0; i < j; i++) {
        const Acc *x = &acc[i], *y = &acc[j];
        if (x->node == y->node || !(x->off < y->off + y->size && y->off < x->off + x->size) ||
            (!x->write && !y->write) || (x->atomic && y->atomic) || !before(H, x->node, y->node))
          continue;
        const Node *hx = &H->v[x->node], *hy = &H->v[y->node];
        uint32_t lx = match_get(L, hx->site, hx->occ), ly = match_get(L, hy->site, hy->occ);
        if (lx != UINT32_MAX && ly != UINT32_MAX && !before(L, lx, ly) && !lost++)
          first = (uint64_t)x->node << 32 | y->node;
      }
  }
  for (size_t k = 0; k < C->norder_found; k++) {
    uint32_t x = (uint32_t)(C->order_found[k] >> 32), y = (uint32_t)C->order_found[k];
    if (!before(H, x, y) || before(L, match_get(L, H->v[x].site, H->v[x].occ),
                                   match_get(L, H->v[y].site, H->v[y].occ))) {
      fprintf(stderr, "gpuinterp: diff oracle: the ordering check reports nodes %u and %u, which are no lost ordering\n", x, y);
      abort();
    }
  }
  if (!lost != !C->norder_found) {
    fprintf(stderr, "gpuinterp: diff oracle: the ordering check found %zu lost orderings, the reference %zu "
            "(first: nodes %u and %u)\n", C->norder_found, lost, (uint32_t)(first >> 32), (uint32_t)first);
    abort();
  }
  if (C->oracle_stats)
    fprintf(stderr, "gpuinterp: diff oracle: %zu lost orderings, %zu found by the ordering check, the verdicts agree\n",
            lost, C->norder_found);
}

static void lost_concurrency_pair(Checker *C, const Node *u, const Node *v, const char *why) {
  if (!diff_once(C, 11, u->site, v->site))
    return;
  char na[128], nb[128], where[1100];
  diff_report(C, C->o->strict ? DIAG_ERROR : DIAG_WARNING, v->site,
              "lost concurrency: the program lets %s at %s and %s here run concurrently, the lowering orders them: %s",
              diff_op_name(C, u->site, na, sizeof na), diff_site_text(C, u->site, where, sizeof where),
              diff_op_name(C, v->site, nb, sizeof nb),
              why);
  diff_report(C, DIAG_NOTE, u->site, "%s is here", na);
}

static void lost_concurrency(Checker *C, Graph *H, Graph *L) {
  char why[600];
  for (uint32_t v = 0; v < L->n; v++) {
    const Node *lv = &L->v[v];
    if (!lv->device)
      continue;
    uint32_t hv = match_get(H, lv->site, lv->occ);
    if (hv == UINT32_MAX)
      continue;
    for (uint32_t e = lv->first_edge; e; e = L->e[e - 1].next) {
      const Edge *ed = &L->e[e - 1];
      const Node *lu = &L->v[ed->from];
      if (!lu->device)
        continue;
      uint32_t hu = match_get(H, lu->site, lu->occ);
      if (hu == UINT32_MAX || before(H, hu, hv))
        continue;
      if (ed->kind == TRACE_EDGE_STREAM)
        snprintf(why, sizeof why, "it put both on stream %" PRIu64, lv->stream);
      else if (ed->kind == TRACE_EDGE_EVENT)
        snprintf(why, sizeof why, "an mgpuStreamWaitEvent makes %s wait for %s",
                 lv->call[0] ? lv->call : "the second", lu->call[0] ? lu->call : "the first");
      else
        snprintf(why, sizeof why, "a dependency orders them");
      lost_concurrency_pair(C, lu, lv, why);
    }
  }
  /* synchronizations: the host, and so all it submits next, waits for the op. From each, the
   * ops after it are walked until one the program does not order after the op (the pair to
   * report) or one that the program's host submitted after waiting for the op itself (all that
   * follows is ordered too). The walks go from the last synchronization to the first, and each
   * leaves, per chain of the program's op, the span of ops it crossed: all of them ordered after
   * its op in the program, so after any op earlier on that chain, which a later walk (an earlier
   * synchronization) for such an op steps over at once, knowing from the span's largest host
   * clock entry whether a host wait lay inside. A chain of ops each synchronized on (the walks
   * nested) so costs each op once, not once per synchronization before it. */
  typedef struct Span {
    uint32_t from, to; /* L's nodes [from, to), each ordered after chain's op idx in H */
    uint32_t idx;      /* 0: none */
    uint32_t host;     /* the largest entry for the chain of their hosts' clocks (and to's, if a
                          host wait stopped the walk there) */
  } Span;
  Span *span = xrealloc(NULL, (H->nchains + 1) * sizeof *span);
  memset(span, 0, (H->nchains + 1) * sizeof *span);
  uint32_t *found = xrealloc(NULL, (L->ne + 1) * sizeof *found);
  for (size_t e = 0; e < L->ne; e++)
    found[e] = UINT32_MAX;
  for (uint32_t h = (uint32_t)L->n; h-- > 0;) {
    const Node *lh = &L->v[h];
    if (!lh->host)
      continue;
    for (uint32_t e = lh->first_edge; e; e = L->e[e - 1].next) {
      const Node *lu = &L->v[L->e[e - 1].from];
      if (!lu->device)
        continue;
      uint32_t hu = match_get(H, lu->site, lu->occ);
      if (hu == UINT32_MAX)
        continue;
      uint32_t c = H->v[hu].chain, t = H->v[hu].idx, hostmax = 0, w = h + 1;
      Span *sp = &span[c];
      for (; w < L->n; w++) {
        if (sp->idx >= t && w == sp->from) { /* all of it ordered after hu too */
          if (sp->host > hostmax)
            hostmax = sp->host;
          if (hostmax >= t)
            break;
          if (sp->to > w) {
            w = sp->to - 1;
            continue;
          }
        }
        const Node *lw = &L->v[w];
        if (!lw->device)
          continue;
        uint32_t hw = match_get(H, lw->site, lw->occ);
        if (hw == UINT32_MAX)
          continue;
        uint32_t hh = clock_at(H, H->v[hw].host_at, c);
        if (hh > hostmax)
          hostmax = hh;
        if (hh >= t)
          break; /* the program's host waited for it too: all that follows is ordered */
        if (clock_at(H, hw, c) < t) {
          found[e - 1] = w;
          break;
        }
      }
      *sp = (Span){h + 1, w, t, hostmax};
    }
  }
  for (uint32_t h = 0; h < L->n; h++) {
    const Node *lh = &L->v[h];
    if (!lh->host)
      continue;
    for (uint32_t e = lh->first_edge; e; e = L->e[e - 1].next) {
      if (found[e - 1] == UINT32_MAX)
        continue;
      const char *cl = call_of(lh->call);
      snprintf(why, sizeof why, "the host waits for the first%s%s before it submits the second",
               cl[0] ? " in " : "", cl);
      lost_concurrency_pair(C, &L->v[L->e[e - 1].from], &L->v[found[e - 1]], why);
    }
  }
  free(span);
  free(found);
}

void diff_check_order(Checker *C, Run *h, Run *l) {
  Graph H, L;
  graph_build(&H, h->rec, &C->sites);
  graph_build(&L, l->rec, &C->sites);
  lost_ordering(C, &H, &L);
  if (C->oracle) {
    clocks_oracle(C, &H, "reference");
    clocks_oracle(C, &L, "lowered");
    lost_ordering_oracle(C, &H, &L);
  }
  lost_concurrency(C, &H, &L);
  graph_free(&H);
  graph_free(&L);
}
