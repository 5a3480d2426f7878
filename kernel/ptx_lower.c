/* ptx_lower.c - compiling one PTX instruction into a KIns and its PIns (kernel_ptx.c drives it):
 * operands, destinations and modifiers, then each family's checks of types, modifiers and
 * operands (arithmetic, halves, the carry chain, bits, moves, setp/selp, cvt with fp8, cvta,
 * ld/st/atom, bar, warp-level instructions, fences) choosing the KFn of ptx_ins.c, ptx_mem.c or
 * ptx_async.c that runs it. An instruction or modifier the engine does not run is a compile error
 * at its place, naming it. */
/* Lane loops are the interpreter's inner loops: let gcc vectorize them (as kernel_llvm.c does). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include "kernel/ptx_internal.h"

/* A source or destination operand; width: the bits the instruction reads (for immediates). */
bool ptx_operand(PComp *pc, const PtxOperand *o, POpd *out) {
  memset(out, 0, sizeof *out);
  switch (o->kind) {
  case PTX_OPD_REG: {
    const PtxRegDecl *d = o->decl;
    if (d->vec || o->comp) { /* a component of a vector register: a column of its own */
      if (!d->vec)
        return ptx_perr(pc, o->line, o->col, "'%s' is not a vector register", d->name);
      if (!o->comp)
        return ptx_perr(pc, o->line, o->col,
                        "a whole vector register as this operand is not supported by the PTX "
                        "kernel engine yet");
      if (o->comp > d->vec)
        return ptx_perr(pc, o->line, o->col, "component %u of a %u-element vector register does not exist",
                        (unsigned)o->comp, (unsigned)d->vec);
      out->kind = O_REG;
      out->word = pc->vecword[o->n] + o->comp - 1;
      out->width = (uint8_t)ptx_type_bits((PtxType)d->type);
      out->neg = o->neg;
      return true;
    }
    out->kind = O_REG;
    out->word = pc->reg0 + o->n;
    out->width = (uint8_t)(d->type == PTX_T_PRED ? 1 : ptx_type_bits((PtxType)d->type));
    out->neg = o->neg;
    if (!out->width || out->width > 64)
      return ptx_perr(pc, o->line, o->col, "registers of type .%s are not supported by the PTX kernel engine yet",
                      ptx_type_name((PtxType)d->type));
    return true;
  }
  case PTX_OPD_INT:
  case PTX_OPD_F64:
    out->kind = O_IMM;
    out->imm = (uint64_t)o->ival;
    return true;
  case PTX_OPD_F32:
    out->kind = O_IMM;
    out->imm = (uint64_t)o->ival & 0xffffffffu;
    return true;
  case PTX_OPD_SREG: {
    static const uint8_t ok[] = {PTX_SREG_TID,         PTX_SREG_NTID,        PTX_SREG_CTAID,       PTX_SREG_NCTAID,
                                 PTX_SREG_LANEID,      PTX_SREG_WARPID,      PTX_SREG_NWARPID,     PTX_SREG_LANEMASK_EQ,
                                 PTX_SREG_LANEMASK_LE, PTX_SREG_LANEMASK_LT, PTX_SREG_LANEMASK_GE, PTX_SREG_LANEMASK_GT,
                                 PTX_SREG_DYNAMIC_SMEM_SIZE, PTX_SREG_CLOCK, PTX_SREG_CLOCK_HI, PTX_SREG_CLOCK64,
                                 PTX_SREG_GLOBALTIMER, PTX_SREG_GLOBALTIMER_LO, PTX_SREG_GLOBALTIMER_HI,
                                 PTX_SREG_SMID, PTX_SREG_NSMID, PTX_SREG_GRIDID, PTX_SREG_TOTAL_SMEM_SIZE,
                                 PTX_SREG_AGGR_SMEM_SIZE, PTX_SREG_CLUSTERID, PTX_SREG_NCLUSTERID,
                                 PTX_SREG_CLUSTER_CTAID, PTX_SREG_CLUSTER_NCTAID, PTX_SREG_CLUSTER_CTARANK,
                                 PTX_SREG_CLUSTER_NCTARANK, PTX_SREG_IS_EXPLICIT_CLUSTER};
    bool known = false;
    for (size_t i = 0; i < sizeof ok; i++)
      known |= o->sreg == ok[i];
    if (!known)
      return ptx_perr(pc, o->line, o->col, "special register %s is not supported by the PTX kernel engine yet",
                      ptx_sreg_name((PtxSreg)o->sreg));
    out->kind = O_SREG;
    out->sreg = o->sreg;
    out->comp = o->comp ? (uint8_t)(o->comp - 1) : 0;
    if (out->comp > 2)
      return ptx_perr(pc, o->line, o->col, "component .w of %s does not exist", ptx_sreg_name((PtxSreg)o->sreg));
    return true;
  }
  case PTX_OPD_SYM: {
    size_t off;
    if (ptx_shared_var(pc, o->name, &off) || local_var(pc, o->name, &off)) {
      out->kind = O_IMM;
      out->imm = off;
      return true;
    }
    char *g = ptx_global_var(pc, o->name);
    if (g) { /* a device pointer */
      out->kind = O_IMM;
      out->imm = (uint64_t)(uintptr_t)g;
      return true;
    }
    if (ptx_func_addr(pc->m, o->name, &out->imm)) { /* a function's, for indirect calls */
      out->kind = O_IMM;
      return true;
    }
    return ptx_perr(pc, o->line, o->col,
                    "the address of '%s' is not supported by the PTX kernel engine yet (only .shared, "
                    ".local, .global and .const variables and functions)",
                    o->name);
  }
  default:
    return ptx_perr(pc, o->line, o->col, "this operand is not supported by the PTX kernel engine yet");
  }
}

/* The destination of setp and shfl: one register, or the pair a|b. */
static bool dest_operands(PComp *pc, const PtxOperand *d, PIns *p) {
  if (d->kind != PTX_OPD_PAIR) {
    p->nd = 1;
    return reg_operand(pc, d, &p->d[0]);
  }
  p->nd = 2;
  return reg_operand(pc, &d->elems[0], &p->d[0]) && reg_operand(pc, &d->elems[1], &p->d[1]);
}

/* The modifiers of the instruction: its types in p->t, p->t2; each other modifier must be one of
 * `allowed` (a NULL-terminated list; "*" after a name accepts anything starting with it), or it is
 * reported. The names found are flagged in `found` (by position in allowed). */
bool ptx_mods(PComp *pc, PIns *p, const char *const *allowed, bool *found) {
  const PtxInsn *in = pc->insn;
  unsigned nt = 0;
  for (uint32_t i = 0; i < in->nmods; i++) {
    const PtxMod *m = &in->mods[i];
    if (m->kind == PTX_MOD_TYPE) {
      if (nt == 0)
        p->t = m->value;
      else if (nt == 1)
        p->t2 = m->value;
      else
        return bad_mod(pc, m);
      nt++;
      continue;
    }
    if (m->kind == PTX_MOD_SPACE) {
      p->space = m->value;
      continue;
    }
    bool ok = false;
    for (uint32_t j = 0; allowed && allowed[j] && !ok; j++) {
      if (!strcmp(allowed[j], "v*"))
        continue; /* the vector widths: by kind, below */
      size_t n = strlen(allowed[j]);
      if (n && allowed[j][n - 1] == '*' ? !strncmp(m->name, allowed[j], n - 1) : !strcmp(m->name, allowed[j])) {
        ok = true;
        if (found)
          found[j] = true;
      }
    }
    if (!ok && m->kind == PTX_MOD_VEC && allowed && allowed[0] && !strcmp(allowed[0], "v*"))
      ok = true;
    if (!ok)
      return bad_mod(pc, m);
  }
  return true;
}

