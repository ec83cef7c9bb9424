#!/bin/sh
# One Billion Row Challenge, small: writes demo/data/measurements.txt (ignored by git; a few
# hundred MB with ROWS=10000000) and tallies it. Run from the workspace root.
set -eu
rows="${ROWS:-100000}"
mkdir -p demo/data
awk -v rows="$rows" 'BEGIN { srand(1); split("Oslo Lima Tunis Hanoi Perth", s, " ");
    for (i = 0; i < rows; i++) printf "%s;%.1f\n", s[1 + int(rand() * 5)], rand() * 80 - 30 }' > demo/data/measurements.txt
cargo run --quiet --release -p tally -- "SELECT *" < demo/data/measurements.txt
