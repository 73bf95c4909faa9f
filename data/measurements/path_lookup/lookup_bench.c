/* Path lookup cost per directory component on tmpfs (PCM Planner, issue 39).
 *
 * stat() of a file d one-letter directories deep below a private directory in /dev/shm, d in DEPTHS.
 * Per run and depth: REPS calls timed with CLOCK_THREAD_CPUTIME_ID (CPU time of the thread, user +
 * system: the 2-core build machine is shared, so wall time would count waits for a core); per call =
 * time / REPS. The per-component cost is the least-squares slope of the per-call time over the depth
 * (the constant part -- system call, the base path's own components -- cancels). Every lookup hits the
 * dentry cache (the same path again and again), as the repeated opens of a Filebench run do.
 *
 *   cc -O2 -o /tmp/lookup_bench data/measurements/path_lookup/lookup_bench.c
 *   /tmp/lookup_bench 7 200000 > data/measurements/path_lookup/lookup_runs.csv
 * Output: run,depth,reps,ns_per_call
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>

static const int DEPTHS[] = {1, 2, 4, 8, 16, 32};
#define ND (int)(sizeof DEPTHS / sizeof DEPTHS[0])

static double cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 7;
  long reps = argc > 2 ? atol(argv[2]) : 200000;
  char base[] = "/dev/shm/pcm_lookup_XXXXXX";
  if (!mkdtemp(base)) { perror("mkdtemp"); return 1; }
  static char paths[ND][4096];
  char dir[4096];
  for (int k = 0; k < ND; k++) {
    strcpy(dir, base);
    for (int i = 0; i < DEPTHS[k]; i++) {
      strcat(dir, "/d");
      mkdir(dir, 0700);
    }
    snprintf(paths[k], sizeof paths[k], "%s/f", dir);
    int fd = open(paths[k], O_CREAT | O_WRONLY, 0600);
    if (fd < 0) { perror("open"); return 1; }
    close(fd);
  }
  struct stat st;
  printf("run,depth,reps,ns_per_call\n");
  for (int r = 1; r <= runs; r++) {
    for (int k = 0; k < ND; k++) {
      for (int i = 0; i < 1000; i++) stat(paths[k], &st);
      double t0 = cpu_ns();
      for (long i = 0; i < reps; i++) stat(paths[k], &st);
      double dt = cpu_ns() - t0;
      printf("%d,%d,%ld,%.1f\n", r, DEPTHS[k], reps, dt / reps);
    }
  }
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf %s", base);
  return system(cmd);
}
