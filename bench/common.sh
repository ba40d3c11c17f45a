#!/usr/bin/env bash
# Sourced by the bench scripts (run.sh, resp.sh): the processes they start (PIDS, killed by teardown on exit), log,
# and replace_section NAME SECTION_FILE, which puts the file (beginning with "<!-- NAME:begin" and ending with
# "<!-- NAME:end -->") in place of that section of bench/RESULTS.md, or appends it.

PIDS=()
teardown() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap teardown EXIT
trap 'exit 130' INT TERM
log() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }

replace_section() { # name section-file
  local name=$1 section=$2 results tmp
  results=$(dirname "${BASH_SOURCE[0]}")/RESULTS.md
  tmp=$(mktemp)
  if grep -q "<!-- $name:begin" "$results"; then
    awk -v f="$section" -v b="<!-- $name:begin" -v e="<!-- $name:end -->" '
      index($0, b) == 1 { while ((getline l < f) > 0) print l; skip = 1; next }
      index($0, e) == 1 { skip = 0; next }
      !skip { print }' "$results" > "$tmp"
  else
    { cat "$results"; echo; cat "$section"; } > "$tmp"
  fi
  cp "$tmp" "$results"
  rm -f "$tmp"
}
