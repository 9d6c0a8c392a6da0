#!/bin/sh
# Capture tests/logdata/redis.log: redis-server from Debian on 127.0.0.1 at loglevel verbose
# (every client connect/close is logged), with AOF on, a small maxmemory (noeviction: writes
# beyond it are refused with OOM), a BGSAVE, a BGREWRITEAOF, a bad CONFIG SET, then SHUTDOWN.
# usage: scripts/logdata/redis.sh   (as root; installs redis-server with apt-get if missing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
command -v redis-server >/dev/null 2>&1 || apt-get install -y -q redis-server >/dev/null
port=16379
tmp=$(mktemp -d /tmp/rtk-redis.XXXXXX)
trap 'redis-cli -p $port shutdown nosave >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
cat > "$tmp/redis.conf" <<CONF
bind 127.0.0.1
port $port
dir $tmp
logfile $tmp/redis.log
loglevel verbose
appendonly yes
save 60 100
maxmemory 3mb
maxmemory-policy noeviction
daemonize yes
pidfile $tmp/redis.pid
CONF
redis-server "$tmp/redis.conf"
sleep 1
cli() { redis-cli -p $port "$@" >/dev/null 2>&1 || true; }
i=1
while [ $i -le 120 ]; do     # one connection per command: the bulk of a verbose log
  cli set "order:$i" "$(printf '%0200d' $i)"
  i=$((i+1))
done
cli bgsave
sleep 1
cli config set no-such-option 1          # refused: unknown option
cli config set maxmemory-policy sometimes # refused: bad value
# fill past maxmemory: later writes fail with OOM (the client sees it, the log may not)
redis-cli -p $port eval "for i=1,20000 do redis.call('set','fill:'..i,string.rep('x',200)) end return 1" 0 >"$tmp/oom.txt" 2>&1 || true
cli bgrewriteaof
sleep 2
i=1
while [ $i -le 60 ]; do
  cli get "order:$i"
  i=$((i+1))
done
sleep 5                                   # a verbose 'DB 0: keys' tick or two
cli debug sleep 0
cli client kill 127.0.0.1:1               # no such client
redis-cli -p $port shutdown >/dev/null 2>&1 || true
sleep 1
cp "$tmp/redis.log" "$repo/tests/logdata/redis.log"
python3 "$here/record.py" redis --kind log-file --argv '["cat", "/var/log/redis/redis-server.log"]' \
  --command "redis-server redis.conf (loglevel verbose); redis-cli workload; redis-cli shutdown" --exit 0 \
  --script scripts/logdata/redis.sh --tool "$(redis-server --version)"
