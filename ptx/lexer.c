/* lexer.c - PTX tokens, one at a time, from a buffer with an end pointer (no NUL needed).
 *
 * identifier  ::= [a-zA-Z][a-zA-Z0-9_$]* | [_$%][a-zA-Z0-9_$]*
 * dotname     ::= '.' [a-zA-Z0-9_$]+ ('::' [a-zA-Z0-9_$]+)*      (.u32, .shared::cta, .L2::cache_hint)
 * integer     ::= 0[xX]hex+ | 0[bB][01]+ | 0[0-7]* | [1-9][0-9]*, each with an optional U suffix
 * float bits  ::= 0[fF]hex{8} | 0[dD]hex{16}
 * decimal     ::= [0-9]+ '.' [0-9]* ([eE][+-]?[0-9]+)? | [0-9]+ [eE][+-]?[0-9]+   (kept as f64 bits)
 * Comments are // to the end of the line and block comments; both count as whitespace. Each token
 * records whether whitespace came before it: modifiers must follow their opcode directly. */
#include "ptx/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_follow(int c) { return is_alpha(c) || is_digit(c) || c == '_' || c == '$'; }
static int hexval(int c) {
  if (is_digit(c))
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

void ptx_lex_init(Lexer *lx, const char *text, size_t len) {
  lx->p = text;
  lx->end = text + len;
  lx->line_start = text;
  lx->line = 1;
  lx->err = NULL;
}

static Token error(Lexer *lx, Token t, const char *msg) {
  lx->err = msg;
  t.kind = T_ERROR;
  return t;
}

/* Skips whitespace and comments; returns false with lx->err set on an unterminated comment. */
static bool skip_space(Lexer *lx, bool *any) {
  const char *p = lx->p, *end = lx->end;
  while (p < end) {
    char c = *p;
    if (c == '\n') {
      p++;
      lx->line++;
      lx->line_start = p;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      p++;
    } else if (c == '/' && p + 1 < end && p[1] == '/') {
      while (p < end && *p != '\n')
        p++;
    } else if (c == '/' && p + 1 < end && p[1] == '*') {
      const char *start = p, *start_line = lx->line_start;
      uint32_t line = lx->line;
      p += 2;
      for (;;) {
        if (p + 1 >= end) {
          /* reported where the comment opens */
          lx->p = start;
          lx->line = line;
          lx->line_start = start_line;
          lx->err = "unterminated comment";
          return false;
        }
        if (*p == '*' && p[1] == '/') {
          p += 2;
          break;
        }
        if (*p == '\n') {
          lx->line++;
          lx->line_start = p + 1;
        }
        p++;
      }
    } else {
      break;
    }
    *any = true;
  }
  lx->p = p;
  return true;
}

/* A number at p: integer, float bits or decimal. */
static Token number(Lexer *lx, Token t) {
  const char *p = lx->p, *end = lx->end;
  if (*p == '0' && p + 1 < end && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D')) {
    unsigned digits = (p[1] == 'f' || p[1] == 'F') ? 8 : 16;
    const char *q = p + 2;
    uint64_t v = 0;
    unsigned n = 0;
    while (q < end && hexval(*q) >= 0 && n < digits + 1) {
      v = (v << 4) | (uint64_t)hexval(*q);
      q++;
      n++;
    }
    if (n != digits || (q < end && is_follow(*q))) {
      t.len = (uint32_t)(q - p);
      return error(lx, t, digits == 8 ? "a 0f float needs exactly 8 hex digits" : "a 0d double needs exactly 16 hex digits");
    }
    t.kind = digits == 8 ? T_F32 : T_F64;
    t.u = v;
    t.len = (uint32_t)(q - p);
    lx->p = q;
    return t;
  }
  /* decimal floating literal? */
  const char *q = p;
  while (q < end && is_digit(*q))
    q++;
  bool is_float = false;
  if (q < end && *q == '.' && !(q + 1 < end && is_alpha(q[1]))) {
    is_float = true;
    q++;
    while (q < end && is_digit(*q))
      q++;
  }
  if (q < end && (*q == 'e' || *q == 'E') && !(p[0] == '0' && p + 1 < end && (p[1] == 'x' || p[1] == 'X'))) {
    const char *r = q + 1;
    if (r < end && (*r == '+' || *r == '-'))
      r++;
    if (r < end && is_digit(*r)) {
      is_float = true;
      q = r;
      while (q < end && is_digit(*q))
        q++;
    }
  }
  if (is_float) {
    char buf[128];
    size_t n = (size_t)(q - p);
    if (n >= sizeof buf) {
      t.len = (uint32_t)n;
      return error(lx, t, "floating-point literal too long");
    }
    memcpy(buf, p, n);
    buf[n] = 0;
    double d = strtod(buf, NULL);
    memcpy(&t.u, &d, sizeof d);
    t.kind = T_F64;
    t.len = (uint32_t)n;
    lx->p = q;
    if (q < end && is_follow(*q))
      return error(lx, t, "invalid floating-point literal");
    return t;
  }
  /* integer */
  uint64_t v = 0;
  unsigned base = 10;
  q = p;
  if (*q == '0' && q + 1 < end && (q[1] == 'x' || q[1] == 'X')) {
    base = 16;
    q += 2;
  } else if (*q == '0' && q + 1 < end && (q[1] == 'b' || q[1] == 'B')) {
    base = 2;
    q += 2;
  } else if (*q == '0') {
    base = 8;
  }
  const char *digits = q;
  bool overflow = false;
  while (q < end) {
    int d = hexval(*q);
    if (d < 0 || (unsigned)d >= base)
      break;
    if (v > (UINT64_MAX - (uint64_t)d) / base)
      overflow = true;
    v = v * base + (uint64_t)d;
    q++;
  }
  t.len = (uint32_t)(q - p);
  if (q == digits)
    return error(lx, t, "integer literal without digits");
  if (q < end && *q == 'U')
    q++;
  t.len = (uint32_t)(q - p);
  lx->p = q;
  if (q < end && is_follow(*q))
    return error(lx, t, "invalid integer literal");
  if (overflow)
    return error(lx, t, "integer literal does not fit in 64 bits");
  t.kind = T_INT;
  t.u = v;
  return t;
}

Token ptx_lex_next(Lexer *lx) {
  Token t = {0};
  bool any = false;
  bool ok = skip_space(lx, &any);
  t.space_before = any;
  t.s = lx->p;
  t.line = lx->line;
  t.col = (uint32_t)(lx->p - lx->line_start) + 1;
  if (!ok)
    return error(lx, t, lx->err);
  const char *p = lx->p, *end = lx->end;
  if (p >= end) {
    t.kind = T_EOF;
    return t;
  }
  char c = *p;
  if (is_alpha(c) || c == '_' || c == '$' || c == '%') {
    const char *q = p + 1;
    while (q < end && is_follow(*q))
      q++;
    t.kind = T_IDENT;
    t.len = (uint32_t)(q - p);
    lx->p = q;
    if (c == '%' && t.len == 1)
      return error(lx, t, "expected a register name after '%'");
    return t;
  }
  if (c == '.' && p + 1 < end && is_follow(p[1])) {
    const char *q = p + 1;
    for (;;) {
      while (q < end && is_follow(*q))
        q++;
      if (q + 2 < end && q[0] == ':' && q[1] == ':' && is_follow(q[2]))
        q += 2;
      else
        break;
    }
    t.kind = T_DOTNAME;
    t.len = (uint32_t)(q - p);
    lx->p = q;
    return t;
  }
  if (is_digit(c))
    return number(lx, t);
  if (c == '"') {
    const char *q = p + 1;
    while (q < end && *q != '"' && *q != '\n') {
      if (*q == '\\' && q + 1 < end && q[1] != '\n')
        q++;
      q++;
    }
    if (q >= end || *q != '"') {
      t.len = 1;
      lx->p = q;
      return error(lx, t, "unterminated string");
    }
    t.kind = T_STRING;
    t.len = (uint32_t)(q + 1 - p);
    lx->p = q + 1;
    return t;
  }
  if (strchr(",;:()[]{}<>+-!@|=", c) && c) {
    t.kind = T_PUNCT;
    t.punct = c;
    t.len = 1;
    lx->p = p + 1;
    return t;
  }
  t.len = 1;
  lx->p = p + 1;
  unsigned char u = (unsigned char)c;
  if (u > ' ' && u < 127)
    snprintf(lx->errbuf, sizeof lx->errbuf, "unexpected character '%c'", c);
  else
    snprintf(lx->errbuf, sizeof lx->errbuf, "unexpected byte 0x%02x", u);
  return error(lx, t, lx->errbuf);
}
