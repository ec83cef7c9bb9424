#!/bin/sh
# Trading demo: starts the SQL server on the demo config. Run from the release folder.
set -eu
./target/release/velo-sql --config demo/trading/trading.yaml
