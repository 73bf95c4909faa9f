/* lackey_window.c - count a valgrind lackey --trace-mem=yes stream and keep one window of it.
 *
 * Reads the lackey text (stdin) to the end and prints, as one JSON object on stdout, the whole-run
 * counts: instruction fetches ("I"), loads ("L"), stores ("S"), modifies ("M": a load and a store
 * of the same address by one instruction, counted once as a data reference, as lackey reports it),
 * and the bytes loaded and stored. Data references = L + S + M, the one way the project counts them
 * (instruction fetches are never data references).
 *
 * The data references number skip .. skip+keep-1 (0-based, instruction fetches not counted) are
 * written to the binary file OUT as packed records <uint64 address, uint8 size, uint8 kind>,
 * kind 1 = load, 2 = store, 3 = modify (models/traces/core.py kinds), for lackey_post.py.
 *
 *   valgrind --tool=lackey --trace-mem=yes --log-fd=3 PROG 3>&1 >/dev/null | lackey_window SKIP KEEP OUT
 *
 * With a 4th argument "stop" it exits once the window is full (the counts then cover only the
 * references read so far, "stopped_early": true) and the caller kills valgrind.
 *
 * Build: cc -O2 -o lackey_window lackey_window.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 4 && !(argc == 5 && strcmp(argv[4], "stop") == 0)) {
    fprintf(stderr, "usage: %s SKIP KEEP OUT.bin [stop] < lackey.txt\n", argv[0]);
    return 2;
  }
  int stop = argc == 5; /* "stop": end when the window is full (whole-run counts are then partial) */
  unsigned long long skip = strtoull(argv[1], NULL, 10), keep = strtoull(argv[2], NULL, 10);
  FILE *out = fopen(argv[3], "wb");
  if (!out) { perror(argv[3]); return 1; }
  static char line[4096];
  unsigned long long n_i = 0, n_l = 0, n_s = 0, n_m = 0, b_l = 0, b_s = 0, b_m = 0, n_data = 0, kept = 0;
  unsigned long long w_stores = 0, w_store_bytes = 0, skipped_lines = 0;
  while (fgets(line, sizeof line, stdin)) {
    char *p = line;
    int kind;
    if (p[0] == 'I' && p[1] == ' ') { n_i++; continue; }
    if (p[0] != ' ' || p[2] != ' ') { skipped_lines++; continue; }
    switch (p[1]) {
      case 'L': kind = 1; break;
      case 'S': kind = 2; break;
      case 'M': kind = 3; break;
      default: skipped_lines++; continue;
    }
    char *comma;
    unsigned long long addr = strtoull(p + 3, &comma, 16);
    if (*comma != ',') { skipped_lines++; continue; }
    unsigned long sz = strtoul(comma + 1, NULL, 10);
    if (kind == 1) { n_l++; b_l += sz; }
    else if (kind == 2) { n_s++; b_s += sz; }
    else { n_m++; b_m += sz; }
    if (n_data >= skip && kept < keep) {
      unsigned char rec[10];
      uint64_t a = addr;
      memcpy(rec, &a, 8);
      rec[8] = (unsigned char)(sz > 255 ? 255 : sz);
      rec[9] = (unsigned char)kind;
      fwrite(rec, 1, 10, out);
      kept++;
      if (kind != 1) { w_stores++; w_store_bytes += sz; }
    }
    n_data++;
    if (stop && kept >= keep) break;
  }
  fclose(out);
  printf("{\"instruction_fetches\": %llu, \"loads\": %llu, \"stores\": %llu, \"modifies\": %llu, "
         "\"data_refs\": %llu, \"bytes_loaded\": %llu, \"bytes_stored\": %llu, \"bytes_modified\": %llu, "
         "\"window_skip\": %llu, \"window_refs\": %llu, \"window_writes\": %llu, \"window_bytes_written\": %llu, "
         "\"other_lines\": %llu, \"stopped_early\": %s}\n",
         n_i, n_l, n_s, n_m, n_data, b_l, b_s, b_m, skip, kept, w_stores, w_store_bytes, skipped_lines,
         stop ? "true" : "false");
  return 0;
}