/* Destination and sources of a plain `op.t d, a, b, ...` */
bool ptx_plain(PComp *pc, PIns *p, uint32_t nsrc) {
  const PtxInsn *in = pc->insn;
  if (!need_opds(pc, nsrc + 1, nsrc + 1) || !reg_operand(pc, &in->opds[0], &p->d[0]))
    return false;
  p->nd = 1;
  p->ns = (uint8_t)nsrc;
  for (uint32_t i = 0; i < nsrc; i++)
    if (!ptx_operand(pc, &in->opds[1 + i], &p->s[i]))
      return false;
  return true;
}

static const char *const float_mods[] = {"rn", "ftz", "sat", "approx", "full", "rz", "rm", "rp", "NaN", NULL};

/* add sub mul fma neg abs min max ex2 tanh of .f16, .f16x2, .bf16, .bf16x2: ptx_x_half */
static bool c_half(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"rn", "ftz", "sat", "relu", "NaN", "approx", NULL};
  bool found[6] = {0};
  if (!ptx_mods(pc, p, allowed, found))
    return false;
  bool bf = half_fmt(p->t) == KFP_BF16;
  unsigned nsrc = 2;
  int mode = -1;
  switch (in->op) {
  case PTX_OP_ADD: mode = H_ADD; break;
  case PTX_OP_SUB: mode = H_SUB; break;
  case PTX_OP_MUL: mode = H_MUL; break;
  case PTX_OP_FMA: mode = H_FMA, nsrc = 3; break;
  case PTX_OP_NEG: mode = H_NEG, nsrc = 1; break;
  case PTX_OP_ABS: mode = H_ABS, nsrc = 1; break;
  case PTX_OP_MIN: mode = H_MIN; break;
  case PTX_OP_MAX: mode = H_MAX; break;
  case PTX_OP_EX2: mode = H_EX2, nsrc = 1; break;
  case PTX_OP_TANH: mode = H_TANH, nsrc = 1; break;
  default: break;
  }
  if (mode < 0)
    return ptx_unsupported(pc, "this f16/bf16 form");
  bool arith = mode <= H_FMA, approx = mode == H_EX2 || mode == H_TANH;
  if (found[0] && !arith)
    return ptx_unsupported(pc, ".rn of this instruction");
  if (mode == H_FMA && !found[0])
    return ptx_unsupported(pc, "an fma without .rn");
  if (found[1] && (bf ? mode != H_EX2 : mode == H_TANH))
    return ptx_unsupported(pc, ".ftz of this instruction");
  if (found[2] && (bf || !arith))
    return ptx_unsupported(pc, ".sat of this instruction");
  if (found[3] && (mode != H_FMA || found[2]))
    return ptx_unsupported(pc, ".relu of this instruction");
  if (found[4] && mode != H_MIN && mode != H_MAX)
    return ptx_unsupported(pc, ".NaN of this instruction");
  if (found[5] != approx)
    return ptx_unsupported(pc, approx ? "this instruction without .approx" : ".approx of this instruction");
  p->mode = (uint8_t)mode;
  p->fmt = (uint8_t)half_fmt(p->t);
  p->ftz = found[1];
  p->sat = found[2];
  p->relu = found[3];
  p->nan = found[4];
  if (!ptx_plain(pc, p, nsrc))
    return false;
  k->fn = ptx_x_half;
  return true;
}

/* The carry column: one word per thread, made for the first instruction that uses it. */
static POpd carry_flag(PComp *pc) {
  if (!pc->cc_word)
    pc->cc_word = kernel_new_varying(&pc->kc, 1) + 1;
  return (POpd){.kind = O_REG, .width = 1, .word = pc->cc_word - 1};
}

/* add.cc addc sub.cc subc mad.cc madc: ptx_x_carry */
static bool c_carry(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"cc", "lo", "hi", NULL};
  bool found[3] = {0};
  if (!ptx_mods(pc, p, allowed, found))
    return false;
  bool mad = in->op == PTX_OP_MAD || in->op == PTX_OP_MADC;
  bool cin = in->op == PTX_OP_ADDC || in->op == PTX_OP_SUBC || in->op == PTX_OP_MADC;
  unsigned t = p->t;
  if (t != PTX_T_U32 && t != PTX_T_S32 && t != PTX_T_U64 && t != PTX_T_S64 && t != PTX_T_B32 && t != PTX_T_B64)
    return ptx_unsupported(pc, t ? "this type" : "an instruction without a type");
  if (mad ? found[1] == found[2] : found[1] || found[2])
    return ptx_unsupported(pc, mad ? "a mad.cc or madc without one of .lo, .hi" : NULL);
  p->mode = (uint8_t)(mad ? (found[2] ? K_MAD_HI : K_MAD_LO)
                          : in->op == PTX_OP_SUB || in->op == PTX_OP_SUBC ? K_SUB : K_ADD);
  p->combine = (uint8_t)(cin | (found[0] ? 2 : 0));
  if (!ptx_plain(pc, p, mad ? 3 : 2))
    return false;
  p->d[1] = p->s[3] = carry_flag(pc);
  k->fn = ptx_x_carry;
  return true;
}

/* add sub mul mad fma div rem min max neg abs and or xor not shl shr popc clz brev cnot and the
 * float math: int_op / f32_op / f64_op by type */
