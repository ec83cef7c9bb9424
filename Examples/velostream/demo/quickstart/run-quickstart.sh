#!/bin/sh
# Quickstart: validates the example config with the CLI. Run from the release folder.
set -eu
./target/release/velo-cli validate configs/quickstart.yaml
