/* calls-ref.c - the CPU reference of tests/lit/ptx/exec-calls.mlir (the PTX in calls.ptx): what
 * kernel @calls stores (as printMemrefI32 prints its data line), then the lines kernel @show
 * prints, from C's printf with the same values.
 *   cc -std=c11 -o calls-ref calls-ref.c && ./calls-ref */
#include <stdint.h>
#include <stdio.h>

static int32_t madd(int32_t a, int32_t b, int32_t c) { return (int32_t)((uint32_t)a + (uint32_t)b * (uint32_t)c); }
static int32_t fact(int32_t n) { return n <= 1 ? 1 : n * fact(n - 1); }
static int32_t absdiff(int32_t a, int32_t b) { return a >= b ? a - b : b - a; }
static int32_t nest(int32_t x) { return madd(1, madd(x, 2, 3), x); }

int main(void) {
  int32_t out[64 * 12];
  for (int32_t i = 0; i < 64; i++) {
    int32_t *o = out + 12 * i, t = i % 32;
    o[0] = madd(i, 3, -2);
    int32_t x = (int32_t)((int64_t)(i * (i + 1)) + 1000 * (int64_t)i);
    o[1] = x + 1;
    o[2] = x - 1;
    double s = ((double)i + 0.5) * 3;
    o[3] = (int32_t)(s + s);
    o[4] = nest(i);
    o[5] = fact(i % 13);
    o[6] = i & 1 ? madd(i, i, i) : -1;
    o[7] = i < 20 ? absdiff(i, 10) : fact(i % 5);
    o[8] = 7 * i;
    o[9] = 14 * i;
    int32_t sum = 0;
    for (int32_t j = 0; j <= (i & 3); j++)
      sum += madd(j, i, 1);
    o[10] = sum;
    int32_t next = (t + 1) % 32;
    o[11] = next < 7 ? fact(next) : 0;
  }
  printf("[");
  for (int i = 0; i < 64 * 12; i++)
    printf("%s%d", i ? ",  " : "", out[i]);
  printf("]\n");
  int n = 0;
  for (int t = 0; t < 4; t++) {
    const char *word = "word";
    double d = t;
    n = printf("%d|%5d|%-4d|%u|%x|%X|%o|%lld|%c|%s|%.3f|%e|%g|%%|%hd|%ld|%08.2f|%+d|%#x\n", t - 2, 7 * t, t + 40,
               (unsigned)-t, 255 * t, 3054 * t, 8 * t + 7, (long long)t * 1000000000000 - 5, 'A' + t, word + t,
               d / 3 + 0.5, d * -1234.5, 1 / (d + 1), (short)(70000 + t), (long)t * -3000000000, d * -1234.5, t,
               255 * t);
  }
  (void)n;
  for (int t = 1; t < 4; t += 2) /* vprintf's result: the 18 arguments it took */
    printf("odd %d: %d %d%%\n", t, 18, 18 * 18);
  return 0;
}
