#!/bin/bash
# Wait (at most $1 s) until run23-launch.sh's study has ended; then, and also when the wait
# runs out, pack the run cache, log and report into $OUT.
W=/tmp/v23; lim=${1:-540}; s=$(date +%s)
while (( $(date +%s) - s < lim )) && [ ! -e $W/sup.rc ]; do sleep 10; done
echo "elapsed since launch: $(( $(date +%s) - $(cat $W/t0) )) s; rc: $(cat $W/sup.rc 2>/dev/null || echo running)"
nvidia-smi --query-gpu=index,utilization.gpu,memory.used --format=csv,noheader
grep -E "C_d =|ERROR|error|WARN|left|diverg" $W/sup.log | cut -c1-260 | tail -8
cd $W && tar czf $OUT/cache.tgz cache && cp sup.log $OUT/ && { cp sup.out $OUT/ 2>/dev/null; tar czf $OUT/rep.tgz rep; }
find cache/confined_square -name '*.json' 2>/dev/null | wc -l