static bool c_arith(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const int_mods[] = {"lo", "hi", "wide", "sat", "cc", NULL};
  bool found[10] = {0};
  PtxType t = ptx_insn_type(in, 0);
  bool fl = is_float(t);
  if (is_half(t))
    return c_half(pc, k, p);
  if (ptx_insn_has_mod(in, "cc") && !fl && (in->op == PTX_OP_ADD || in->op == PTX_OP_SUB || in->op == PTX_OP_MAD))
    return c_carry(pc, k, p);
  if (!ptx_mods(pc, p, fl ? float_mods : int_mods, found))
    return false;
  if (!fl && (t == PTX_T_PRED) && in->op != PTX_OP_AND && in->op != PTX_OP_OR && in->op != PTX_OP_XOR &&
      in->op != PTX_OP_NOT)
    return ptx_unsupported(pc, NULL);
  if (!fl && !is_int(t) && t != PTX_T_PRED)
    return ptx_unsupported(pc, t ? "this type" : "an instruction without a type");
  if (!fl && found[4])
    return ptx_unsupported(pc, "the carry flag (.cc)");
  p->ftz = fl && found[1];
  p->sat = found[fl ? 2 : 3];
  if (p->sat && !fl && t != PTX_T_S32)
    return ptx_unsupported(pc, ".sat of other than .s32");
  unsigned nsrc = 2;
  int mode = -1;
  switch (in->op) {
  case PTX_OP_ADD: mode = fl ? F_ADD : I_ADD; break;
  case PTX_OP_SUB: mode = fl ? F_SUB : I_SUB; break;
  case PTX_OP_MUL: mode = fl ? F_MUL : found[1] ? I_MUL_HI : found[2] ? I_MUL_WIDE : found[0] ? I_MUL_LO : -1; break;
  case PTX_OP_MAD:
  case PTX_OP_FMA:
    nsrc = 3;
    mode = fl ? F_FMA : found[1] ? I_MAD_HI : found[2] ? I_MAD_WIDE : found[0] ? I_MAD_LO : -1;
    if (in->op == PTX_OP_FMA && !fl)
      mode = -1;
    break;
  case PTX_OP_DIV: mode = fl ? F_DIV : I_DIV; break;
  case PTX_OP_REM: mode = fl ? -1 : I_REM; break;
  case PTX_OP_MIN: mode = fl ? F_MIN : I_MIN; break;
  case PTX_OP_MAX: mode = fl ? F_MAX : I_MAX; break;
  case PTX_OP_NEG: nsrc = 1, mode = fl ? F_NEG : I_NEG; break;
  case PTX_OP_ABS: nsrc = 1, mode = fl ? F_ABS : I_ABS; break;
  case PTX_OP_AND: mode = fl ? -1 : I_AND; break;
  case PTX_OP_OR: mode = fl ? -1 : I_OR; break;
  case PTX_OP_XOR: mode = fl ? -1 : I_XOR; break;
  case PTX_OP_NOT: nsrc = 1, mode = fl ? -1 : I_NOT; break;
  case PTX_OP_CNOT: nsrc = 1, mode = fl ? -1 : I_CNOT; break;
  case PTX_OP_SHL: mode = fl ? -1 : I_SHL; break;
  case PTX_OP_SHR: mode = fl ? -1 : I_SHR; break;
  case PTX_OP_POPC: nsrc = 1, mode = fl ? -1 : I_POPC; break;
  case PTX_OP_CLZ: nsrc = 1, mode = fl ? -1 : I_CLZ; break;
  case PTX_OP_BREV: nsrc = 1, mode = fl ? -1 : I_BREV; break;
  case PTX_OP_SQRT: nsrc = 1, mode = fl ? F_SQRT : -1; break;
  case PTX_OP_RCP: nsrc = 1, mode = fl ? F_RCP : -1; break;
  case PTX_OP_RSQRT: nsrc = 1, mode = fl ? F_RSQRT : -1; break;
  case PTX_OP_EX2: nsrc = 1, mode = fl ? F_EX2 : -1; break;
  case PTX_OP_LG2: nsrc = 1, mode = fl ? F_LG2 : -1; break;
  case PTX_OP_SIN: nsrc = 1, mode = fl ? F_SIN : -1; break;
  case PTX_OP_COS: nsrc = 1, mode = fl ? F_COS : -1; break;
  case PTX_OP_TANH: nsrc = 1, mode = t == PTX_T_F32 && found[3] ? F_TANH : -1; break;
  default: break;
  }
  if (mode < 0)
    return ptx_unsupported(pc, fl ? "this float form" : "this integer form");
  if (fl) { /* .rz .rm .rp: IEEE arithmetic rounded so (kernel_fp.c); .NaN: min and max */
    int r = found[5] ? KFP_RZ : found[6] ? KFP_RM : found[7] ? KFP_RP : -1;
    bool ieee = mode == F_ADD || mode == F_SUB || mode == F_MUL || mode == F_FMA || mode == F_DIV || mode == F_SQRT ||
                mode == F_RCP;
    if (found[0] + found[5] + found[6] + found[7] > 1)
      return ptx_unsupported(pc, "more than one rounding");
    if (r >= 0 && (!ieee || found[3]))
      return ptx_unsupported(pc, "this rounding of this instruction");
    if (found[8] && mode != F_MIN && mode != F_MAX)
      return ptx_unsupported(pc, ".NaN of this instruction");
    p->rnd = (uint8_t)(r + 1);
    p->nan = found[8];
  }
  if (!fl && (in->op == PTX_OP_MUL || in->op == PTX_OP_MAD) && (found[0] + found[1] + found[2]) != 1)
    return ptx_unsupported(pc, NULL);
  if (!fl && (mode == I_MUL_WIDE || mode == I_MAD_WIDE) && ptx_type_bits(t) > 32)
    return ptx_unsupported(pc, ".wide of 64-bit operands");
  if (!fl && (found[0] || found[1] || found[2]) && in->op != PTX_OP_MUL && in->op != PTX_OP_MAD)
    return ptx_unsupported(pc, NULL);
  p->mode = (uint8_t)mode;
  if (!ptx_plain(pc, p, nsrc))
    return false;
  k->fn = fl ? (t == PTX_T_F32 ? ptx_x_f32 : ptx_x_f64) : ptx_x_int;
  return true;
}

