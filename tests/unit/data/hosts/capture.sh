#!/usr/bin/env bash
# Regenerates the fio fixtures of tests/unit/hosts/hosts_merge_test.cpp from real fio runs: three fio
# servers on unix sockets in a scratch folder, one `fio --client` run across them with json+ output
# and every I/O's latency logged (psync reads of a file in /dev/shm, a different block size per
# host so the hosts' latencies differ), then a short timed run with 1 s interval logs.
#   tests/unit/data/hosts/capture.sh   (writes beside itself; needs fio)
set -euo pipefail
out=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /dev/shm/diskvet-fleet-capture.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
cd "$work"
truncate -s 1G data
for h in h1 h2 h3; do
  fio --server=sock:"$work/$h.sock" >/dev/null 2>&1 & pids+=($!)
done
for _ in $(seq 50); do [ -S h1.sock ] && [ -S h2.sock ] && [ -S h3.sock ] && break; sleep 0.1; done
n=0
for bs in 4k 64k 1m; do
  n=$((n + 1))
  cat >job$n.fio <<JOB
[global]
ioengine=psync
filename=$work/data
rw=randread
bs=$bs
number_ios=2000
lat_percentiles=1
percentile_list=50:90:99:99.9
write_lat_log=lat
log_avg_msec=0
[h$n]
JOB
done
fio --output-format=json+ --client=sock:h1.sock job1.fio --client=sock:h2.sock job2.fio --client=sock:h3.sock job3.fio >"$out/client_3hosts.txt"
for h in h1 h2 h3; do cut -d, -f2 "lat_lat.1.log.$h.sock" | tr -d ' ' >"$out/lat_$h.txt"; done
cat >timed.fio <<JOB
[global]
ioengine=null
size=1g
rw=randread
bs=4k
iodepth=4
time_based=1
runtime=3
ramp_time=1
startdelay=1
lat_percentiles=1
percentile_list=50:99
write_iops_log=iops
log_avg_msec=1000
log_unix_epoch=1
group_reporting=1
[job]
numjobs=2
JOB
fio --output-format=json+ --client=sock:h1.sock timed.fio --client=sock:h2.sock timed.fio >"$out/client_timed.txt"
for f in iops_iops.*.log.*; do cp "$f" "$out/$f"; done
echo "capture: fixtures written to $out"
