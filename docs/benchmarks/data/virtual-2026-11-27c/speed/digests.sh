#!/usr/bin/env bash
# Trace digests (psmr run --digest, traces on) of every scheduler id at
# 2,000 requests and of libasync and mely at 10,000, on 16 virtual cores (a
# model's run, reference cost table), for two psmr binaries side by side.
#
#   digests.sh before=path/to/psmr after=path/to/psmr > digests-before-after.txt
set -euo pipefail
root=$(cd "$(dirname "$0")/../../../../.." && pwd)
b=${1#*=}; bl=${1%%=*}; a=${2#*=}; al=${2%%=*}
here=$(cd "$(dirname "$0")" && pwd)
# The 16 pairs of the speed runs (one list, in the 26b measure.sh), then
# the two coloring ids at 10,000 requests.
read -r -a pairs <<<"$(sed -n '/^default_pairs=(/,/^)/{/^default_pairs=(/d;/^)/d;p}' \
  "$here/../../virtual-2026-11-26b/speed/measure.sh" | tr '\n' ' ')"
pairs+=(coloring-classroom:libasync:10000 coloring-classroom:mely:10000)
digest() {
  "$1" run "$root/scenarios/$2.json" --virtual-cores 16 --requests "$3" --digest --scheduler "$4"
}
echo "# trace digests, 16 virtual cores (model runs, reference cost table), traces on: scenario scheduler [requests] | $bl | $al"
for p in "${pairs[@]}"; do
  IFS=: read -r sc id n <<<"$p"
  n=${n:-2000}
  x=$(digest "$b" "$sc" "$n" "$id")
  y=$(digest "$a" "$sc" "$n" "$id")
  if [ "$x" = "$y" ]; then same=equal; else same=DIFFERENT; fi
  echo "$sc $id ($n requests) | $x | $y | $same"
done