/* lop3 shf prmt bfe bfi mul24 mad24 sad slct copysign testp bfind: bit_op */
static bool c_bits(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const shf_mods[] = {"l", "r", "wrap", "clamp", NULL};
  static const char *const lohi[] = {"lo", "hi", NULL};
  static const char *const lohi_sat[] = {"lo", "hi", "sat", NULL};
  static const char *const andor[] = {"and", "or", NULL};
  static const char *const ftz[] = {"ftz", NULL};
  static const char *const shiftamt[] = {"shiftamt", NULL};
  static const char *const prmt_mods[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16", NULL};
  static const char *const testp_mods[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal", NULL};
  bool found[8] = {0};
  const char *const *allowed = NULL;
  switch ((PtxOpcode)in->op) {
  case PTX_OP_SHF: allowed = shf_mods; break;
  case PTX_OP_PRMT: allowed = prmt_mods; break;
  case PTX_OP_MUL24: allowed = lohi; break;
  case PTX_OP_MAD24: allowed = lohi_sat; break;
  case PTX_OP_DP2A: allowed = lohi; break;
  case PTX_OP_LOP3: allowed = andor; break;
  case PTX_OP_SLCT: allowed = ftz; break;
  case PTX_OP_TESTP: allowed = testp_mods; break;
  case PTX_OP_BFIND: allowed = shiftamt; break;
  default: break;
  }
  if (!ptx_mods(pc, p, allowed, found))
    return false;
  int named = -1; /* prmt's mode, testp's test: at most one */
  for (int i = 0; allowed && (allowed == prmt_mods || allowed == testp_mods) && allowed[i]; i++)
    if (found[i]) {
      if (named >= 0)
        return ptx_unsupported(pc, "more than one mode");
      named = i;
    }
  unsigned t = p->t, w = ptx_type_bits((PtxType)t);
  bool i32 = t == PTX_T_U32 || t == PTX_T_S32, ints = t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_U64 ||
                                                        t == PTX_T_S64;
  unsigned nsrc = 3;
  const char *bad = NULL;
  switch ((PtxOpcode)in->op) {
  case PTX_OP_LOP3:
    p->mode = B_LOP3, nsrc = 4;
    p->combine = found[0] ? 1 : found[1] ? 2 : 0; /* lop3.and / lop3.or: the predicate result's */
    if (t != PTX_T_B32)
      bad = "this type";
    else if (found[0] && found[1])
      bad = "more than one operation";
    break;
  case PTX_OP_DP4A:
  case PTX_OP_DP2A: {
    bool two = in->op == PTX_OP_DP2A;
    p->mode = two ? B_DP2A : B_DP4A;
    p->combine = found[1]; /* dp2a.hi */
    bool ab = (t == PTX_T_U32 || t == PTX_T_S32) && (p->t2 == PTX_T_U32 || p->t2 == PTX_T_S32);
    if (!ab)
      bad = "this type";
    else if (two && found[0] == found[1])
      bad = "a dp2a without one of .lo, .hi";
    break;
  }
  case PTX_OP_FNS:
    p->mode = B_BFIND; /* its own run function below */
    if (t != PTX_T_B32)
      bad = "this type";
    break;
  case PTX_OP_SHF:
    p->mode = found[0] ? B_SHF_L : B_SHF_R;
    p->combine = found[3];
    if (found[0] == found[1] || found[2] == found[3])
      bad = "a shf without one direction (.l, .r) and one mode (.wrap, .clamp)";
    else if (t != PTX_T_B32)
      bad = "this type";
    break;
  case PTX_OP_PRMT:
    p->mode = B_PRMT;
    p->combine = (uint8_t)(named + 1);
    if (t != PTX_T_B32)
      bad = "this type";
    break;
  case PTX_OP_BFE:
    p->mode = B_BFE;
    if (!ints)
      bad = "this type";
    break;
  case PTX_OP_BFI:
    p->mode = B_BFI, nsrc = 4;
    if (t != PTX_T_B32 && t != PTX_T_B64)
      bad = "this type";
    break;
  case PTX_OP_MUL24:
  case PTX_OP_MAD24:
    nsrc = in->op == PTX_OP_MAD24 ? 3 : 2;
    p->mode = (uint8_t)((in->op == PTX_OP_MAD24 ? B_MAD24_LO : B_MUL24_LO) + found[1]);
    p->sat = in->op == PTX_OP_MAD24 && found[2];
    if (found[0] == found[1])
      bad = "a mul24 or mad24 without one of .lo, .hi";
    else if (!i32)
      bad = "this type";
    else if (p->sat && (!found[1] || t != PTX_T_S32))
      bad = ".sat of other than mad24.hi.s32";
    break;
  case PTX_OP_SAD:
    p->mode = B_SAD;
    if (!is_int(t) || w < 16 || !(is_signed(t) || (t >= PTX_T_U8 && t <= PTX_T_U64)))
      bad = "this type";
    break;
  case PTX_OP_SLCT:
    p->mode = B_SLCT;
    p->ftz = found[0];
    if (!(is_int(t) && w >= 16) && !is_float(t))
      bad = "this type";
    else if (p->t2 != PTX_T_S32 && p->t2 != PTX_T_F32)
      bad = "a selector of other than .s32 or .f32";
    else if (p->ftz && p->t2 != PTX_T_F32)
      bad = ".ftz of an integer selector";
    break;
  case PTX_OP_COPYSIGN:
    p->mode = B_COPYSIGN, nsrc = 2;
    if (!is_float(t))
      bad = "this type";
    break;
  case PTX_OP_TESTP:
    p->mode = B_TESTP, nsrc = 1;
    p->combine = (uint8_t)named;
    if (named < 0)
      bad = "a testp without a test";
    else if (!is_float(t))
      bad = "this type";
    break;
  default: /* bfind */
    p->mode = B_BFIND, nsrc = 1;
    p->combine = found[0];
    if (!ints)
      bad = "this type";
    break;
  }
  if (bad)
    return ptx_unsupported(pc, !t && !strcmp(bad, "this type") ? "an instruction without a type" : bad);
  if (p->mode == B_LOP3 && p->combine) { /* lop3.op.b32 d|p, a, b, c, lut, q (d may be _) */
    const PtxOperand *d = &in->opds[0];
    if (!need_opds(pc, 6, 6))
      return false;
    if (d->kind != PTX_OPD_PAIR)
      return ptx_perr(pc, d->line, d->col, "expected a destination pair d|p");
    if (d->elems[0].kind != PTX_OPD_SINK && !reg_operand(pc, &d->elems[0], &p->d[0]))
      return false;
    if (!reg_operand(pc, &d->elems[1], &p->d[1]))
      return false;
    p->nd = 2;
    p->ns = 5;
    for (uint32_t i = 0; i < 5; i++)
      if (!ptx_operand(pc, &in->opds[1 + i], &p->s[i]))
        return false;
    if (p->s[3].kind != O_IMM)
      return ptx_perr(pc, in->opds[4].line, in->opds[4].col, "the lookup table of lop3 must be an immediate");
    k->fn = ptx_x_lop3p;
    return true;
  }
  if (!ptx_plain(pc, p, nsrc))
    return false;
  if (p->mode == B_LOP3 && p->s[3].kind != O_IMM)
    return ptx_perr(pc, in->opds[4].line, in->opds[4].col, "the lookup table of lop3 must be an immediate");
  k->fn = in->op == PTX_OP_FNS ? ptx_x_fns : ptx_x_bits;
  return true;
}

static bool c_mov(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  if (!ptx_mods(pc, p, NULL, NULL) || !need_opds(pc, 2, 2))
    return false;
  const PtxOperand *d = &in->opds[0], *s = &in->opds[1];
  if (d->kind == PTX_OPD_VEC || s->kind == PTX_OPD_VEC) { /* pack or unpack */
    const PtxOperand *v = d->kind == PTX_OPD_VEC ? d : s;
    unsigned w = ptx_type_bits((PtxType)p->t);
    if (!v->n || v->n > 4 || !w || w % v->n || (d->kind == PTX_OPD_VEC) == (s->kind == PTX_OPD_VEC))
      return ptx_unsupported(pc, "this vector form");
    p->bytes = w / v->n / 8;
    p->mode = d->kind == PTX_OPD_VEC ? 1 : 2;
    if (p->mode == 1) {
      p->nd = (uint8_t)v->n;
      p->ns = 1;
      for (uint32_t i = 0; i < v->n; i++)
        if (v->elems[i].kind != PTX_OPD_SINK && !reg_operand(pc, &v->elems[i], &p->d[i]))
          return false;
      if (!ptx_operand(pc, s, &p->s[0]))
        return false;
    } else {
      p->nd = 1;
      p->ns = (uint8_t)v->n;
      for (uint32_t i = 0; i < v->n; i++)
        if (!ptx_operand(pc, &v->elems[i], &p->s[i]))
          return false;
      if (!reg_operand(pc, d, &p->d[0]))
        return false;
    }
    k->fn = ptx_x_pack;
    return true;
  }
  if (!ptx_plain(pc, p, 1))
    return false;
  k->fn = ptx_x_mov;
  return true;
}

static bool c_setp(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "lo", "ls", "hi",  "hs",
                                        "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan", "and", "or",
                                        "xor", "ftz", NULL};
  bool found[24] = {0};
  if (!ptx_mods(pc, p, allowed, found))
    return false;
  int c = name_index(cmp_names, sizeof cmp_names / sizeof *cmp_names, in);
  if (c < 0)
    return ptx_unsupported(pc, "a setp without a comparison");
  if (in->op == PTX_OP_SET) { /* set.cmp.dtype.stype: p->t the source type, p->t2 the destination's */
    unsigned d = p->t;
    p->t = p->t2;
    p->t2 = (uint8_t)d;
    bool dok = d == PTX_T_U32 || d == PTX_T_S32 || d == PTX_T_F32 || d == PTX_T_U16 || d == PTX_T_S16 || is_half(d);
    if (!dok || (is_half(d) && !is_half(p->t)) || (is_pair(d) && !is_pair(p->t)) ||
        (is_pair(p->t) && !is_pair(d) && d != PTX_T_U32 && d != PTX_T_S32))
      return ptx_unsupported(pc, "a set of these types");
  }
  if (!is_int(p->t) && !is_float(p->t) && !is_half(p->t))
    return ptx_unsupported(pc, "this type");
  if (found[21] && p->t != PTX_T_F32 && half_fmt(p->t) != KFP_F16)
    return ptx_unsupported(pc, ".ftz of this type");
  p->mode = (uint8_t)c;
  p->ftz = found[21];
  p->fmt = (uint8_t)half_fmt(p->t);
  p->combine = found[18] ? 1 : found[19] ? 2 : found[20] ? 3 : 0;
  if (!need_opds(pc, p->combine ? 4 : 3, p->combine ? 4 : 3))
    return false;
  if (in->op == PTX_OP_SET) {
    p->nd = 1;
    if (!reg_operand(pc, &in->opds[0], &p->d[0]))
      return false;
  } else if (!dest_operands(pc, &in->opds[0], p))
    return false;
  p->ns = (uint8_t)(in->nopds - 1);
  for (uint32_t i = 1; i < in->nopds; i++)
    if (!ptx_operand(pc, &in->opds[i], &p->s[i - 1]))
      return false;
  k->fn = in->op == PTX_OP_SET ? ptx_x_set : ptx_x_setp;
  return true;
}

static bool c_selp(PComp *pc, KIns *k, PIns *p) {
  if (!ptx_mods(pc, p, NULL, NULL) || !ptx_plain(pc, p, 3))
    return false;
  k->fn = ptx_x_selp;
  return true;
}

/* ---- fp8: cvt to and from .e4m3x2 and .e5m2x2 (sm_89) --------------------------------------------
 * A pair is two bytes of a .b16, the first operand's (a's) the high one, as for f16x2. E5M2 is
 * IEEE's 8-bit layout (kernel_fp.c rounds it); E4M3 has no infinities, 0x7f/0xff its NaNs and 448
 * its largest value. To fp8 is .rn and .satfinite (PTX requires both): a NaN is 0x7f, a magnitude
 * past the largest finite value (an infinity too) that value of its sign; .relu makes negatives
 * +0. From fp8 to f16x2 is exact (a NaN the canonical one; .relu as to fp8). */
static bool is_fp8(unsigned t) { return t == PTX_T_E4M3X2 || t == PTX_T_E5M2X2 || t == PTX_T_E4M3 || t == PTX_T_E5M2; }

static uint64_t to_fp8(double x, bool e5, bool relu) {
  if (isnan(x))
    return 0x7f;
  if (relu && x < 0)
    return 0;
  uint64_t sign = signbit(x) ? 0x80 : 0;
  if (fabs(x) > (e5 ? 57344.0 : 448.0))
    return sign | (e5 ? 0x7b : 0x7e);
  return kernel_fp_round(x, 0, KFP_RN, e5 ? KFP_E5M2 : KFP_E4M3);
}

static double fp8_value(uint64_t b, bool e5) {
  b &= 0xff;
  if (e5 || (b & 0x78) != 0x78) /* E4M3 but its top binade: as IEEE's */
    return kernel_fp_value(b, e5 ? KFP_E5M2 : KFP_E4M3);
  if ((b & 0x7f) == 0x7f)
    return NAN;
  double v = ldexp((double)(8 | (b & 7)), 8 - 3);
  return b & 0x80 ? -v : v;
}

/* mode 0: fp8x2 from two f32s (s[0] high, s[1] low); 1: from an f16x2; 2: an f16x2 from fp8x2.
 * p->fmt: 1 for E5M2. */
static int x_cvt_fp8(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  bool e5 = p->fmt;
  KLANES(f, l, {
    uint64_t a = rd(f, &p->s[0], l), r;
    if (p->mode == 0)
      r = to_fp8(f32of(a), e5, p->relu) << 8 | to_fp8(f32of(rd(f, &p->s[1], l)), e5, p->relu);
    else if (p->mode == 1)
      r = to_fp8(kernel_fp_value(a >> 16 & 0xffff, KFP_F16), e5, p->relu) << 8 |
          to_fp8(kernel_fp_value(a & 0xffff, KFP_F16), e5, p->relu);
    else {
      r = 0;
      for (unsigned h = 0; h < 2; h++) {
        double v = fp8_value(a >> (8 * h), e5);
        uint64_t b = isnan(v) ? kernel_fp_nan(KFP_F16) : p->relu && v < 0 ? 0 : kernel_fp_round(v, 0, KFP_RN, KFP_F16);
        r |= b << (16 * h);
      }
    }
    wr(f, &p->d[0], l, r);
  });
  return EX_NEXT;
}

/* cvt.rn.satfinite{.relu}.e4m3x2/.e5m2x2.f32 d, a, b; ... .f16x2 d, a; cvt.rn{.relu}.f16x2.e4m3x2/
 * .e5m2x2 d, a (found: c_cvt's modifiers: rn, ..., relu at 11, satfinite at 12) */
static bool c_cvt_fp8(PComp *pc, KIns *k, PIns *p, const bool *found) {
  bool to = p->t == PTX_T_E4M3X2 || p->t == PTX_T_E5M2X2, from = p->t2 == PTX_T_E4M3X2 || p->t2 == PTX_T_E5M2X2;
  int others = 0;
  for (int i = 1; i < 11; i++)
    others += found[i];
  if (to == from || (to && p->t2 != PTX_T_F32 && p->t2 != PTX_T_F16X2) || (from && p->t != PTX_T_F16X2))
    return ptx_unsupported(pc, "a conversion of these types");
  if (!found[0] || others || found[12] != to)
    return ptx_unsupported(pc, to ? "a conversion to fp8 other than .rn.satfinite" : "a conversion from fp8 other than .rn");
  p->fmt = (uint8_t)((to ? p->t : p->t2) == PTX_T_E5M2X2);
  p->mode = (uint8_t)(to ? (p->t2 == PTX_T_F32 ? 0 : 1) : 2);
  p->relu = found[11];
  if (!ptx_plain(pc, p, p->mode == 0 ? 2 : 1))
    return false;
  k->fn = x_cvt_fp8;
  return true;
}

static bool c_cvt(PComp *pc, KIns *k, PIns *p) {
  static const char *const allowed[] = {"rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "ftz", "sat",
                                        "rna", "relu", "satfinite", NULL};
  bool found[13] = {0};
  if (!ptx_mods(pc, p, allowed, found))
    return false;
  if (is_fp8(p->t) || is_fp8(p->t2))
    return c_cvt_fp8(pc, k, p, found);
  int df = fmt_of(p->t), sf = fmt_of(p->t2);
  bool dok = is_int(p->t) || df >= 0, sok = is_int(p->t2) || (sf >= 0 && sf != KFP_TF32);
  if (!dok || !sok || p->t == PTX_T_B8 || p->t2 == PTX_T_B8)
    return ptx_unsupported(pc, "a conversion of these types");
  bool fs = sf >= 0, fd = df >= 0;
  bool narrow = fd && (!fs || kernel_fp_bits((unsigned)df) < kernel_fp_bits((unsigned)sf) ||
                       (kernel_fp_bits((unsigned)df) == kernel_fp_bits((unsigned)sf) && df != sf));
  if (is_pair(p->t2) || (is_pair(p->t) && p->t2 != PTX_T_F32))
    return ptx_unsupported(pc, "a conversion of these types");
  int nr = found[0] + found[1] + found[2] + found[3] + found[10], ni = found[4] + found[5] + found[6] + found[7];
  if (nr + ni > 1)
    return ptx_unsupported(pc, "more than one rounding");
  unsigned r = found[0] || found[4] ? R_N : found[1] || found[5] ? R_Z : found[2] || found[6] ? R_M
               : found[3] || found[7]  ? R_P
                                       : R_NONE;
  bool irnd = ni > 0;
  if (fs && !fd && !irnd)
    return ptx_unsupported(pc, "a float to integer conversion without an integer rounding (.rni, .rzi, .rmi, .rpi)");
  if (irnd && !(fs && (!fd || p->t == p->t2)))
    return ptx_unsupported(pc, "an integer rounding of this conversion");
  if (fd && fs && p->t == p->t2 && !irnd && !found[8] && !found[9])
    return ptx_unsupported(pc, NULL); /* cvt.f32.f32 is a conversion for its .sat or .ftz only */
  if (nr && !narrow)
    return ptx_unsupported(pc, "a rounding of this widening conversion");
  if (found[10] != (df == KFP_TF32))
    return ptx_unsupported(pc, found[10] ? ".rna of other than a .tf32 result" : "a .tf32 result without .rna");
  if (found[9] && !fd && fs)
    return ptx_unsupported(pc, ".sat of this conversion");
  if ((found[11] || found[12]) && df != KFP_F16 && df != KFP_BF16)
    return ptx_unsupported(pc, found[11] ? ".relu of other than an f16 or bf16 result" : ".satfinite of this conversion");
  p->mode = (uint8_t)(irnd ? r : R_NONE);
  p->rnd = (uint8_t)(found[10] ? KFP_RNA + 1 : irnd || r == R_NONE ? 0 : r - R_N + KFP_RN + 1);
  p->ftz = found[8];
  p->sat = found[9];
  p->relu = found[11];
  p->satfinite = found[12];
  if (!ptx_plain(pc, p, is_pair(p->t) ? 2 : 1))
    return false;
  k->fn = ptx_x_cvt;
  return true;
}

static bool c_cvta(PComp *pc, KIns *k, PIns *p) {
  static const char *const allowed[] = {"to", NULL};
  bool found[1] = {0};
  if (!ptx_mods(pc, p, allowed, found))
    return false;
  if (p->space == PTX_SPACE_GLOBAL)
    p->mode = 0;
  else if (p->space == PTX_SPACE_SHARED)
    p->mode = found[0] ? 2 : 1;
  else if (p->space == PTX_SPACE_LOCAL)
    p->mode = found[0] ? 4 : 3;
  else
    return ptx_unsupported(pc, "cvta of this state space");
  if (!ptx_plain(pc, p, 1))
    return false;
  k->fn = ptx_x_cvta;
  return true;
}

static const char *const mem_mods[] = {"v*",       "nc",      "ca",      "cg",          "cs",     "lu",     "cv",
                                       "wb",       "wt",      "volatile", "relaxed",    "weak",   "cta",    "gpu",
                                       "sys",      "L1::*",   "L2::*",   NULL};

/* Adds x to the address's constant offset, checked: PTX's offset is any 64-bit number. */
static bool add_off(PComp *pc, const PtxOperand *a, PIns *p, int64_t x) {
  if (__builtin_add_overflow(p->off, x, &p->off))
    return ptx_perr(pc, a->line, a->col, "an address whose offset does not fit in 64 bits");
  return true;
}

/* The address operand [base+off] of a memory instruction into p->s[si] and p->off; for .param,
 * the parameter's word. */
bool ptx_address(PComp *pc, PIns *p, const PtxOperand *a, uint32_t si) {
  if (a->kind != PTX_OPD_ADDR)
    return ptx_perr(pc, a->line, a->col, "expected an address");
  p->off = a->ival;
  memset(&p->s[si], 0, sizeof p->s[si]);
  if (!a->base)
    return p->space == PTX_SPACE_PARAM ? ptx_perr(pc, a->line, a->col, "expected a parameter") : true;
  const PtxOperand *b = a->base;
  if (p->space == PTX_SPACE_PARAM) {
    size_t voff;
    if (b->kind == PTX_OPD_SYM && ptx_body_var(pc, b->name, false, &voff)) { /* in the thread's private memory */
      p->space = PTX_SPACE_LOCAL;
      return add_off(pc, a, p, (int64_t)voff);
    }
    for (uint32_t i = 0; b->kind == PTX_OPD_SYM && pc->inst->fn->entry && i < pc->fn->sig.nparams; i++)
      if (pc->fn->sig.params[i].name == b->name) {
        p->s[si].word = pc->param_word[i];
        if (p->off < 0 || p->off > 8 - (int64_t)p->bytes)
          return ptx_perr(pc, a->line, a->col,
                          "a load of bytes %lld.. of parameter '%s' is not supported by the PTX "
                          "kernel engine yet",
                          (long long)p->off, b->name);
        return true;
      }
    return ptx_perr(pc, a->line, a->col,
                    "a .param access of other than a parameter or a .param variable is not "
                    "supported by the PTX kernel engine yet");
  }
  if (b->kind == PTX_OPD_SYM) {
    size_t off;
    char *g = ptx_global_var(pc, b->name);
    if (g) {
      if (p->space != PTX_SPACE_GLOBAL && p->space != PTX_SPACE_CONST && p->space != PTX_SPACE_NONE)
        return ptx_perr(pc, b->line, b->col, "'%s' is a module variable, not in the instruction's state space", b->name);
      return add_off(pc, a, p, (int64_t)(uintptr_t)g);
    }
    bool local = local_var(pc, b->name, &off);
    if (!local && ptx_body_var(pc, b->name, false, &off))
      return ptx_perr(pc, b->line, b->col, "'%s' is a .param variable, not in the instruction's state space", b->name);
    if (!local && !ptx_shared_var(pc, b->name, &off))
      return ptx_perr(pc, b->line, b->col,
                      "the address of '%s' is not supported by the PTX kernel engine yet (only "
                      ".shared, .local, .global and .const variables)",
                      b->name);
    if (p->space != PTX_SPACE_NONE && (p->space == PTX_SPACE_LOCAL) != local)
      return ptx_perr(pc, b->line, b->col, "'%s' is a .%s variable, not in the instruction's state space", b->name,
                      local ? "local" : "shared");
    if (p->space == PTX_SPACE_NONE)
      return ptx_perr(pc, b->line, b->col, "a generic access of '%s' is not supported by the PTX kernel engine yet",
                      b->name);
    return add_off(pc, a, p, (int64_t)off);
  }
  return reg_operand(pc, b, &p->s[si]);
}

/* The spaces of ld (param: .param and .const too), st and atom (local: ld and st take .local too) */
static bool mem_space(PComp *pc, PIns *p, bool param, bool local) {
  if (p->space == PTX_SPACE_GLOBAL || p->space == PTX_SPACE_SHARED || p->space == PTX_SPACE_NONE ||
      (param && (p->space == PTX_SPACE_PARAM || p->space == PTX_SPACE_CONST)) ||
      (local && p->space == PTX_SPACE_LOCAL))
    return true;
  return ptx_unsupported(pc, "memory of this state space");
}

static bool mem_type(PComp *pc, PIns *p) {
  unsigned w = ptx_type_bits((PtxType)p->t);
  if (!(is_int(p->t) || is_float(p->t) || is_half(p->t)) || w < 8 || w > 64)
    return ptx_unsupported(pc, "memory of this type");
  p->bytes = w / 8;
  p->ety = ir_type_int(pc->h->ctx, w, SIGNLESS);
  return true;
}

/* A whole vector register (%v of .reg .v4 .f32 %v): its components are the elements of ld and st */
static bool whole_vec(const PtxOperand *o) { return o->kind == PTX_OPD_REG && o->decl->vec && !o->comp; }

static void vec_parts(PComp *pc, const PtxOperand *o, POpd *out) {
  for (uint32_t i = 0; i < o->decl->vec; i++)
    out[i] = (POpd){.kind = O_REG, .word = pc->vecword[o->n] + i,
                    .width = (uint8_t)ptx_type_bits((PtxType)o->decl->type)};
}

/* The .v2/.v4 width of a memory instruction (1 without one) must be its operand's element count. */
static bool vec_width(PComp *pc, const PtxOperand *o) {
  unsigned w = 1;
  for (uint32_t i = 0; i < pc->insn->nmods; i++)
    if (pc->insn->mods[i].kind == PTX_MOD_VEC)
      w = pc->insn->mods[i].value;
  if ((o->kind == PTX_OPD_VEC ? o->n : whole_vec(o) ? o->decl->vec : 1) != w)
    return ptx_unsupported(pc, "a vector width other than its operand's");
  return true;
}

static bool c_ld(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  if (!ptx_mods(pc, p, mem_mods, NULL) || !mem_space(pc, p, true, true) || !mem_type(pc, p) || !need_opds(pc, 2, 2))
    return false;
  const PtxOperand *d = &in->opds[0];
  if (!vec_width(pc, d))
    return false;
  if (d->kind == PTX_OPD_VEC) {
    if (d->n > 4)
      return ptx_unsupported(pc, "this vector load");
    p->nd = (uint8_t)d->n;
    for (uint32_t i = 0; i < d->n; i++)
      if (!reg_operand(pc, &d->elems[i], &p->d[i]))
        return false;
  } else if (whole_vec(d) && p->space != PTX_SPACE_PARAM) {
    if (d->decl->vec > 4)
      return ptx_unsupported(pc, "this vector load");
    p->nd = d->decl->vec;
    vec_parts(pc, d, p->d);
  } else {
    p->nd = 1;
    if (!reg_operand(pc, d, &p->d[0]))
      return false;
  }
  p->ns = 1;
  if (!ptx_address(pc, p, &in->opds[1], 0))
    return false;
  if (p->space == PTX_SPACE_PARAM) { /* a kernel parameter (a .param variable's access is a .local one now) */
    if (p->nd > 1)
      return ptx_unsupported(pc, "a vector load of a kernel parameter");
    k->fn = ptx_x_ld_param;
    return true;
  }
  p->memo = kernel_new_memo(&pc->kc, p->bytes);
  k->fn = ptx_x_ld;
  return true;
}

static bool c_st(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  if (!ptx_mods(pc, p, mem_mods, NULL) || !mem_space(pc, p, p->space == PTX_SPACE_PARAM, true) || !mem_type(pc, p) ||
      !need_opds(pc, 2, 2))
    return false;
  if (p->space == PTX_SPACE_CONST)
    return ptx_unsupported(pc, "memory of this state space");
  if (!ptx_address(pc, p, &in->opds[0], 0))
    return false;
  if (p->space == PTX_SPACE_PARAM)
    return ptx_unsupported(pc, "a store to a kernel parameter");
  const PtxOperand *v = &in->opds[1];
  if (!vec_width(pc, v))
    return false;
  if (v->kind == PTX_OPD_VEC) {
    if (v->n > 4)
      return ptx_unsupported(pc, "this vector store");
    p->ns = (uint8_t)(1 + v->n);
    for (uint32_t i = 0; i < v->n; i++)
      if (!ptx_operand(pc, &v->elems[i], &p->s[1 + i]))
        return false;
  } else if (whole_vec(v)) {
    if (v->decl->vec > 4)
      return ptx_unsupported(pc, "this vector store");
    p->ns = (uint8_t)(1 + v->decl->vec);
    vec_parts(pc, v, p->s + 1);
  } else {
    p->ns = 2;
    if (!ptx_operand(pc, v, &p->s[1]))
      return false;
  }
  p->memo = kernel_new_memo(&pc->kc, p->bytes);
  k->fn = ptx_x_st;
  return true;
}

static bool c_atom(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"add", "min", "max", "exch", "cas", "and", "or", "xor", "inc", "dec",
                                        "relaxed", "acquire", "release", "acq_rel", "cta", "gpu", "sys", NULL};
  if (!ptx_mods(pc, p, allowed, NULL) || !mem_space(pc, p, false, false))
    return false;
  int op = name_index(atom_names, sizeof atom_names / sizeof *atom_names, in);
  if (op < 0)
    return ptx_unsupported(pc, "an atomic without an operation");
  unsigned w = ptx_type_bits((PtxType)p->t);
  if (!(is_int(p->t) || is_float(p->t)) || (w != 32 && w != 64))
    return ptx_unsupported(pc, "an atomic of this type");
  if (is_float(p->t) && op != A_ADD && op != A_EXCH && op != A_MIN && op != A_MAX)
    return ptx_unsupported(pc, "this float atomic");
  p->mode = (uint8_t)op;
  p->bytes = w / 8;
  bool red = in->op == PTX_OP_RED;
  uint32_t nsrc = op == A_CAS ? 3 : 2;
  if (!need_opds(pc, nsrc + !red, nsrc + !red))
    return false;
  uint32_t i = 0;
  if (!red) {
    p->nd = 1;
    if (!reg_operand(pc, &in->opds[i++], &p->d[0]))
      return false;
  }
  if (!ptx_address(pc, p, &in->opds[i++], 0))
    return false;
  p->ns = (uint8_t)nsrc;
  for (uint32_t j = 1; j < nsrc; j++)
    if (!ptx_operand(pc, &in->opds[i++], &p->s[j]))
      return false;
  p->memo = kernel_new_memo(&pc->kc, p->bytes);
  k->fn = ptx_x_atom;
  return true;
}

