#!/bin/sh
# Measure the file-cache insertion cost (see README.md). Needs root (losetup, zram).
# Usage: sh run.sh [RUNS] [REPS]   -> insertion_runs.csv (every run) and insertion_cost.csv (summary)
set -eu
RUNS=${1:-11}
REPS=${2:-2000}
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
gcc -O2 -Wall -o "$TMP/insertion" "$HERE/insertion.c"
# device 1: loop device over a 64 MiB file in tmpfs (buffered backing: memory speed, 512 B sectors)
dd if=/dev/urandom of=/dev/shm/insertion_loop.img bs=1M count=64 status=none
LOOP=$(losetup -f --show --direct-io=off /dev/shm/insertion_loop.img)
# device 2: zram (64 MiB of incompressible data: stored uncompressed, 4 KiB sectors), if free
ZRAM=""
if [ -w /sys/block/zram0/disksize ] && [ "$(cat /sys/block/zram0/initstate)" = 0 ]; then
  echo 64M > /sys/block/zram0/disksize
  dd if=/dev/urandom of=/dev/zram0 bs=1M count=64 oflag=direct status=none
  ZRAM=/dev/zram0
fi
echo "device,run,size_bytes,metric,median_ns,reps" > "$HERE/insertion_runs.csv"
r=1
while [ "$r" -le "$RUNS" ]; do
  "$TMP/insertion" "$LOOP" "$r" "$REPS" | tail -n +2 | sed 's/^/loop-tmpfs,/' >> "$HERE/insertion_runs.csv"
  if [ -n "$ZRAM" ]; then
    "$TMP/insertion" "$ZRAM" "$r" "$REPS" | tail -n +2 | sed 's/^/zram,/' >> "$HERE/insertion_runs.csv"
  fi
  r=$((r + 1))
done
losetup -d "$LOOP"
rm -f /dev/shm/insertion_loop.img
if [ -n "$ZRAM" ]; then echo 1 > /sys/block/zram0/reset; fi
rm -rf "$TMP"
python3 "$HERE/summarize.py" "$HERE/insertion_runs.csv" > "$HERE/insertion_cost.csv"
