#!/bin/sh
# Capture tests/logdata/rsync-docs.log: the output (stdout and stderr) of `rsync -av handbook mirror/` copying a
# documentation site (~310 files: 230 blog posts, 70 guides, a small assets/ tree, two top-level files, a guide
# with a blank in its name), run as the unprivileged user nobody, with one post it may not read (rsync exits 23).
# Session "foldgoals" wrote this scenario and declared its facts (the first line, the error line, the top-level
# files, every line of the small assets/ tree, the oddly named guide, the summary) before rtk's fold ran on it.
# usage: scripts/logdata/rsync_docs.sh   (as root; installs rsync with apt-get if missing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
command -v rsync >/dev/null 2>&1 || apt-get install -y -q rsync >/dev/null
tmp=$(mktemp -d /tmp/rtk-rsync-docs.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
src="$tmp/handbook"
mkdir -p "$src/content/blog" "$src/content/guides" "$src/assets/fonts"
n=1
while [ $n -le 230 ]; do
  printf -- '---\ntitle: Post %s\n---\nBody %s\n' "$n" "$n" > "$src/content/blog/post-$(printf %03d $n).md"
  [ $n -le 70 ] && printf '# Guide %s\n' "$n" > "$src/content/guides/guide-$(printf %02d $n).md"
  n=$((n+1))
done
printf '# Getting started\n' > "$src/content/guides/getting started.md"
head -c 4000 /dev/urandom > "$src/assets/fonts/inter.woff2"
head -c 3000 /dev/urandom > "$src/assets/fonts/mono.woff2"
head -c 1000 /dev/urandom > "$src/assets/favicon.ico"
printf 'MIT\n' > "$src/LICENSE"; printf 'title = "Handbook"\n' > "$src/config.toml"
chown -R nobody "$src"; chown root "$src/content/blog/post-077.md"; chmod 600 "$src/content/blog/post-077.md"
mkdir -p "$tmp/mirror"; chown nobody "$tmp/mirror"
set +e
cd "$tmp" && setpriv --reuid=nobody --regid=nogroup --clear-groups rsync -av handbook mirror/ > "$tmp/out.log" 2>&1
code=$?
set -e
cp "$tmp/out.log" "$repo/tests/logdata/rsync-docs.log"
python3 "$here/record.py" rsync-docs --kind output --argv '["rsync", "-av", "handbook", "mirror/"]' \
  --command "rsync -av handbook mirror/ (as nobody, 2>&1)" --exit $code \
  --script scripts/logdata/rsync_docs.sh --tool "$(rsync --version | head -1)"
