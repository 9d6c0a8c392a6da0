#!/bin/sh
# Capture tests/logdata/nginx-methods.log: nginx's access log (combined format) after a bounded local load on
# 127.0.0.1 of 400 GET requests over a few static pages, with a monitor's 3 HEAD requests, one OPTIONS and one
# POST (to a static file) among them, in that order at fixed places. Session "foldgoals" wrote this scenario and
# declared its facts (every request whose method is not GET, every 4xx/5xx line, the first line) before rtk's
# fold ran on it.
# usage: scripts/logdata/nginx_methods.sh   (as root; installs nginx-light and curl with apt-get if missing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
command -v nginx >/dev/null 2>&1 || apt-get install -y -q nginx-light >/dev/null
command -v curl >/dev/null 2>&1 || apt-get install -y -q curl >/dev/null
port=18091
tmp=$(mktemp -d /tmp/rtk-nginx-methods.XXXXXX)
cleanup() { [ -f "$tmp/nginx.pid" ] && kill "$(cat "$tmp/nginx.pid")" 2>/dev/null; sleep 0.5; rm -rf "$tmp"; }
trap cleanup EXIT
chmod 755 "$tmp"
mkdir -p "$tmp/html/docs" "$tmp/logs"
echo '<h1>docs</h1>' > "$tmp/html/index.html"
for p in intro install usage faq; do echo "<h1>$p</h1>" > "$tmp/html/docs/$p.html"; done
head -c 3000 /dev/urandom > "$tmp/html/site.css"
chmod -R a+rX "$tmp/html"
cat > "$tmp/nginx.conf" <<CONF
worker_processes 1;
pid $tmp/nginx.pid;
error_log $tmp/logs/error.log;
events { worker_connections 64; }
http {
  access_log $tmp/logs/access.log combined;
  client_body_temp_path $tmp/body; proxy_temp_path $tmp/proxy;
  fastcgi_temp_path $tmp/fcgi; uwsgi_temp_path $tmp/uwsgi; scgi_temp_path $tmp/scgi;
  server { listen 127.0.0.1:$port; root $tmp/html; }
}
CONF
nginx -p "$tmp" -c "$tmp/nginx.conf"
sleep 0.5
base="http://127.0.0.1:$port"
i=1
while [ $i -le 400 ]; do
  case $((i % 6)) in
    0) p=/ ;; 1) p=/docs/intro.html ;; 2) p=/docs/install.html ;; 3) p=/site.css ;; 4) p=/docs/usage.html ;; *) p=/docs/faq.html ;;
  esac
  curl -s -o /dev/null -A "docs-reader/2.1" "$base$p"
  case $i in
    90|210|330) curl -s -o /dev/null -I -A "uptime-probe/1.4" "$base/" ;;
    150) curl -s -o /dev/null -X OPTIONS -A "docs-reader/2.1" "$base/docs/usage.html" ;;
    260) curl -s -o /dev/null -X POST -d q=1 -A "docs-reader/2.1" "$base/docs/faq.html" ;;
  esac
  i=$((i+1))
done
sleep 0.5
cp "$tmp/logs/access.log" "$repo/tests/logdata/nginx-methods.log"
python3 "$here/record.py" nginx-methods --kind log-file --argv '["cat", "/var/log/nginx/access.log"]' \
  --command "cat logs/access.log (nginx under a bounded local load)" --exit 0 \
  --script scripts/logdata/nginx_methods.sh --tool "$(nginx -v 2>&1)" --tool "$(curl --version | head -1)"
