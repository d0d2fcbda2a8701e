#!/bin/bash
# Wait (at most $1 s) for run24-launch.sh's two jobs; then pack the logs and caches into $OUT.
W=/tmp/v24; lim=${1:-540}; s=$(date +%s)
while (( $(date +%s) - s < lim )) && ! { [ -e $W/w80.rc ] && [ -e $W/w40.rc ]; }; do sleep 5; done
echo "elapsed since launch: $(( $(date +%s) - $(cat $W/t0) )) s"
cd $W; for j in w80 w40; do echo "== $j rc: $(cat $j.rc 2>/dev/null || echo running)"; grep -E "C_d =|ERROR|error" $j.log | cut -c1-200 | tail -3; grep DEBUG $j.log | tail -1 | cut -c1-200; done
tar czf $OUT/logs.tgz *.log *.out *.rc devices.txt c-* 2>/dev/null; ls -la $OUT
