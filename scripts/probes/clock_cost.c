/* Cost of one CLOCK_MONOTONIC reading natively (what Rust's Instant::now
 * does on Linux), for docs/benchmarks/wasm.md. Build and run:
 *   cc -O2 -o /tmp/clock_cost scripts/probes/clock_cost.c && /tmp/clock_cost */
#include <stdio.h>
#include <time.h>

int main(void) {
  const int n = 1000000;
  struct timespec a, b, t;
  long long sink = 0;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (int i = 0; i < n; i++) {
    clock_gettime(CLOCK_MONOTONIC, &t);
    sink += t.tv_nsec;
  }
  clock_gettime(CLOCK_MONOTONIC, &b);
  double ns = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n;
  printf("{\"clock_gettime_ns\": %.1f, \"calls\": %d, \"sink\": %lld}\n", ns, n, sink & 1);
  return 0;
}
