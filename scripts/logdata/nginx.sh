#!/bin/sh
# Capture tests/logdata/nginx-access.log and nginx-error.log: nginx from Debian on 127.0.0.1
# under a bounded load (a fixed list of 1,200 requests sent by curl, 4 clients in parallel):
# static pages, a small API, missing files (404), an endpoint returning 500 and a proxied
# upstream that is down (502). The error log is at level info, as on a debugging server.
# usage: scripts/logdata/nginx.sh   (as root; installs nginx-light with apt-get if missing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
command -v nginx >/dev/null 2>&1 || apt-get install -y -q nginx-light >/dev/null
port=18080
tmp=$(mktemp -d /tmp/rtk-nginx.XXXXXX)
cleanup() { [ -f "$tmp/nginx.pid" ] && kill "$(cat "$tmp/nginx.pid")" 2>/dev/null; sleep 0.5; rm -rf "$tmp"; }
trap cleanup EXIT
chmod 755 "$tmp"   # workers run as an unprivileged user: they must read html/
mkdir -p "$tmp/html/static" "$tmp/logs"
echo '<h1>shop</h1>' > "$tmp/html/index.html"
for f in app.js app.css logo.png; do head -c 2048 /dev/urandom > "$tmp/html/static/$f"; done
chmod -R a+rX "$tmp/html"
cat > "$tmp/nginx.conf" <<CONF
worker_processes 2;
pid $tmp/nginx.pid;
error_log $tmp/logs/error.log info;
events { worker_connections 64; }
http {
  access_log $tmp/logs/access.log combined;
  client_body_temp_path $tmp/body; proxy_temp_path $tmp/proxy;
  fastcgi_temp_path $tmp/fcgi; uwsgi_temp_path $tmp/uwsgi; scgi_temp_path $tmp/scgi;
  server {
    listen 127.0.0.1:$port;
    root $tmp/html;
    location = /health { return 200 "ok\n"; }
    location /api/vessels { default_type application/json; return 200 '{"vessels":[]}'; }
    location = /api/export { return 500; }
    location /api/legacy/ { proxy_pass http://127.0.0.1:18099; }
  }
}
CONF
nginx -p "$tmp" -c "$tmp/nginx.conf"
sleep 0.5
# the request list: fixed, seeded, so the same mix every run
python3 - "$port" > "$tmp/urls" <<'PY'
import random, sys
port = sys.argv[1]
rnd = random.Random(15)
paths = (["/health"] * 40 + [f"/api/vessels/{i}" for i in range(1, 40)] + ["/", "/index.html"] * 10
         + ["/static/app.js", "/static/app.css", "/static/logo.png"] * 6)
rare = ["/api/export"] * 4 + ["/api/legacy/ports"] * 3 + ["/wp-login.php", "/.env", "/static/old.js",
        "/favicon.ico", "/robots.txt"]
for _ in range(1200):
    p = rnd.choice(rare) if rnd.random() < 0.03 else rnd.choice(paths)
    print(f"http://127.0.0.1:{port}{p}")
PY
split -n l/4 "$tmp/urls" "$tmp/part."
for part in "$tmp"/part.*; do
  (while read -r u; do curl -s -o /dev/null -A "loadgen/1.0 curl" "$u"; done < "$part") &
done
wait
kill -QUIT "$(cat "$tmp/nginx.pid")"   # graceful shutdown: workers finish, then exit
sleep 1
cp "$tmp/logs/access.log" "$repo/tests/logdata/nginx-access.log"
cp "$tmp/logs/error.log" "$repo/tests/logdata/nginx-error.log"
ver=$(nginx -v 2>&1)
python3 "$here/record.py" nginx-access --kind log-file --argv '["tail", "-n", "2000", "/var/log/nginx/access.log"]' \
  --command "nginx -p TMP -c nginx.conf; 1,200 curl requests in 4 parallel loops; nginx -s quit" --exit 0 \
  --script scripts/logdata/nginx.sh --tool "$ver" --tool "$(curl --version | head -1)"
python3 "$here/record.py" nginx-error --kind log-file --argv '["cat", "/var/log/nginx/error.log"]' \
  --command "nginx -p TMP -c nginx.conf (error_log level info); 1,200 curl requests; nginx -s quit" --exit 0 \
  --script scripts/logdata/nginx.sh --tool "$ver"
