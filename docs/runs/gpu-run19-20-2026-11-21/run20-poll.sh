#!/bin/bash
# Wait (at most $1 s) for launch2.sh's study; when it is done, pack report and log into $OUT.
W=/tmp/vrun; lim=${1:-560}; s=$(date +%s); c=square_low_speed
while (( $(date +%s) - s < lim )); do [ -e $W/$c.rc ] && break; sleep 10; done
echo "elapsed since launch: $(( $(date +%s) - $(cat $W/t0) )) s"
nvidia-smi --query-gpu=index,utilization.gpu,memory.used --format=csv,noheader
echo "== $c rc: $(cat $W/$c.rc 2>/dev/null || echo running)"
grep -E "C_d =|ERROR|error|WARN" $W/$c.log | cut -c1-300 | tail -12
cp $W/$c.log $OUT/ 2>/dev/null
if [ -e $W/$c.rc ]; then cat $W/$c.out; cd $W && tar czf $OUT/out.tgz rep *.log *.out *.rc && echo PACKED; fi
