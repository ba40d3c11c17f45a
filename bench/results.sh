#!/usr/bin/env bash
# Sourced by the bench scripts: replace_section NAME SECTION_FILE puts the file (which begins with
# "<!-- NAME:begin" and ends with "<!-- NAME:end -->") in place of that section of bench/RESULTS.md, or appends it.

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