/* bar.sync / barrier.sync a[, b], bar.red, bar.warp.sync: the barrier id a is any (the engine has one
 * barrier per block); a thread count b must be the block's (checked when it runs) */
static bool c_bar(PComp *pc, Op *op, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"sync", "aligned", "warp", "red", "popc", "and", "or", "arrive", NULL};
  bool found[8] = {0};
  if (!ptx_mods(pc, p, allowed, found))
    return false;
  if (found[2]) { /* bar.warp.sync membermask */
    if (found[0] + found[3] + found[7] != 1 || !need_opds(pc, 1, 1) || !ptx_operand(pc, &in->opds[0], &p->s[0]))
      return found[0] + found[3] + found[7] != 1 ? ptx_unsupported(pc, NULL) : false;
    k->fn = ptx_x_warp_sync;
    return true;
  }
  if (found[7] || ((found[0] || found[3]) && ptx_module_bar_arrive(pc)))
    return ptx_c_nbar(pc, k, p, found[7]);
  if (found[3]) { /* bar.red.op.t d, a[, b], {!}c */
    int mode = name_index(bar_red_names, 3, in);
    if (found[0] || mode < 0 || (mode == BR_POPC) != (p->t == PTX_T_U32) || (mode != BR_POPC && p->t != PTX_T_PRED))
      return ptx_unsupported(pc, NULL);
    if (!need_opds(pc, 3, 4) || !reg_operand(pc, &in->opds[0], &p->d[0]))
      return false;
    p->nd = 1;
    p->mode = (uint8_t)mode;
    p->ns = (uint8_t)(in->nopds - 1);
    for (uint32_t i = 1; i < in->nopds; i++)
      if (!ptx_operand(pc, &in->opds[i], &p->s[i + 1u == in->nopds ? 2 : i - 1]))
        return false;
    if (in->nopds == 3) /* no thread count: s[1] unused */
      p->ns = 1;
    if (!c_kbarrier(&pc->kc, op, k))
      return false;
    p->then = k->fn;
    k->fn = ptx_x_bar_red;
    return true;
  }
  if (!found[0] && in->op == PTX_OP_BARRIER)
    return ptx_unsupported(pc, NULL);
  if (found[4] || found[5] || found[6] || !need_opds(pc, 1, 2))
    return found[4] || found[5] || found[6] ? ptx_unsupported(pc, NULL) : false;
  p->ns = (uint8_t)in->nopds;
  for (uint32_t i = 0; i < in->nopds; i++)
    if (!ptx_operand(pc, &in->opds[i], &p->s[i]))
      return false;
  if (!c_kbarrier(&pc->kc, op, k))
    return false;
  if (in->nopds > 1) {
    p->then = k->fn;
    k->fn = ptx_x_bar_count;
  }
  return true;
}

