#!/bin/sh
# Capture tests/logdata/php-server.log: the log of PHP's built-in web server (`php -S 127.0.0.1:PORT`,
# Debian php-cli) under a bounded local load: health checks, item reads, static files, 404s, one PHP
# warning (undefined array key), a deprecation, an uncaught exception and a fatal error (both 500).
# The server writes its access lines and PHP's errors (log_errors, no error_log) to stderr: that is the log.
# usage: scripts/logdata/php_server.sh   (as root; installs php-cli with apt-get if missing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
command -v php >/dev/null 2>&1 || apt-get install -y -q php-cli >/dev/null
port=18085
tmp=$(mktemp -d /tmp/rtk-php.XXXXXX)
pid=""
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/www/static"
cp "$here/programs/php_app/router.php" "$tmp/router.php"
printf 'body{margin:0}\n' > "$tmp/www/static/app.css"
cd "$tmp/www"
php -d log_errors=On -d display_errors=Off -d error_reporting=E_ALL -S 127.0.0.1:$port "$tmp/router.php" 2> "$tmp/server.log" & pid=$!
sleep 1
get() { curl -s -o /dev/null "http://127.0.0.1:$port$1" || true; }
i=1
while [ $i -le 60 ]; do
  get /health
  get "/api/items/$i"
  [ $((i % 5)) -eq 0 ] && get /static/app.css
  [ $((i % 20)) -eq 0 ] && get /favicon.ico
  [ $((i % 25)) -eq 0 ] && get /api/report
  i=$((i+1))
done
get /wp-login.php
get /api/export
get /api/items/7
get /api/fatal
curl -s -o /dev/null -X POST -d 'x=1' "http://127.0.0.1:$port/api/items/3" || true
i=61
while [ $i -le 70 ]; do get /health; get "/api/items/$i"; i=$((i+1)); done
sleep 0.5
kill $pid; wait $pid 2>/dev/null || true; pid=""
cp "$tmp/server.log" "$repo/tests/logdata/php-server.log"
python3 "$here/record.py" php-server --kind log-file --argv '["cat", "logs/php-server.log"]' \
  --command "php -S 127.0.0.1:$port router.php (stderr); curl workload; SIGTERM" --exit 0 \
  --script scripts/logdata/php_server.sh --tool "$(php --version | head -1)" --tool "$(curl --version | head -1)"
