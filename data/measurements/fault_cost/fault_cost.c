/* fault_cost.c - cost of a page fault that brings a 4 KiB page in from a memory-speed device.
 *
 * Measured (each on N distinct 4 KiB pages of a fresh anonymous mapping, touched once each in a
 * shuffled order, the time of every single touch read with clock_gettime(CLOCK_MONOTONIC) around
 * one load; results as percentiles over the touches, per repetition):
 *
 *   uffd_copy   the mapping is registered with userfaultfd (missing-page mode); a handler thread
 *               reads the fault event and resolves it with UFFDIO_COPY of the page's 4 KiB from a
 *               source buffer in DRAM (the "device": memory speed, no device latency). The time
 *               is the faulting thread's: trap, fault delivery to the handler thread, its wake-up,
 *               the ioctl (page allocation + 4 KiB copy + map) and the return to the faulting
 *               thread. This is the fault path of an OS-managed memory extension whose device
 *               has DRAM-like latency (the handler runs on another core when one is free).
 *   minor_zero  first touch of an anonymous page without userfaultfd: kernel zero-fill minor
 *               fault (trap + page allocation + 4 KiB clear + map): the in-kernel floor.
 *   memcpy_4k   a 4 KiB memcpy between two resident buffers (the data-movement part alone).
 *   touch_hit   a load from an already-mapped page (timer overhead).
 *
 * Build: cc -O2 -pthread -o fault_cost fault_cost.c
 * Run:   ./fault_cost [pages=4096] [repetitions=5]  (needs userfaultfd: root, or
 *        vm.unprivileged_userfaultfd=1; prints CSV: method,rep,pages,p10_ns,p25_ns,median_ns,p75_ns,p90_ns,mean_ns)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096UL

static long uffd = -1;
static char *src;      /* the "device" contents */
static char *area;     /* the faulting region */
static volatile int stop_handler = 0;

static inline uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

static void *handler(void *arg) {
  (void)arg;
  struct pollfd p = {.fd = (int)uffd, .events = POLLIN};
  while (!stop_handler) {
    int r = poll(&p, 1, 100);
    if (r <= 0) continue;
    struct uffd_msg msg;
    ssize_t n = read((int)uffd, &msg, sizeof msg);
    if (n != sizeof msg || msg.event != UFFD_EVENT_PAGEFAULT) continue;
    unsigned long addr = msg.arg.pagefault.address & ~(PAGE - 1);
    struct uffdio_copy c = {.dst = addr, .src = (unsigned long)(src + (addr - (unsigned long)area)), .len = PAGE, .mode = 0};
    if (ioctl((int)uffd, UFFDIO_COPY, &c) < 0 && errno != EEXIST) { perror("UFFDIO_COPY"); exit(1); }
  }
  return NULL;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static void report(const char *method, int rep, uint64_t *t, size_t n) {
  double mean = 0;
  for (size_t i = 0; i < n; i++) mean += (double)t[i];
  mean /= (double)n;
  qsort(t, n, sizeof *t, cmp_u64);
  printf("%s,%d,%zu,%llu,%llu,%llu,%llu,%llu,%.1f\n", method, rep, n, (unsigned long long)t[n / 10],
         (unsigned long long)t[n / 4], (unsigned long long)t[n / 2], (unsigned long long)t[3 * n / 4],
         (unsigned long long)t[9 * n / 10], mean);
}

static void shuffle(size_t *o, size_t n, unsigned *seed) {
  for (size_t i = 0; i < n; i++) o[i] = i;
  for (size_t i = n - 1; i > 0; i--) {
    size_t j = (size_t)rand_r(seed) % (i + 1);
    size_t k = o[i]; o[i] = o[j]; o[j] = k;
  }
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 4096;
  int reps = argc > 2 ? atoi(argv[2]) : 5;
  uint64_t *t = malloc(n * sizeof *t);
  size_t *order = malloc(n * sizeof *order);
  unsigned seed = 2026;
  src = aligned_alloc(PAGE, n * PAGE);
  for (size_t i = 0; i < n * PAGE; i++) src[i] = (char)(i * 131 + 7);
  printf("method,rep,pages,p10_ns,p25_ns,median_ns,p75_ns,p90_ns,mean_ns\n");
  for (int rep = 0; rep < reps; rep++) {
    /* ---- userfaultfd + UFFDIO_COPY */
    uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
    if (uffd < 0) { perror("userfaultfd"); return 1; }
    struct uffdio_api api = {.api = UFFD_API, .features = 0};
    if (ioctl((int)uffd, UFFDIO_API, &api) < 0) { perror("UFFDIO_API"); return 1; }
    area = mmap(NULL, n * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    struct uffdio_register reg = {.range = {.start = (unsigned long)area, .len = n * PAGE}, .mode = UFFDIO_REGISTER_MODE_MISSING};
    if (ioctl((int)uffd, UFFDIO_REGISTER, &reg) < 0) { perror("UFFDIO_REGISTER"); return 1; }
    stop_handler = 0;
    pthread_t th;
    pthread_create(&th, NULL, handler, NULL);
    shuffle(order, n, &seed);
    volatile char sink = 0;
    for (size_t i = 0; i < n; i++) {
      char *p = area + order[i] * PAGE;
      uint64_t t0 = now_ns();
      sink += *(volatile char *)p;
      t[i] = now_ns() - t0;
    }
    for (size_t i = 0; i < n; i++)  /* check the copied contents */
      if (area[i * PAGE + 5] != src[i * PAGE + 5]) { fprintf(stderr, "bad copy at page %zu\n", i); return 1; }
    stop_handler = 1;
    pthread_join(th, NULL);
    report("uffd_copy", rep, t, n);
    munmap(area, n * PAGE);
    close((int)uffd);
    /* ---- zero-fill minor fault */
    area = mmap(NULL, n * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    madvise(area, n * PAGE, MADV_NOHUGEPAGE);
    shuffle(order, n, &seed);
    for (size_t i = 0; i < n; i++) {
      char *p = area + order[i] * PAGE;
      uint64_t t0 = now_ns();
      *(volatile char *)p = 1;
      t[i] = now_ns() - t0;
    }
    report("minor_zero", rep, t, n);
    /* ---- hit (timer overhead) on the now-mapped pages */
    for (size_t i = 0; i < n; i++) {
      char *p = area + order[i] * PAGE;
      uint64_t t0 = now_ns();
      sink += *(volatile char *)p;
      t[i] = now_ns() - t0;
    }
    report("touch_hit", rep, t, n);
    /* ---- 4 KiB memcpy from the source into the (resident) area */
    for (size_t i = 0; i < n; i++) {
      uint64_t t0 = now_ns();
      memcpy(area + order[i] * PAGE, src + i * PAGE, PAGE);
      __asm__ volatile("" ::: "memory");
      t[i] = now_ns() - t0;
    }
    report("memcpy_4k", rep, t, n);
    munmap(area, n * PAGE);
    (void)sink;
  }
  return 0;
}
