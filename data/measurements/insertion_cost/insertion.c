/* File-cache insertion cost (Tm - T of Park & Bahn 2020, eq. 1-3) on a memory-speed block device.
 * Part of PCM Planner (Apache-2.0). See README.md in this folder.
 *
 * Usage: insertion DEVICE RUN_ID [REPS]
 *   DEVICE  a block device whose medium is memory (here: a loop device over a file in /dev/shm),
 *           opened twice: once with O_DIRECT, once buffered (through the page cache).
 * For block sizes 512 B .. 64 KiB it times single pread() calls (CLOCK_MONOTONIC, per call) and prints
 * one CSV row per (size, metric) with the median over REPS calls:
 *   direct_ns        O_DIRECT pread of a random block: the storage path without the file cache   (T)
 *   hit_ns           buffered pread of a block resident in the page cache                        (t)
 *   miss_steady_ns   buffered pread of a block not in the cache while the cache is kept full: every
 *                    32 reads (SWAP_CLUSTER_MAX, kswapd's batch) the oldest 32 cached blocks are
 *                    evicted with POSIX_FADV_DONTNEED, untimed, so each miss gets a page reclaim
 *                    just freed (steady state: LRU evicts as much as it inserts)             (Tm, steady)
 *   miss_evict_ns    buffered miss right after evicting the previously read block, eviction inside
 *                    the timed interval (synchronous reclaim charged to the reader: an upper bound)
 *   miss_first_ns    buffered pread of a block not in the cache, nothing evicted in between: pages
 *                    come fresh from the allocator while the cache grows (first touch)      (Tm, first-touch)
 * Readahead is disabled (POSIX_FADV_RANDOM) so a buffered miss reads only the pages it needs.
 * Build & run: see run.sh.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define BATCH 32 /* SWAP_CLUSTER_MAX: pages reclaimed per batch */

static inline double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, n, sizeof *v, cmp_d);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static uint64_t rng = 88172645463325252ull;
static inline uint64_t xorshift(void) {
  rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
  return rng;
}

/* random permutation of 0..n-1 */
static void shuffle(long *p, long n) {
  for (long i = 0; i < n; i++) p[i] = i;
  for (long i = n - 1; i > 0; i--) {
    long j = (long)(xorshift() % (uint64_t)(i + 1));
    long t = p[i]; p[i] = p[j]; p[j] = t;
  }
}

static void drop_all(int fd, off_t dev_bytes) {
  posix_fadvise(fd, 0, dev_bytes, POSIX_FADV_DONTNEED);
}

static void rd(int fd, char *buf, size_t sz, off_t off) {
  if (pread(fd, buf, sz, off) != (ssize_t)sz) { perror("pread"); exit(1); }
}

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: %s DEVICE RUN_ID [REPS]\n", argv[0]); return 2; }
  const char *dev = argv[1];
  const char *run = argv[2];
  int reps = argc > 3 ? atoi(argv[3]) : 2000;
  int fdd = open(dev, O_RDONLY | O_DIRECT);
  int fdb = open(dev, O_RDONLY);
  if (fdd < 0 || fdb < 0) { perror("open"); return 1; }
  uint64_t dev_bytes = 0;
  if (ioctl(fdb, BLKGETSIZE64, &dev_bytes) != 0) { perror("BLKGETSIZE64"); return 1; }
  int lbs = 512;
  if (ioctl(fdb, BLKSSZGET, &lbs) != 0) { perror("BLKSSZGET"); return 1; }
  posix_fadvise(fdb, 0, 0, POSIX_FADV_RANDOM);
  rng ^= (uint64_t)atoi(run) * 0x9E3779B97F4A7C15ull;
  char *buf = aligned_alloc(4096, 1u << 16);
  memset(buf, 1, 1u << 16);
  double *v = malloc(sizeof(double) * reps);
  printf("run,size_bytes,metric,median_ns,reps\n");
  for (size_t sz = 512; sz <= (1u << 16); sz *= 2) {
    /* distinct blocks, page aligned so a buffered miss never finds half its page cached */
    size_t stride = sz < 4096 ? 4096 : sz;
    long nblk = (long)(dev_bytes / stride);
    int n = reps < nblk ? reps : (int)nblk;
    long *perm = malloc(sizeof(long) * nblk);

    /* T: O_DIRECT (only for sizes the device can transfer directly: >= its logical block size) */
    if ((int)sz >= lbs) {
      shuffle(perm, nblk);
      for (int i = 0; i < n; i++) {
        off_t off = (off_t)perm[i] * stride;
        double t0 = now_ns(); rd(fdd, buf, sz, off); v[i] = now_ns() - t0;
      }
      printf("%s,%zu,direct_ns,%.1f,%d\n", run, sz, median(v, n), n);
    }

    /* first-touch misses: empty cache, grows by one block per read */
    drop_all(fdb, dev_bytes);
    shuffle(perm, nblk);
    for (int i = 0; i < n; i++) {
      off_t off = (off_t)perm[i] * stride;
      double t0 = now_ns(); rd(fdb, buf, sz, off); v[i] = now_ns() - t0;
    }
    printf("%s,%zu,miss_first_ns,%.1f,%d\n", run, sz, median(v, n), n);

    /* t: hits on the blocks just inserted, in another random order */
    for (int i = 0; i < n; i++) {
      long j = (long)(xorshift() % (uint64_t)n);
      off_t off = (off_t)perm[j] * stride;
      double t0 = now_ns(); rd(fdb, buf, sz, off); v[i] = now_ns() - t0;
    }
    printf("%s,%zu,hit_ns,%.1f,%d\n", run, sz, median(v, n), n);

    /* steady state: the cache is full, reclaim frees pages in batches of SWAP_CLUSTER_MAX = 32
       (as kswapd does; untimed), and each miss takes one of the pages just freed */
    drop_all(fdb, dev_bytes);
    shuffle(perm, nblk);
    for (int i = 0; i < n; i++) {
      if (i >= 2 * BATCH && i % BATCH == 0)
        for (int k = i - 2 * BATCH; k < i - BATCH; k++)
          posix_fadvise(fdb, (off_t)perm[k] * stride, stride, POSIX_FADV_DONTNEED);
      off_t off = (off_t)perm[i] * stride;
      double t0 = now_ns(); rd(fdb, buf, sz, off); v[i] = now_ns() - t0;
    }
    /* the first 2 batches fill the cache (first touch): leave them out */
    printf("%s,%zu,miss_steady_ns,%.1f,%d\n", run, sz, median(v + 2 * BATCH, n - 2 * BATCH), n - 2 * BATCH);

    /* steady state with the eviction charged to the reader */
    drop_all(fdb, dev_bytes);
    shuffle(perm, nblk);
    rd(fdb, buf, sz, (off_t)perm[0] * stride);
    for (int i = 1; i < n; i++) {
      off_t prev = (off_t)perm[i - 1] * stride, off = (off_t)perm[i] * stride;
      double t0 = now_ns();
      posix_fadvise(fdb, prev, stride, POSIX_FADV_DONTNEED);
      rd(fdb, buf, sz, off);
      v[i - 1] = now_ns() - t0;
    }
    printf("%s,%zu,miss_evict_ns,%.1f,%d\n", run, sz, median(v, n - 1), n - 1);
    drop_all(fdb, dev_bytes);
    free(perm);
    fflush(stdout);
  }
  free(v);
  free(buf);
  close(fdd);
  close(fdb);
  return 0;
}
