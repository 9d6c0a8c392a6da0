#!/bin/sh
# Capture tests/logdata/rsync-av.log: the output (stdout and stderr) of `rsync -av` copying a project tree
# of ~400 files into a backup directory, run as the unprivileged user nobody so that permissions bite:
# two unreadable files, an unreadable directory, a destination directory it may not write, a dangling
# symlink (copied as a link) and a hard-linked file. rsync exits 23 (partial transfer).
# usage: scripts/logdata/rsync_av.sh   (as root; installs rsync with apt-get if missing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
command -v rsync >/dev/null 2>&1 || apt-get install -y -q rsync >/dev/null
tmp=$(mktemp -d /tmp/rtk-rsync.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
src="$tmp/site"; dst="$tmp/backup"
for m in api billing catalog common reports search users worker; do
  mkdir -p "$src/src/$m" "$src/tests/$m"
  n=1
  while [ $n -le 24 ]; do
    printf '"""%s module %s."""\n\nVALUE = %s\n' "$m" "$n" "$n" > "$src/src/$m/part_$n.py"
    [ $((n % 2)) -eq 0 ] && printf 'def test_%s():\n    assert True\n' "$n" > "$src/tests/$m/test_part_$n.py"
    n=$((n+1))
  done
  printf '' > "$src/src/$m/__init__.py"
done
mkdir -p "$src/static/img" "$src/secrets" "$src/docs"
n=1; while [ $n -le 24 ]; do head -c $((n * 700)) /dev/urandom > "$src/static/img/icon_$n.png"; n=$((n+1)); done
printf '# Site\n' > "$src/README.md"; printf '[tool]\nname = "site"\n' > "$src/pyproject.toml"
printf 'token=abc\n' > "$src/secrets/prod.env"; chmod 700 "$src/secrets"
printf 'x\n' > "$src/docs/draft.md"; chmod 000 "$src/docs/draft.md"
printf 'y\n' > "$src/src/billing/ledger.db"; chmod 000 "$src/src/billing/ledger.db"
ln -s ../missing/config.yaml "$src/docs/config.yaml"
ln "$src/README.md" "$src/docs/README.md"
mkdir -p "$dst/site/static"; chown -R nobody "$src" "$dst"
chown root "$src/secrets" "$src/docs/draft.md" "$src/src/billing/ledger.db" "$dst/site/static"
chmod 555 "$dst/site/static"
set +e
cd "$tmp" && setpriv --reuid=nobody --regid=nogroup --clear-groups rsync -av site backup/ > "$tmp/out.log" 2>&1
code=$?
set -e
cp "$tmp/out.log" "$repo/tests/logdata/rsync-av.log"
python3 "$here/record.py" rsync-av --kind output --argv '["rsync", "-av", "site", "backup/"]' \
  --command "rsync -av site backup/ (as nobody, 2>&1)" --exit $code \
  --script scripts/logdata/rsync_av.sh --tool "$(rsync --version | head -1)"
