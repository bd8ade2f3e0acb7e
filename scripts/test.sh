#!/usr/bin/env bash
# The project's test command (README "Testing"). Runs everything CI runs:
# formatting, lints, the Rust test suite and, when web/ exists, the browser tests.
# Deep perft tables and other slow checks are opt-in: DAMA_DEEP=1 scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings

echo "== cargo test"
cargo test --workspace

if [ -f web/package.json ]; then
  echo "== web tests"
  (cd web && npm test)
fi
echo "== all tests passed"
