/* ext4 fsync cost and jbd2 group commit vs threads, for models/workload_fit.py.
 * Usage: fsync_bench DIR JBD2_INFO [seconds_per_point]
 * Each of T threads (T = 1,2,4,...,32) loops over its own 64 files: append 8 KiB
 * (the mean of Filebench varmail's appendfilerand iosize=16k) and fsync().
 * Prints per thread count: median fsync latency [ns], fsyncs per second, and the jbd2
 * transactions committed during the point (from /proc/fs/jbd2/<dev>/info), so that
 * fsyncs_per_commit = batch size of jbd2 group commit; caller_cpu_ns_per_fsync = user+sys CPU of
 * the benchmark threads (write + fsync, getrusage) per fsync (kjournald2 and loop workers excluded). Made for PCM Planner (Apache-2.0). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>

#define NF 64
#define MAXS 400000
static const char *dir;
static double secs = 2.0;
static volatile int stop;
typedef struct { int id; long n; double *lat; } arg_t;

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e9 + t.tv_nsec; }

static void *worker(void *p) {
    arg_t *a = p; char path[512], buf[8192]; memset(buf, 'x', sizeof buf);
    int fds[NF];
    for (int i = 0; i < NF; i++) {
        snprintf(path, sizeof path, "%s/t%d_f%d", dir, a->id, i);
        fds[i] = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_APPEND, 0644);
        if (fds[i] < 0) { perror("open"); exit(1); }
    }
    long k = 0;
    while (!stop) {
        int fd = fds[k % NF];
        if (write(fd, buf, sizeof buf) != sizeof buf) { perror("write"); exit(1); }
        double t0 = now();
        if (fsync(fd)) { perror("fsync"); exit(1); }
        if (a->n < MAXS) a->lat[a->n++] = now() - t0;
        k++;
        if (k % (NF * 16) == 0) for (int i = 0; i < NF; i++) ftruncate(fds[i], 0);
    }
    for (int i = 0; i < NF; i++) close(fds[i]);
    return NULL;
}

static long commits(const char *info) {
    FILE *f = fopen(info, "r"); long n = -1;
    if (f) { if (fscanf(f, "%ld transactions", &n) != 1) n = -1; fclose(f); }
    return n;
}
static int cmp(const void *x, const void *y) { double a = *(double *)x, b = *(double *)y; return (a > b) - (a < b); }

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s DIR JBD2_INFO [seconds]\n", argv[0]); return 2; }
    dir = argv[1]; if (argc > 3) secs = atof(argv[3]);
    printf("threads,fsync_median_ns,fsyncs_per_s,commits,fsyncs_per_commit,caller_cpu_ns_per_fsync\n");
    for (int T = 1; T <= 32; T *= 2) {
        pthread_t th[32]; arg_t a[32];
        sync();
        long c0 = commits(argv[2]);
        struct rusage r0, r1; getrusage(RUSAGE_SELF, &r0);
        stop = 0; double t0 = now();
        for (int i = 0; i < T; i++) { a[i].id = i; a[i].n = 0; a[i].lat = malloc(sizeof(double) * MAXS); pthread_create(&th[i], NULL, worker, &a[i]); }
        usleep((useconds_t)(secs * 1e6)); stop = 1;
        for (int i = 0; i < T; i++) pthread_join(th[i], NULL);
        double el = (now() - t0) / 1e9;
        getrusage(RUSAGE_SELF, &r1);
        double cpu = (r1.ru_utime.tv_sec - r0.ru_utime.tv_sec + r1.ru_stime.tv_sec - r0.ru_stime.tv_sec) * 1e9 + (r1.ru_utime.tv_usec - r0.ru_utime.tv_usec + r1.ru_stime.tv_usec - r0.ru_stime.tv_usec) * 1e3;
        long c1 = commits(argv[2]);
        long tot = 0; for (int i = 0; i < T; i++) tot += a[i].n;
        double *all = malloc(sizeof(double) * tot); long m = 0;
        for (int i = 0; i < T; i++) { memcpy(all + m, a[i].lat, sizeof(double) * a[i].n); m += a[i].n; free(a[i].lat); }
        qsort(all, tot, sizeof(double), cmp);
        long nc = c1 - c0;
        printf("%d,%.0f,%.0f,%ld,%.2f,%.0f\n", T, all[tot / 2], tot / el, nc, nc > 0 ? (double)tot / nc : 0.0, cpu / tot);
        free(all);
        fflush(stdout);
    }
    return 0;
}
