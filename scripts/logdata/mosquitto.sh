#!/bin/sh
# Capture tests/logdata/mosquitto.log: the log of mosquitto (Debian) on 127.0.0.1 with log_type all,
# password authentication, an ACL, and a bounded client workload: QoS 0/1/2 publishers, a retained
# message, subscribers, clients with a wrong password or no credentials (refused), a publish to a
# topic the ACL denies, a client that goes away without DISCONNECT (its will is sent), then shutdown.
# usage: scripts/logdata/mosquitto.sh   (as root; installs mosquitto and mosquitto-clients with apt-get if missing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
command -v mosquitto >/dev/null 2>&1 || apt-get install -y -q mosquitto mosquitto-clients >/dev/null
port=18830
tmp=$(mktemp -d /tmp/rtk-mosquitto.XXXXXX)
pid=""
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
touch "$tmp/passwd"; chmod 0700 "$tmp/passwd"
mosquitto_passwd -b "$tmp/passwd" sensor s3cret
mosquitto_passwd -b "$tmp/passwd" dashboard d4sh
cat > "$tmp/acl" <<ACL
user sensor
topic readwrite plant/#
user dashboard
topic read plant/#
topic readwrite dash/#
ACL
cat > "$tmp/mosquitto.conf" <<CONF
listener $port 127.0.0.1
allow_anonymous false
password_file $tmp/passwd
acl_file $tmp/acl
log_dest file $tmp/mosquitto.log
log_type all
connection_messages true
persistence false
CONF
chown -R mosquitto "$tmp" 2>/dev/null || true
mosquitto -c "$tmp/mosquitto.conf" & pid=$!
sleep 1
pub() { mosquitto_pub -h 127.0.0.1 -p $port "$@" >/dev/null 2>&1 || true; }
mosquitto_sub -h 127.0.0.1 -p $port -u dashboard -P d4sh -i dash-1 -t 'plant/#' -q 1 > "$tmp/sub.txt" 2>&1 & sub=$!
sleep 0.5
i=1
while [ $i -le 40 ]; do
  pub -u sensor -P s3cret -i "sensor-$i" -t "plant/line$((i % 3))/temp" -m "{\"c\":$((18 + i % 7))}" -q $((i % 3))
  i=$((i+1))
done
pub -u sensor -P s3cret -i sensor-retain -t plant/status -m online -r -q 1
pub -u sensor -P wrong -i sensor-bad -t plant/line1/temp -m 1          # refused: bad password
pub -i anon-1 -t plant/line1/temp -m 1                                   # refused: no credentials
pub -u dashboard -P d4sh -i dash-writer -t plant/line1/temp -m 99 -q 1    # denied by the ACL
# a client that dies without DISCONNECT: its will goes out
mosquitto_sub -h 127.0.0.1 -p $port -u sensor -P s3cret -i sensor-will --will-topic plant/sensor-will/status \
  --will-payload offline -t plant/ping -k 5 >/dev/null 2>&1 & will=$!
sleep 1; kill -9 $will 2>/dev/null || true
i=41
while [ $i -le 60 ]; do
  pub -u sensor -P s3cret -i "sensor-$i" -t "plant/line$((i % 3))/temp" -m "{\"c\":$((18 + i % 7))}" -q 1
  i=$((i+1))
done
sleep 1
kill $sub 2>/dev/null || true
sleep 0.5
kill $pid; wait $pid 2>/dev/null || true; pid=""
cp "$tmp/mosquitto.log" "$repo/tests/logdata/mosquitto.log"
python3 "$here/record.py" mosquitto --kind log-file --argv '["cat", "/var/log/mosquitto/mosquitto.log"]' \
  --command "mosquitto -c mosquitto.conf (log_type all); mosquitto_pub/mosquitto_sub workload; SIGTERM" --exit 0 \
  --script scripts/logdata/mosquitto.sh --tool "$(mosquitto -h | head -1)"
