#!/usr/bin/env bash
# Speed of reading and replaying PDN on real games (BENCHMARKS.md, "Notation").
#
# Concatenates the International game files of the corpus (../shared/corpus, or $DAMA_CORPUS;
# FAIL and problem files left out) N times (default 60, about 74 MB) into a temporary file,
# then times `dama pdn check --syntax-only` (reading only) and `dama pdn check` (reading and
# replaying every move with validation). Prints the program's own summary (wall-clock rates)
# and the user CPU time, which a loaded machine disturbs less.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${DAMA_CORPUS:-../shared/corpus}
[ -d "$corpus" ] || corpus=../../shared/corpus
[ -d "$corpus/international" ] || { echo "no corpus: set DAMA_CORPUS" >&2; exit 1; }
n=${1:-60}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t files < <(ls "$corpus"/international/*.pdn | grep -v -e FAIL -e problems)
for _ in $(seq "$n"); do cat "${files[@]}"; done > "$tmp/games.pdn"
cargo build --release -q -p dama-cli
bytes=$(stat -c %s "$tmp/games.pdn")
for mode in --syntax-only --replay; do
  flag=$([ "$mode" = --syntax-only ] && echo --syntax-only || true)
  out=$( { /usr/bin/time -f "%U" ./target/release/dama pdn check -q $flag "$tmp/games.pdn" \
           | tail -1; } 2>&1 || true)
  user=$(echo "$out" | grep -E '^[0-9.]+$' | tail -1)
  games=$(echo "$out" | grep -o 'total: [0-9]*' | grep -o '[0-9]*')
  echo "$mode: $(echo "$out" | grep total:)"
  awk -v b="$bytes" -v g="$games" -v u="$user" -v m="$mode" \
    'BEGIN { printf "%s: %.2f s user CPU: %.0f MB/s, %.0f games/s\n", m, u, b / u / 1e6, g / u }'
done
