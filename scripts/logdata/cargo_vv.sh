#!/bin/sh
# Capture tests/logdata/cargo-build-vv.log: `cargo build -vv` (2>&1) of a small crate depending on
# serde_json and itoa. crates.io is not reachable from this machine, so the dependencies come from
# Debian's packaged crate sources (librust-*-dev, /usr/share/cargo/registry) through cargo's
# directory source replacement: real crates, real build scripts, built from a clean target dir.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
[ -d /usr/share/cargo/registry/serde_json-1.0.87 ] || apt-get install -y -q librust-serde-json-dev librust-itoa-dev >/dev/null
tmp=$(mktemp -d /tmp/rtk-cargo.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/manifest-report/src" "$tmp/manifest-report/.cargo"
cd "$tmp/manifest-report"
cat > .cargo/config.toml <<'TOML'
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "/usr/share/cargo/registry"
TOML
cat > Cargo.toml <<'TOML'
[package]
name = "manifest-report"
version = "0.1.0"
edition = "2021"

[dependencies]
serde_json = "1"
itoa = "1"
TOML
cat > src/main.rs <<'RS'
use serde_json::Value;

fn weight(v: &Value) -> u64 {
    let unused_scale = 1000;
    v["kg"].as_u64().unwrap_or(0)
}

fn main() {
    let doc: Value = serde_json::from_str(r#"[{"id": 1, "kg": 1200}, {"id": 2, "kg": 800}]"#).unwrap();
    let total: u64 = doc.as_array().unwrap().iter().map(weight).sum();
    let mut buf = itoa::Buffer::new();
    println!("total {} kg", buf.format(total));
}
RS
rc=0; CARGO_TERM_COLOR=never cargo build -vv > "$repo/tests/logdata/cargo-build-vv.log" 2>&1 || rc=$?
python3 "$here/record.py" cargo-build-vv --kind output --argv '["cargo", "build", "-vv"]' \
  --command "cargo build -vv (clean target, Debian crate sources via directory source replacement, 2>&1)" \
  --exit $rc --script scripts/logdata/cargo_vv.sh --tool "$(cargo --version)" --tool "$(rustc --version)"
