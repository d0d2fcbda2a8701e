#!/bin/bash
# Wait (at most $1 s) for the background studies of launch.sh; report progress; when both are
# done, pack the reports and logs into $OUT/out.tgz.
W=/tmp/vrun; lim=${1:-560}; s=$(date +%s)
while (( $(date +%s) - s < lim )); do
  [ -e $W/confined_square.rc ] && [ -e $W/square_low_speed.rc ] && break
  sleep 15
done
echo "elapsed since launch: $(( $(date +%s) - $(cat $W/t0) )) s"
nvidia-smi --query-gpu=index,utilization.gpu,memory.used --format=csv,noheader
for c in confined_square square_low_speed; do
  echo "== $c rc: $(cat $W/$c.rc 2>/dev/null || echo running)"
  grep -E "C_d =|ERROR|error|WARN" $W/$c.log | cut -c1-330 | tail -12
done
cp $W/*.log $OUT/ 2>/dev/null
if [ -e $W/confined_square.rc ] && [ -e $W/square_low_speed.rc ]; then
  cat $W/*.out
  cd $W && tar czf $OUT/out.tgz rep *.log *.out *.rc && echo PACKED
fi
