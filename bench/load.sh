#!/usr/bin/env bash
# Load test against the README's server: starts scripts/serve on a free local port, runs
# locust headless (USERS players, default 50, for DURATION, default 2m), prints requests,
# failures and latency percentiles, then stops the server. Loopback only.
#   bench/load.sh            # 50 players, 2 minutes
#   USERS=10 DURATION=30s bench/load.sh
#   KILL_AFTER=60 bench/load.sh   # kill -9 one gunicorn worker 60 s in, then check it came back
#   bench/load.sh --help          # this text
# locust is not one of the app's packages: the first run installs it into .venv (the packages
# it shares with the app stay at the lock's versions).
set -euo pipefail
case "${1:-}" in
  -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
cd "$(dirname "$0")/.."
scripts/setup >/dev/null
[ -x .venv/bin/locust ] || .venv/bin/python -m pip install --quiet -c constraints.txt "locust>=2.20" >/dev/null 2>&1
USERS=${USERS:-50}; DURATION=${DURATION:-2m}
PORT=$(.venv/bin/python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
BIND=127.0.0.1:$PORT scripts/serve > /tmp/minimax-lab-load-server.log 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$PORT/" >/dev/null && break; sleep 0.2; done
OUT=$(mktemp -d)
WORKERS_BEFORE=$(pgrep -P "$SERVER" | wc -l)
if [ -n "${KILL_AFTER:-}" ]; then
  ( sleep "$KILL_AFTER"; W=$(pgrep -P "$SERVER" | head -1); kill -9 "$W" && echo "killed worker $W at ${KILL_AFTER}s" ) &
fi
.venv/bin/locust -f bench/locustfile.py --headless --users "$USERS" --spawn-rate 10 \
  --run-time "$DURATION" --stop-timeout 10 --host "http://127.0.0.1:$PORT" \
  --csv "$OUT/load" --only-summary > "$OUT/locust.log" 2>&1 || true
.venv/bin/python - "$OUT/load_stats.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(f"{'request':<22}{'count':>8}{'fail':>6}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8}{'max ms':>8}")
for r in rows:
    print(f"{r['Name']:<22}{r['Request Count']:>8}{r['Failure Count']:>6}{r['50%']:>8}{r['95%']:>8}"
          f"{r['99%']:>8}{float(r['Max Response Time']):>8.0f}")
PY
echo "workers: $WORKERS_BEFORE before, $(pgrep -P "$SERVER" | wc -l) after"
# The game is in the link: any worker, old or new, opens any position.
for link in "/connect4?moves=4453&level=expert" "/nim?n=21&variant=misere&moves=312" "/connect4?moves=44&tree=1"; do
  printf '%s %s\n' "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT$link")" "$link"
done
