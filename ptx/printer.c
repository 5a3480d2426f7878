/* printer.c - a PtxModule back to PTX text, in one canonical layout.
 *
 * One directive, declaration or statement per line; bodies indented by a tab; modifiers and operands
 * as parsed (registers by their declared names, immediates in the spelling they were parsed from:
 * integers in decimal, 0f/0d bit forms for floats, decimal literals as 0d bits). A .loc line is
 * printed before an instruction whose source place differs from the one printed last, so parsing the
 * print gives the same places. The .file table comes right after the header. Comments, debug
 * sections and .loc attributes (function_name, inlined_at) are not kept and not printed. */
#include "ptx/internal.h"

#include <inttypes.h>
#include <string.h>

static const char *linkage_name(uint8_t l) {
  switch (l) {
  case PTX_LINK_VISIBLE: return ".visible ";
  case PTX_LINK_EXTERN: return ".extern ";
  case PTX_LINK_WEAK: return ".weak ";
  case PTX_LINK_COMMON: return ".common ";
  }
  return "";
}

static void print_reg_name(FILE *f, const PtxRegDecl *d, uint32_t reg) {
  if (d->range)
    fprintf(f, "%s%" PRIu32, d->name, reg - d->first);
  else
    fputs(d->name, f);
}

static void print_operand(FILE *f, const PtxOperand *o) {
  static const char comps[] = " xyzw";
  switch (o->kind) {
  case PTX_OPD_REG:
    if (o->neg)
      fputc('!', f);
    print_reg_name(f, o->decl, o->n);
    break;
  case PTX_OPD_SREG:
    fputs(ptx_sreg_name((PtxSreg)o->sreg), f);
    break;
  case PTX_OPD_INT:
    fprintf(f, "%" PRId64, o->ival);
    break;
  case PTX_OPD_F32:
    fprintf(f, "0f%08" PRIX32, (uint32_t)o->ival);
    break;
  case PTX_OPD_F64:
    fprintf(f, "0d%016" PRIX64, (uint64_t)o->ival);
    break;
  case PTX_OPD_SYM:
  case PTX_OPD_LABEL:
    fputs(o->name, f);
    break;
  case PTX_OPD_ADDR:
    fputc('[', f);
    if (o->base) {
      print_operand(f, o->base);
      if (o->ival)
        fprintf(f, "+%" PRId64, o->ival);
    } else {
      fprintf(f, "%" PRIu64, (uint64_t)o->ival);
    }
    fputc(']', f);
    break;
  case PTX_OPD_VEC:
  case PTX_OPD_LIST:
    fputc(o->kind == PTX_OPD_VEC ? '{' : '(', f);
    for (uint32_t i = 0; i < o->n; i++) {
      if (i)
        fputs(", ", f);
      print_operand(f, &o->elems[i]);
    }
    fputc(o->kind == PTX_OPD_VEC ? '}' : ')', f);
    break;
  case PTX_OPD_PAIR:
    print_operand(f, &o->elems[0]);
    fputc('|', f);
    print_operand(f, &o->elems[1]);
    break;
  case PTX_OPD_SINK:
    fputc('_', f);
    break;
  }
  if (o->comp && o->comp < 5)
    fprintf(f, ".%c", comps[o->comp]);
}

