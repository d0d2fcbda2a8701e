#!/usr/bin/env bash
# Run 62: the main job end to end, the forces rows read with one wait (new) vs one blocking
# read per field (r55 binary), with and without the per-step forces.
set -u
export SIMPLETS_KERNEL_CACHE=/tmp/kc62 RUST_LOG=info
R=$OUT/r62; mkdir -p "$R"; S=$R/summary.txt; : > "$S"
sed 's/"output": { "interval": 100 }/"output": { "interval": 100, "forces_every": 0 }/' configs/default.json > /tmp/noforces.json
grep -q forces_every /tmp/noforces.json || echo "sed failed" >> "$S"
for t in new r55; do B=.devbin/simplets; [ $t = r55 ] && B=.devbin/simplets-55; $B build-kernels configs/default.json > /dev/null 2>&1; done
for rep in 1 2 3 4; do
  for t in new r55; do
    B=.devbin/simplets; [ $t = r55 ] && B=.devbin/simplets-55
    for c in configs/default.json /tmp/noforces.json; do
      tag=$(basename $c .json)
      d=$(mktemp -d)
      timeout 60 $B run $c --backend opencl --out "$d" --force > /dev/null 2> "$R/$t-$tag-$rep.txt"
      echo "$t $tag $rep: $(grep -h 'loop-2 iterations in' "$R/$t-$tag-$rep.txt" | sed 's/.*steps, //; s/; wrote.*nc;//')" >> "$S"
      rm -rf "$d"
    done
  done
done
echo "done in ${SECONDS} s" >> "$S"; cat "$S"
cd "$OUT" && tar czf r62.tgz r62