/* match.any.sync.t d, a, membermask; match.all.sync.t d[|p], a, membermask (t: .b32, .b64) */
static bool c_match(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"sync", "any", "all", NULL};
  bool found[3] = {0};
  if (!ptx_mods(pc, p, allowed, found))
    return false;
  if (!found[0] || found[1] == found[2] || (p->t != PTX_T_B32 && p->t != PTX_T_B64))
    return ptx_unsupported(pc, NULL);
  if (!need_opds(pc, 3, 3) || !dest_operands(pc, &in->opds[0], p))
    return false;
  if (found[1] && p->nd > 1)
    return ptx_unsupported(pc, "a predicate result of match.any");
  p->mode = found[1] ? X_ANY : X_ALL;
  p->ns = 2;
  if (!ptx_operand(pc, &in->opds[1], &p->s[0]) || !ptx_operand(pc, &in->opds[2], &p->s[1]))
    return false;
  k->fn = ptx_x_match;
  return true;
}

/* redux.sync.op.t d, a, membermask: add, min, max of .u32/.s32; and, or, xor of .b32 */
static bool c_redux(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"sync", "add", "min", "max", "and", "or", "xor", NULL};
  if (!ptx_mods(pc, p, allowed, NULL))
    return false;
  int mode = name_index(redux_names, 6, in);
  bool arith = mode >= RX_ADD && mode <= RX_MAX;
  if (!has(in, "sync") || mode < 0 || (arith ? p->t != PTX_T_U32 && p->t != PTX_T_S32 : p->t != PTX_T_B32))
    return ptx_unsupported(pc, NULL);
  p->mode = (uint8_t)mode;
  if (!ptx_plain(pc, p, 2))
    return false;
  k->fn = ptx_x_redux;
  return true;
}