/* The attributes and name of a variable or parameter, without linkage or ';'. */
static void print_var_core(FILE *f, const PtxVar *v) {
  fprintf(f, ".%s", ptx_space_name((PtxSpace)v->space));
  if (v->space == PTX_SPACE_PARAM && v->ptr) {
    fprintf(f, " .%s .ptr", ptx_type_name((PtxType)v->type));
    if (v->ptr_space)
      fprintf(f, " .%s", ptx_space_name((PtxSpace)v->ptr_space));
    if (v->align)
      fprintf(f, " .align %" PRIu32, v->align);
  } else {
    if (v->align)
      fprintf(f, " .align %" PRIu32, v->align);
    if (v->vec)
      fprintf(f, " .v%u", v->vec);
    fprintf(f, " .%s", ptx_type_name((PtxType)v->type));
  }
  fprintf(f, " %s", v->name);
  for (unsigned i = 0; i < v->ndims; i++) {
    if (i == 0 && v->unsized)
      fputs("[]", f);
    else
      fprintf(f, "[%" PRIu64 "]", v->dims[i]);
  }
  if (v->ninit) {
    bool braces = v->ndims || v->ninit > 1;
    fputs(braces ? " = {" : " = ", f);
    for (uint32_t i = 0; i < v->ninit; i++) {
      const PtxInit *in = &v->init[i];
      if (i)
        fputs(", ", f);
      if (in->mask)
        fprintf(f, "0x%" PRIX64 "(", in->mask);
      switch (in->kind) {
      case PTX_INIT_INT: fprintf(f, "%" PRId64, in->ival); break;
      case PTX_INIT_F32: fprintf(f, "0f%08" PRIX32, (uint32_t)in->ival); break;
      case PTX_INIT_F64: fprintf(f, "0d%016" PRIX64, (uint64_t)in->ival); break;
      case PTX_INIT_SYM: fputs(in->name, f); break;
      case PTX_INIT_GENERIC: fprintf(f, "generic(%s)", in->name); break;
      }
      if ((in->kind == PTX_INIT_SYM || in->kind == PTX_INIT_GENERIC) && in->ival)
        fprintf(f, "+%" PRIu64, (uint64_t)in->ival);
      if (in->mask)
        fputc(')', f);
    }
    if (braces)
      fputc('}', f);
  }
}

static void print_params(FILE *f, uint32_t n, const PtxVar *p, const char *indent) {
  fputc('(', f);
  for (uint32_t i = 0; i < n; i++) {
    fprintf(f, "%s%s", i ? "," : "", i || *indent == '\n' ? indent : "");
    print_var_core(f, &p[i]);
  }
  fprintf(f, "%s)", *indent == '\n' && n ? "\n" : "");
}

static void print_insn(FILE *f, const PtxInsn *in) {
  fputc('\t', f);
  if (in->has_guard) {
    fputs(in->guard.neg ? "@!" : "@", f);
    print_reg_name(f, in->guard.decl, in->guard.n);
    fputc(' ', f);
  }
  fputs(ptx_opcode_name((PtxOpcode)in->op), f);
  for (unsigned i = 0; i < in->nmods; i++)
    fprintf(f, ".%s", in->mods[i].name);
  for (unsigned i = 0; i < in->nopds; i++) {
    fputs(i ? ", " : " ", f);
    print_operand(f, &in->opds[i]);
  }
  fputs(";\n", f);
}

