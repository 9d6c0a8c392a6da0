#!/bin/sh
# Capture tests/logdata/postgres.log: the server log of a PostgreSQL cluster from Debian
# (initdb in a temp dir, run as the unprivileged user postgres, listening on 127.0.0.1 only)
# under a bounded workload: 100 short client sessions, slow queries logged by
# log_min_duration_statement, a few failing statements, autovacuum and a checkpoint.
# usage: scripts/logdata/postgres.sh   (as root; installs postgresql with apt-get if missing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
command -v pg_config >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 \
  || apt-get install -y -q postgresql >/dev/null
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
port=54329
tmp=$(mktemp -d /tmp/rtk-pg.XXXXXX)
chown postgres "$tmp"
as_pg() { runuser -u postgres -- "$@"; }
cleanup() { as_pg "$bin/pg_ctl" -D "$tmp/data" -m fast stop >/dev/null 2>&1 || true; rm -rf "$tmp"; }
trap cleanup EXIT
cd "$tmp"
as_pg "$bin/initdb" -D "$tmp/data" -U postgres --auth=trust >/dev/null
cat >> "$tmp/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$tmp'
log_line_prefix = '%m [%p] %q%u@%d '
log_min_duration_statement = 200
log_connections = on
log_disconnections = on
log_checkpoints = on
log_autovacuum_min_duration = 0
autovacuum_naptime = 1
log_lock_waits = on
deadlock_timeout = 300ms
CONF
as_pg "$bin/pg_ctl" -D "$tmp/data" -l "$tmp/postgresql.log" -w start >/dev/null
q() { as_pg psql -X -q -h 127.0.0.1 -p "$port" -U postgres "$@" >/dev/null 2>&1 || true; }
q -c "CREATE DATABASE shop"
q -d shop -c "CREATE TABLE orders (id serial PRIMARY KEY, customer text NOT NULL, total numeric(10,2), created timestamptz DEFAULT now())"
q -d shop -c "CREATE UNIQUE INDEX orders_customer_created ON orders (customer, created)"
q -d shop -c "INSERT INTO orders (customer, total) SELECT 'c' || g, g % 97 FROM generate_series(1, 50000) g"
i=1
while [ $i -le 100 ]; do   # short sessions: connection, authorization, disconnection lines
  q -d shop -c "SELECT count(*) FROM orders WHERE customer = 'c$i'"
  case $i in
    20) q -d shop -c "SELECT pg_sleep(0.35), count(*) FROM orders" ;;
    35) q -d shop -c "SELECT * FROM order_items WHERE order_id = 7" ;;
    50) q -d shop -c "SELECT o1.id FROM orders o1 JOIN orders o2 ON o1.total = o2.total WHERE o1.id < 200 ORDER BY 1 LIMIT 5" ;;
    60) q -d shop -c "INSERT INTO orders (id, customer, total) VALUES (1, 'dup', 1)" ;;
    70) q -d shop -c "SELECT 100 / (total - total) FROM orders LIMIT 1" ;;
    80) q -d shop -c "SELEC id FROM orders" ;;
    90) q -d shop -c "UPDATE orders SET total = total + 1 WHERE id % 3 = 0" ;;
  esac
  i=$((i + 1))
done
q -d shop -c "SET statement_timeout = '250ms'; SELECT pg_sleep(1)"
# a lock wait: one session holds a row lock while another waits for it
(as_pg psql -X -q -h 127.0.0.1 -p "$port" -U postgres -d shop -c "BEGIN; SELECT id FROM orders WHERE id = 5 FOR UPDATE; SELECT pg_sleep(1.2); COMMIT;" >/dev/null 2>&1 &)
sleep 0.3
q -d shop -c "UPDATE orders SET total = 0 WHERE id = 5"
sleep 2   # let autovacuum run after the update
q -d shop -c "CHECKPOINT"
as_pg "$bin/pg_ctl" -D "$tmp/data" -m fast -w stop >/dev/null
cp "$tmp/postgresql.log" "$repo/tests/logdata/postgres.log"
ver=$("$bin/postgres" --version)
python3 "$here/record.py" postgres --kind log-file --argv '["cat", "postgresql.log"]' \
  --command "pg_ctl -D DATA -l postgresql.log start; workload; pg_ctl stop" --exit 0 \
  --script scripts/logdata/postgres.sh --tool "$ver"