/* elect.sync d|p, membermask */
static bool c_elect(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"sync", NULL};
  if (!ptx_mods(pc, p, allowed, NULL))
    return false;
  if (!has(in, "sync"))
    return ptx_unsupported(pc, NULL);
  if (!need_opds(pc, 2, 2) || !dest_operands(pc, &in->opds[0], p) || !ptx_operand(pc, &in->opds[1], &p->s[0]))
    return false;
  p->ns = 1;
  k->fn = ptx_x_elect;
  return true;
}

/* nanosleep.u32 t: the engine does not sleep (a thread's later instructions run after it anyway) */
static bool c_nanosleep(PComp *pc, KIns *k, PIns *p) {
  if (!ptx_mods(pc, p, NULL, NULL) || !need_opds(pc, 1, 1) || !ptx_operand(pc, &pc->insn->opds[0], &p->s[0]))
    return false;
  if (p->t != PTX_T_U32)
    return ptx_unsupported(pc, NULL);
  k->fn = ptx_x_nop;
  return true;
}

static bool c_trap(PComp *pc, KIns *k, PIns *p) {
  if (!ptx_mods(pc, p, NULL, NULL) || !need_opds(pc, 0, 0))
    return false;
  k->fn = ptx_x_trap;
  return true;
}

static bool c_shfl(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"sync", "up", "down", "bfly", "idx", NULL};
  if (!ptx_mods(pc, p, allowed, NULL))
    return false;
  int mode = name_index(shfl_names, 4, in);
  if (!has(in, "sync") || mode < 0 || ptx_type_bits((PtxType)p->t) != 32)
    return ptx_unsupported(pc, NULL);
  if (!need_opds(pc, 5, 5))
    return false;
  p->mode = (uint8_t)mode;
  if (!dest_operands(pc, &in->opds[0], p))
    return false;
  p->ns = 4;
  for (uint32_t i = 0; i < 4; i++)
    if (!ptx_operand(pc, &in->opds[1 + i], &p->s[i]))
      return false;
  k->fn = ptx_x_shfl;
  return true;
}