static void print_func(FILE *f, const PtxFunc *fn) {
  fprintf(f, "%s%s ", linkage_name(fn->linkage), fn->entry ? ".entry" : ".func");
  if (fn->sig.nrets) {
    print_params(f, fn->sig.nrets, fn->sig.rets, " ");
    fputc(' ', f);
  }
  fputs(fn->name, f);
  print_params(f, fn->sig.nparams, fn->sig.params, "\n\t");
  fputc('\n', f);
  if (fn->noreturn)
    fputs(".noreturn\n", f);
  const PtxPerf *p = &fn->perf;
  if (p->maxntid[0])
    fprintf(f, ".maxntid %u, %u, %u\n", p->maxntid[0], p->maxntid[1], p->maxntid[2]);
  if (p->reqntid[0])
    fprintf(f, ".reqntid %u, %u, %u\n", p->reqntid[0], p->reqntid[1], p->reqntid[2]);
  if (p->reqnctapercluster[0])
    fprintf(f, ".reqnctapercluster %u, %u, %u\n", p->reqnctapercluster[0], p->reqnctapercluster[1],
            p->reqnctapercluster[2]);
  if (p->explicitcluster)
    fputs(".explicitcluster\n", f);
  if (p->maxclusterrank)
    fprintf(f, ".maxclusterrank %u\n", p->maxclusterrank);
  if (p->minnctapersm)
    fprintf(f, ".minnctapersm %u\n", p->minnctapersm);
  if (p->maxnreg)
    fprintf(f, ".maxnreg %u\n", p->maxnreg);
  for (uint32_t i = 0; i < fn->npragmas; i++)
    fprintf(f, ".pragma \"%s\";\n", fn->pragmas[i]);
  if (!fn->defined) {
    fputs(";\n", f);
    return;
  }
  fputs("{\n", f);
  uint32_t file = 0, line = 0, col = 0;
  for (uint32_t i = 0; i < fn->nstmts; i++) {
    const PtxStmt *s = &fn->stmts[i];
    switch (s->kind) {
    case PTX_STMT_INSN:
      if (s->insn.loc_file && (s->insn.loc_file != file || s->insn.loc_line != line || s->insn.loc_col != col)) {
        file = s->insn.loc_file;
        line = s->insn.loc_line;
        col = s->insn.loc_col;
        fprintf(f, "\t.loc %u %u %u\n", file, line, col);
      }
      print_insn(f, &s->insn);
      break;
    case PTX_STMT_LABEL:
      fprintf(f, "%s:\n", fn->labels[s->label].name);
      break;
    case PTX_STMT_REG:
      fputs("\t.reg ", f);
      if (s->reg->vec)
        fprintf(f, ".v%u ", s->reg->vec);
      fprintf(f, ".%s %s", ptx_type_name((PtxType)s->reg->type), s->reg->name);
      if (s->reg->range)
        fprintf(f, "<%u>", s->reg->count);
      fputs(";\n", f);
      break;
    case PTX_STMT_VAR:
      fputc('\t', f);
      print_var_core(f, s->var);
      fputs(";\n", f);
      break;
    case PTX_STMT_OPEN:
      fputs("\t{\n", f);
      break;
    case PTX_STMT_CLOSE:
      fputs("\t}\n", f);
      break;
    case PTX_STMT_PROTO:
      fprintf(f, "\t%s: .callprototype ", s->proto->name);
      if (s->proto->sig.nrets) {
        print_params(f, s->proto->sig.nrets, s->proto->sig.rets, " ");
        fputc(' ', f);
      }
      fputs("_ ", f);
      print_params(f, s->proto->sig.nparams, s->proto->sig.params, " ");
      fputs(";\n", f);
      break;
    case PTX_STMT_PRAGMA:
      fprintf(f, "\t.pragma \"%s\";\n", s->pragma);
      break;
    }
  }
  fputs("}\n", f);
}

int ptx_print(FILE *f, const PtxModule *m) {
  fprintf(f, ".version %u.%u\n", m->version_major, m->version_minor);
  fprintf(f, ".target %s%s%s%s\n", m->target ? m->target : "", m->texmode_independent ? ", texmode_independent" : "",
          m->map_f64_to_f32 ? ", map_f64_to_f32" : "", m->debug ? ", debug" : "");
  if (m->address_size)
    fprintf(f, ".address_size %u\n", m->address_size);
  for (uint32_t i = 0; i < m->nfiles; i++)
    if (m->files[i])
      fprintf(f, ".file %u \"%s\"\n", i, m->files[i]);
  for (uint32_t i = 0; i < m->ndecls; i++) {
    const PtxDecl *d = &m->decls[i];
    fputc('\n', f);
    if (d->kind == PTX_DECL_VAR) {
      fputs(linkage_name(d->var->linkage), f);
      print_var_core(f, d->var);
      fputs(";\n", f);
    } else {
      print_func(f, d->func);
    }
  }
  return ferror(f) ? -1 : 0;
}
