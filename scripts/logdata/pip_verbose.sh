#!/bin/sh
# Capture tests/logdata/pip-install-verbose.log: `pip install -v` (2>&1) of a few packages into a
# fresh virtualenv with no cache, one of them (pytz) built from its source distribution (--no-binary),
# so the log holds real downloads, a PEP 517 build and the install.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d /tmp/rtk-pip.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip --version >/dev/null
cd "$tmp"
rc=0
"$tmp/venv/bin/pip" install -v --no-cache-dir --disable-pip-version-check --no-binary pytz \
  requests==2.32.3 rich==13.9.4 pytz==2024.2 > "$repo/tests/logdata/pip-install-verbose.log" 2>&1 || rc=$?
python3 "$here/record.py" pip-install-verbose --kind output \
  --argv '["pip", "install", "-v", "requests==2.32.3", "rich==13.9.4", "pytz==2024.2"]' \
  --command "pip install -v --no-cache-dir --disable-pip-version-check --no-binary pytz requests==2.32.3 rich==13.9.4 pytz==2024.2 (fresh venv, 2>&1)" \
  --exit $rc --script scripts/logdata/pip_verbose.sh --tool "$("$tmp/venv/bin/pip" --version | cut -d' ' -f1-2)"
