#!/bin/sh
# One Billion Row Challenge demo. Run from the release folder: sh demo/1brc/run-1brc.sh
set -eu
./target/release/velo-1brc --input demo/1brc/measurements.txt
