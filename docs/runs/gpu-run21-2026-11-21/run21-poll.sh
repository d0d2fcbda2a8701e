#!/bin/bash
# Wait (at most $1 s) until run21-launch.sh's four jobs have ended; then, and also when the
# wait runs out, pack what exists: the run cache, logs and reports into $OUT.
W=/tmp/v21; lim=${1:-540}; s=$(date +%s); jobs="sup80 low80 suprest lowrest"
done_all() { for j in $jobs; do [ -e $W/$j.rc ] || return 1; done; }
while (( $(date +%s) - s < lim )) && ! done_all; do sleep 10; done
echo "elapsed since launch: $(( $(date +%s) - $(cat $W/t0) )) s"
nvidia-smi --query-gpu=index,utilization.gpu,memory.used --format=csv,noheader
for j in $jobs; do
    echo "== $j rc: $(cat $W/$j.rc 2>/dev/null || echo running)"
    grep -E "C_d =|ERROR|error:|WARN|left$" $W/$j.log | cut -c1-260 | tail -4
done
cd $W && tar czf $OUT/cache.tgz cache && tar czf $OUT/logs.tgz *.log *.out *.rc devices.txt rep 2>/dev/null
ls -la $OUT; find cache -name '*.json' | wc -l
