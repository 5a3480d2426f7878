/* lexer.c - MLIR's tokens, produced one at a time from a NUL-terminated buffer.
 *
 * Identifiers that start with a sigil (%value, ^block, @symbol, #attr, !type) are one token each
 * with the sigil dropped from the text. Dialect bodies in pretty form (`<...>` after #foo.bar or
 * !foo.bar) are not lexed here: the parser asks for the raw balanced text with lex_balanced. */
#include "ir/internal.h"

#include <string.h>

static bool is_id_start(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_id_char(int c) { return is_id_start(c) || is_digit(c) || c == '$' || c == '.'; }
static bool is_suffix_char(int c) { return is_id_char(c) || c == '-'; }

void lex_init(Lexer *lx, const char *buf, size_t len) {
  lx->buf = buf;
  lx->end = buf + len;
  lx->cur = buf;
  lx->err = NULL;
}

static Token make(TokKind k, const char *s, const char *e) {
  Token t = {k, s, (uint32_t)(e - s)};
  return t;
}

static Token error(Lexer *lx, const char *at, const char *msg) {
  lx->err = msg;
  lx->cur = at + (at < lx->end);
  return make(TOK_ERROR, at, at + (at < lx->end));
}

/* suffix-id ::= (digit+ | (letter|[$._-]) (letter|digit|[$._-])*) */
static Token suffix_id(Lexer *lx, TokKind k, const char *start) {
  const char *p = lx->cur;
  if (is_digit(*p)) {
    while (is_digit(*p))
      p++;
  } else if (is_suffix_char(*p)) {
    while (is_suffix_char(*p))
      p++;
  } else {
    return error(lx, start, "invalid SSA name or block label");
  }
  lx->cur = p;
  return make(k, start + 1, p);
}

/* The closing quote of the string literal that opens at start, or NULL with lx->err set and
 * *bad at the fault. */
static const char *string_end(Lexer *lx, const char *start, const char **bad) {
  const char *p = start + 1;
  for (;;) {
    if (p >= lx->end || *p == '\n' || *p == '\r') {
      lx->err = "expected '\"' in string literal";
      *bad = p;
      return NULL;
    }
    if (*p == '"')
      return p;
    if (*p == '\\') {
      p++;
      if (p < lx->end && (*p == '"' || *p == '\\' || *p == 'n' || *p == 't')) {
        p++;
      } else if (p + 1 < lx->end && strchr("0123456789abcdefABCDEF", *p) && *p && p[1] &&
                 strchr("0123456789abcdefABCDEF", p[1])) {
        p += 2;
      } else {
        lx->err = "unknown escape in string literal";
        *bad = p - 1;
        return NULL;
      }
      continue;
    }
    p++;
  }
}

static Token string_lit(Lexer *lx, const char *start) {
  const char *bad = NULL, *p = string_end(lx, start, &bad);
  if (!p)
    return error(lx, bad, lx->err);
  lx->cur = p + 1;
  return make(TOK_STRING, start, p + 1);
}

static Token number(Lexer *lx, const char *start) {
  const char *p = start;
  if (p[0] == '0' && p[1] == 'x' && ((p[2] >= '0' && p[2] <= '9') || (p[2] >= 'a' && p[2] <= 'f') ||
                                     (p[2] >= 'A' && p[2] <= 'F'))) {
    p += 2;
    while (strchr("0123456789abcdefABCDEF", *p) && *p)
      p++;
    lx->cur = p;
    return make(TOK_INT, start, p);
  }
  while (is_digit(*p))
    p++;
  if (*p != '.') {
    lx->cur = p;
    return make(TOK_INT, start, p);
  }
  p++;
  while (is_digit(*p))
    p++;
  if ((*p == 'e' || *p == 'E') &&
      (is_digit(p[1]) || ((p[1] == '+' || p[1] == '-') && is_digit(p[2])))) {
    p += 2;
    while (is_digit(*p))
      p++;
  }
  lx->cur = p;
  return make(TOK_FLOAT, start, p);
}

Token lex_next(Lexer *lx) {
  const char *p = lx->cur;
  for (;;) {
    while (p < lx->end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
      p++;
    if (p + 1 < lx->end && p[0] == '/' && p[1] == '/') {
      while (p < lx->end && *p != '\n')
        p++;
      continue;
    }
    break;
  }
  lx->cur = p;
  if (p >= lx->end)
    return make(TOK_EOF, p, p);
  const char *s = p;
  lx->cur = p + 1;
  switch (*p) {
  case '(': return make(TOK_LPAREN, s, p + 1);
  case ')': return make(TOK_RPAREN, s, p + 1);
  case '[': return make(TOK_LSQUARE, s, p + 1);
  case ']': return make(TOK_RSQUARE, s, p + 1);
  case '{':
    if (p[1] == '-' && p[2] == '#') {
      lx->cur = p + 3;
      return make(TOK_FILE_META_BEGIN, s, p + 3);
    }
    return make(TOK_LBRACE, s, p + 1);
  case '}': return make(TOK_RBRACE, s, p + 1);
  case '<': return make(TOK_LESS, s, p + 1);
  case '>': return make(TOK_GREATER, s, p + 1);
  case ',': return make(TOK_COMMA, s, p + 1);
  case '=': return make(TOK_EQUAL, s, p + 1);
  case '*': return make(TOK_STAR, s, p + 1);
  case '+': return make(TOK_PLUS, s, p + 1);
  case '?': return make(TOK_QUESTION, s, p + 1);
  case '|': return make(TOK_VBAR, s, p + 1);
  case ':': return make(TOK_COLON, s, p + 1);
  case '-':
    if (p[1] == '>') {
      lx->cur = p + 2;
      return make(TOK_ARROW, s, p + 2);
    }
    return make(TOK_MINUS, s, p + 1);
  case '.':
    if (p[1] == '.' && p[2] == '.') {
      lx->cur = p + 3;
      return make(TOK_ELLIPSIS, s, p + 3);
    }
    return error(lx, s, "unexpected character");
  case '"': return string_lit(lx, s);
  case '%': return suffix_id(lx, TOK_PERCENT, s);
  case '^': return suffix_id(lx, TOK_CARET, s);
  case '#':
    if (p[1] == '-' && p[2] == '}') {
      lx->cur = p + 3;
      return make(TOK_FILE_META_END, s, p + 3);
    }
    /* fallthrough */
  case '!': {
    const char *q = p + 1;
    if (!is_id_start(*q) && !is_digit(*q))
      return error(lx, s, *p == '#' ? "invalid attribute name" : "invalid type identifier");
    while (is_suffix_char(*q))
      q++;
    lx->cur = q;
    return make(*p == '#' ? TOK_HASH : TOK_BANG, s + 1, q);
  }
  case '@': {
    if (p[1] == '"') {
      lx->cur = p + 1;
      Token t = string_lit(lx, p + 1);
      if (t.kind == TOK_ERROR)
        return t;
      return make(TOK_AT, s + 1, lx->cur); /* text keeps the quotes */
    }
    const char *q = p + 1;
    if (!is_id_start(*q))
      return error(lx, s, "invalid symbol reference");
    while (is_id_char(*q))
      q++;
    lx->cur = q;
    return make(TOK_AT, s + 1, q);
  }
  default:
    break;
  }
  if (is_digit(*p))
    return number(lx, s);
  if (is_id_start(*p)) {
    const char *q = p;
    while (is_id_char(*q))
      q++;
    lx->cur = q;
    return make(TOK_BARE, s, q);
  }
  return error(lx, s, "unexpected character");
}

/* Scans a balanced <...> starting at the '<' at lx->cur (after skipping blanks); returns the text
 * including the brackets. Strings are skipped whole; (), [], {} must balance inside. */
bool lex_balanced(Lexer *lx, const char **start, uint32_t *len) {
  const char *p = lx->cur;
  lx->bad = NULL;
  while (p < lx->end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
    p++;
  if (p >= lx->end || *p != '<')
    return false;
  char stack[256];
  int depth = 0;
  const char *s = p;
  for (; p < lx->end; p++) {
    char c = *p;
    if (c == '"') { /* checked as the lexer checks a string token: mlir-opt lexes these bodies */
      const char *q = string_end(lx, p, &lx->bad);
      if (!q)
        return false;
      p = q;
      continue;
    }
    if ((c == '-' && p[1] == '>') || ((c == '>' || c == '<' || c == '=') && p[1] == '=')) {
      /* `->`, `>=`, `<=`, `==` inside affine maps and sets are not brackets */
      p++;
      continue;
    }
    if (c == '<' || c == '(' || c == '[' || c == '{') {
      if (depth == (int)sizeof stack)
        break;
      stack[depth++] = c == '<' ? '>' : c == '(' ? ')' : c == '[' ? ']' : '}';
    } else if (c == '>' || c == ')' || c == ']' || c == '}') {
      if (depth == 0 || stack[depth - 1] != c)
        break;
      if (--depth == 0) {
        *start = s;
        *len = (uint32_t)(p + 1 - s);
        lx->cur = p + 1;
        return true;
      }
    }
  }
  lx->err = "unbalanced '<' in dialect body";
  return false;
}