static bool c_vote(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"sync", "all", "any", "uni", "ballot", NULL};
  if (!ptx_mods(pc, p, allowed, NULL))
    return false;
  int mode = name_index(vote_names, 4, in);
  if (!has(in, "sync") || mode < 0 || (mode == V_BALLOT) != (p->t == PTX_T_B32) ||
      (mode != V_BALLOT && p->t != PTX_T_PRED))
    return ptx_unsupported(pc, NULL);
  p->mode = (uint8_t)mode;
  if (!ptx_plain(pc, p, 2))
    return false;
  k->fn = ptx_x_vote;
  return true;
}

static bool c_activemask(PComp *pc, KIns *k, PIns *p) {
  if (!ptx_mods(pc, p, NULL, NULL) || !need_opds(pc, 1, 1) || !reg_operand(pc, &pc->insn->opds[0], &p->d[0]))
    return false;
  p->nd = 1;
  p->mode = V_BALLOT;
  k->a = 1;
  k->fn = ptx_x_vote;
  return true;
}

/* membar and fence: blocks run their threads in lock step and each access is performed when it
 * runs, so ordering needs nothing more */
static bool c_fence(PComp *pc, KIns *k, PIns *p) {
  static const char *const allowed[] = {"cta", "gl", "gpu", "sys", "sc", "acq_rel", NULL};
  if (!ptx_mods(pc, p, allowed, NULL) || !need_opds(pc, 0, 0))
    return false;
  k->fn = ptx_x_nop;
  return true;
}

/* One instruction (not a branch, ret or exit) into k. */
bool ptx_c_insn(PComp *pc, Op *op, KIns *k, PIns *p) {
  switch ((PtxOpcode)pc->insn->op) {
  case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_FMA: case PTX_OP_DIV:
  case PTX_OP_REM: case PTX_OP_MIN: case PTX_OP_MAX: case PTX_OP_NEG: case PTX_OP_ABS: case PTX_OP_AND:
  case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT: case PTX_OP_CNOT: case PTX_OP_SHL: case PTX_OP_SHR:
  case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BREV: case PTX_OP_SQRT: case PTX_OP_RCP: case PTX_OP_RSQRT:
  case PTX_OP_EX2: case PTX_OP_LG2: case PTX_OP_SIN: case PTX_OP_COS:
    return c_arith(pc, k, p);
  case PTX_OP_LOP3: case PTX_OP_SHF: case PTX_OP_PRMT: case PTX_OP_BFE: case PTX_OP_BFI: case PTX_OP_MUL24:
  case PTX_OP_MAD24: case PTX_OP_SAD: case PTX_OP_SLCT: case PTX_OP_COPYSIGN: case PTX_OP_TESTP: case PTX_OP_BFIND:
  case PTX_OP_DP4A: case PTX_OP_DP2A: case PTX_OP_FNS:
    return c_bits(pc, k, p);
  case PTX_OP_ADDC: case PTX_OP_SUBC: case PTX_OP_MADC: return c_carry(pc, k, p);
  case PTX_OP_TANH: return c_arith(pc, k, p);
  case PTX_OP_SET: return c_setp(pc, k, p);
  case PTX_OP_MOV: return c_mov(pc, k, p);
  case PTX_OP_SETP: return c_setp(pc, k, p);
  case PTX_OP_SELP: return c_selp(pc, k, p);
  case PTX_OP_CVT: return c_cvt(pc, k, p);
  case PTX_OP_CVTA: return c_cvta(pc, k, p);
  case PTX_OP_LD: return c_ld(pc, k, p);
  case PTX_OP_ST: return c_st(pc, k, p);
  case PTX_OP_ATOM: case PTX_OP_RED: return c_atom(pc, k, p);
  case PTX_OP_BAR: case PTX_OP_BARRIER: return c_bar(pc, op, k, p);
  case PTX_OP_SHFL: return c_shfl(pc, k, p);
  case PTX_OP_VOTE: return c_vote(pc, k, p);
  case PTX_OP_ACTIVEMASK: return c_activemask(pc, k, p);
  case PTX_OP_MEMBAR: case PTX_OP_FENCE: return c_fence(pc, k, p);
  case PTX_OP_MATCH: return c_match(pc, k, p);
  case PTX_OP_REDUX: return c_redux(pc, k, p);
  case PTX_OP_ELECT: return c_elect(pc, k, p);
  case PTX_OP_NANOSLEEP: return c_nanosleep(pc, k, p);
  case PTX_OP_TRAP: return c_trap(pc, k, p);
  case PTX_OP_CP: return ptx_c_cp(pc, k, p);
  case PTX_OP_MBARRIER: return ptx_c_mbarrier(pc, k, p);
  default: return ptx_unsupported(pc, NULL);
  }
}

KIns *ptx_block_add(PBlock *b) {
  if (b->n == b->cap) {
    uint32_t cap = b->cap ? 2 * b->cap : 16;
    KIns *p = realloc(b->ins, cap * sizeof *p);
    if (!p)
      abort();
    b->ins = p;
    b->cap = cap;
  }
  KIns *k = &b->ins[b->n++];
  memset(k, 0, sizeof *k);
  return k;
}
