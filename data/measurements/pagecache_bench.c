/* Page-cache latency microbenchmark for PCM Planner's file-cache model (Apache-2.0).
 *
 * Measures, for block sizes 512 B .. 1 MiB, the mean latency of
 *   cache_read_ns   : pread() of a block that is resident in the page cache  (t in Park & Bahn eq. 1)
 *   cache_insert_ns : pwrite() of a block into a region of a tmpfs file not yet in the page cache,
 *                     i.e. page allocation + copy + insertion into the cache (the extra cost in Tm)
 * Build & run: gcc -O2 -o /tmp/pcb pagecache_bench.c && /tmp/pcb /dev/shm > pagecache_latency.csv
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : "/dev/shm";
  const size_t file_bytes = 64u << 20;
  char path[512];
  snprintf(path, sizeof path, "%s/pcm_planner_pcbench.%d", dir, (int)getpid());
  char *buf = aligned_alloc(4096, 1u << 20);
  memset(buf, 7, 1u << 20);
  printf("size_bytes,cache_read_ns,cache_insert_ns,repeats\n");
  for (size_t sz = 512; sz <= (1u << 20); sz *= 2) {
    int reps = (int)(file_bytes / sz);
    if (reps > 20000) reps = 20000;
    /* insertion: write fresh blocks into an empty tmpfs file */
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) { perror("open"); return 1; }
    double t0 = now_ns();
    for (int i = 0; i < reps; i++) {
      if (pwrite(fd, buf, sz, (off_t)i * sz) != (ssize_t)sz) { perror("pwrite"); return 1; }
    }
    double ins = (now_ns() - t0) / reps;
    /* cached reads: the blocks just written are resident; read them in a scrambled order */
    unsigned long long x = 88172645463325252ull;
    t0 = now_ns();
    for (int i = 0; i < reps; i++) {
      x ^= x << 13; x ^= x >> 7; x ^= x << 17;
      off_t off = (off_t)(x % (unsigned long long)reps) * sz;
      if (pread(fd, buf, sz, off) != (ssize_t)sz) { perror("pread"); return 1; }
    }
    double rd = (now_ns() - t0) / reps;
    close(fd);
    unlink(path);
    printf("%zu,%.1f,%.1f,%d\n", sz, rd, ins, reps);
  }
  free(buf);
  return 0;
}
