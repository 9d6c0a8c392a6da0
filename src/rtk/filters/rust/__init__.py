"""The Rust family: cargo build/check/clippy/doc/install/fmt, cargo test and nextest, rustc diagnostics."""
