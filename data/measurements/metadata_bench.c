/* File-metadata system-call latency microbenchmark for PCM Planner's Filebench model (Apache-2.0).
 *
 * Measures the mean latency [ns] of the metadata system calls behind Filebench's flowops, on an
 * in-memory file system (tmpfs), i.e. the CPU / VFS cost with no device access:
 *   open   : open(O_RDWR) of an existing file        (flowop openfile)
 *   close  : close() of that descriptor               (flowop closefile)
 *   stat   : stat() of an existing file               (flowop statfile)
 *   create : open(O_CREAT|O_EXCL) + close of a new file (flowop createfile)
 *   unlink : unlink() of an existing empty file       (flowop deletefile)
 *   fsync  : fsync() of a clean tmpfs file            (system-call floor of flowop fsync)
 * The files live in one directory of N files (default 10000), opened in a scrambled order.
 * Build & run: gcc -O2 -o /tmp/mdb metadata_bench.c && /tmp/mdb /dev/shm > metadata_latency_run.csv
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define NFILES 10000

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static char paths[NFILES][256];
static int fds[NFILES];

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : "/dev/shm";
  char d[256];
  snprintf(d, sizeof d, "%s/pcm_planner_mdbench.%d", dir, (int)getpid());
  if (mkdir(d, 0700) != 0) { perror("mkdir"); return 1; }
  for (int i = 0; i < NFILES; i++) snprintf(paths[i], sizeof paths[i], "%s/f%06d", d, i);
  unsigned long long x = 88172645463325252ull;
  int order[NFILES];
  for (int i = 0; i < NFILES; i++) order[i] = i;
  for (int i = NFILES - 1; i > 0; i--) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    int j = (int)(x % (unsigned long long)(i + 1));
    int t = order[i]; order[i] = order[j]; order[j] = t;
  }
  double t0 = now_ns();
  for (int i = 0; i < NFILES; i++) {
    int fd = open(paths[order[i]], O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0) { perror("create"); return 1; }
    close(fd);
  }
  double create = (now_ns() - t0) / NFILES;
  t0 = now_ns();
  for (int i = 0; i < NFILES; i++) {
    fds[i] = open(paths[order[i]], O_RDWR);
    if (fds[i] < 0) { perror("open"); return 1; }
  }
  double opn = (now_ns() - t0) / NFILES;
  t0 = now_ns();
  for (int i = 0; i < NFILES; i++) fsync(fds[i]);
  double fsy = (now_ns() - t0) / NFILES;
  t0 = now_ns();
  for (int i = 0; i < NFILES; i++) close(fds[i]);
  double cls = (now_ns() - t0) / NFILES;
  struct stat st;
  t0 = now_ns();
  for (int i = 0; i < NFILES; i++) stat(paths[order[(i * 7919) % NFILES]], &st);
  double sta = (now_ns() - t0) / NFILES;
  t0 = now_ns();
  for (int i = 0; i < NFILES; i++) unlink(paths[order[i]]);
  double unl = (now_ns() - t0) / NFILES;
  rmdir(d);
  printf("op,latency_ns\nopen,%.1f\nclose,%.1f\nstat,%.1f\ncreate,%.1f\nunlink,%.1f\nfsync,%.1f\n",
         opn, cls, sta, create, unl, fsy);
  return 0;
}
