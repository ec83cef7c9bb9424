#!/bin/sh
# Stand-in for `cargo build --release --target TRIPLE`: writes small runnable POSIX sh programs
# to target/TRIPLE/release/ so the example releases without Rust cross toolchains.
# They are NOT real velostream binaries; they only print who they are and what they were built from.
set -eu
triple="${1:?usage: build.sh TARGET-TRIPLE}"
out="target/$triple/release"
mkdir -p "$out"
suffix=""
case "$triple" in *windows*) suffix=".exe" ;; esac
for bin in velo-sql velo-cli velo-1brc; do
    file="$out/$bin$suffix"
    cat > "$file" <<PROGRAM
#!/bin/sh
# stand-in binary for the relctl example (target $triple)
echo "$bin ${RELCTL_VERSION:-dev} ($triple, commit ${RELCTL_COMMIT:-unknown}) \$*"
PROGRAM
    chmod 755 "$file"
done
echo "built stand-ins for $triple in $out"
