#!/usr/bin/env bash
# god's Redis protocol against Redis, the same redis-benchmark binary on both in one run: SET and GET of 16-byte
# values over a key space of N keys, 50 clients, without pipelining and with -P 16; sorted sets: ZADD of random
# members to random keys (-r) and ZRANGE myzset 0 99 WITHSCORES of a 100-member set; one god node (in memory, RESP
# writes Sync, god.redundancy=1), a 3-node ring (god.redundancy=3, the benchmark on node 1) and a redis-server
# without persistence; then the persistence pair: a god node with a data directory under the run's output
# (god.persistence.fsync=everysec) against a redis-server with appendonly yes, appendfsync everysec. Prints the
# ratios and rewrites the resp.sh section of bench/RESULTS.md. Each server first gets one untimed run of the same
# benchmark (the JVM compiles its hot paths; Redis is unaffected), then the god and Redis runs alternate ROUNDS
# times and each figure is the median of its rounds (the ring: one round).
#
#   bench/resp.sh [--skip-build] [-n REQUESTS] [-c CLIENTS] [--rounds ROUNDS] [--no-ring]
#
# Everything binds to 127.0.0.3x; teardown kills only the processes this script started.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

BUILD=1; N=200000; CONC=50; RING=1; ROUNDS=3
while [ $# -gt 0 ]; do
  case "$1" in
    --skip-build) BUILD=0 ;;
    -n|--requests) N=$2; shift ;;
    -c|--clients) CONC=$2; shift ;;
    --rounds) ROUNDS=$2; shift ;;
    --no-ring) RING=0 ;;
    -h|--help) sed -n 2,11p "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

OUT=$ROOT/bench/out/resp-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$OUT"
JAR=$ROOT/node/target/quarkus-app/quarkus-run.jar
SINGLE=127.0.0.31; NODES=(127.0.0.32 127.0.0.33 127.0.0.34); REDIS_HOST=127.0.0.35; REDIS_PORT=16379
DURABLE=127.0.0.36; AOF_PORT=16380 # the persistence pair: a god node with a data directory, Redis with an AOF
# shellcheck source=bench/common.sh
source "$ROOT/bench/common.sh"

for tool in redis-server redis-benchmark redis-cli curl jq; do
  command -v "$tool" >/dev/null || { echo "bench/resp.sh: $tool missing (Debian: redis-server redis-tools)" >&2; exit 1; }
done
if [ "$BUILD" = 1 ] || [ ! -f "$JAR" ]; then
  log "building client and node"
  # shellcheck disable=SC2086 # MVN_FLAGS holds several flags
  ./mvnw -B -q ${MVN_FLAGS:-} -DskipTests -pl client,node -am package
fi

start_node() { # name host seeds redundancy [more -D settings]
  java -Xms2g -Xmx2g -XX:+ExitOnOutOfMemoryError -XX:+UseTransparentHugePages "${@:5}" \
    -Dquarkus.http.host="$2" -Dquarkus.http.port=9192 -Dquarkus.management.host="$2" -Dquarkus.management.port=9000 \
    -Dgod.node.host="$2" -Dgod.node.port=9191 -Dgod.node.advertise="$2:9191" -Dgod.resp.port=6379 \
    -Dgod.seeds="$3" -Dgod.redundancy="$4" -Dgod.ring.interval=200ms \
    -jar "$JAR" > "$OUT/$1.log" 2>&1 &
  PIDS+=("$!")
}
wait_pong() { # host port
  for _ in $(seq 1 240); do
    [ "$(redis-cli -h "$1" -p "$2" PING 2>/dev/null)" = PONG ] && return 0
    sleep 0.5
  done
  log "no PONG from $1:$2; see $OUT/*.log"; exit 1
}
bench() { # name host port [extra args]: one run, its rows appended to name.csv (one row per test and round)
  local name=$1 host=$2 port=$3; shift 3
  log "$name"
  redis-benchmark -h "$host" -p "$port" -t set,get -c "$CONC" -n "$N" -r "$N" -d 16 --csv "$@" > "$OUT/$name.raw" 2>&1 \
    || failed "$name"
  grep '^"[A-Z]' "$OUT/$name.raw" | tee -a "$OUT/$name.csv" >&2 || true
}
warm() { # host port: one untimed run of what is measured next, so the JVM has compiled its hot paths
  log "warm-up $1:$2"
  redis-benchmark -h "$1" -p "$2" -t set,get -c "$CONC" -n "$N" -r "$N" -d 16 -q > /dev/null 2>&1 || true
}
pair() { # god-name god-host god-port redis-name redis-host redis-port rounds [extra args]: alternating runs
  for _ in $(seq 1 "$7"); do
    bench "$1" "$2" "$3" "${@:8}"
    bench "$4" "$5" "$6" "${@:8}"
  done
}
# a run that ended early (e.g. a refused write ends redis-benchmark) is reported, its rows empty, and the rest goes on
failed() { # name
  echo "- \`$1\`: redis-benchmark ended with an error: $(grep -v '^"' "$OUT/$1.raw" | tail -n 2 | tr '\n' ' ')" \
    >> "$OUT/failures.md"
  log "$1 failed, see $OUT/$1.raw"
}
ops() { # name test: the median of the test's rounds (nothing when no round produced it)
  [ -f "$OUT/$1.csv" ] || return 0
  awk -F'","' -v t="$2" '$1 ~ "^\""t"\"?$" {print int($2)}' "$OUT/$1.csv" | sort -n \
    | awk '{ v[NR] = $1 } END { if (NR > 0) print v[int((NR + 1) / 2)] }'
}
# sorted sets: ZADD over random keys and members, then ZRANGE of a 100-member set (filled first)
zbench() { # name host port
  local name=$1 host=$2 port=$3 members=()
  log "$name"
  redis-benchmark -h "$host" -p "$port" -c "$CONC" -n "$N" -r "$N" --csv \
    ZADD 'zset:__rand_int__' __rand_int__ 'm:__rand_int__' > "$OUT/$name.raw" 2>&1 || failed "$name"
  { grep '^"[A-Z]' "$OUT/$name.raw" || true; } | sed 's/^"[^"]*"/"ZADD"/' > "$OUT/$name.csv"
  for i in $(seq 1 100); do members+=("$i" "member:$i"); done
  redis-cli -h "$host" -p "$port" ZADD myzset "${members[@]}" > /dev/null
  redis-benchmark -h "$host" -p "$port" -c "$CONC" -n "$N" --csv ZRANGE myzset 0 99 WITHSCORES > "$OUT/$name.raw" 2>&1 \
    || failed "$name"
  { grep '^"[A-Z]' "$OUT/$name.raw" || true; } | sed 's/^"[^"]*"/"ZRANGE"/' >> "$OUT/$name.csv"
  cat "$OUT/$name.csv" >&2
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2f×", a / b; else print "—" }'; }

LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
redis-server --bind $REDIS_HOST --port $REDIS_PORT --save '' --appendonly no > "$OUT/redis.log" 2>&1 &
PIDS+=("$!")
start_node single $SINGLE "$SINGLE:9191" 1
wait_pong $REDIS_HOST $REDIS_PORT
wait_pong $SINGLE 6379

# each god run is followed at once by the Redis run it is compared with
warm $SINGLE 6379
warm $REDIS_HOST $REDIS_PORT
pair god-p1 $SINGLE 6379 redis-p1 $REDIS_HOST $REDIS_PORT "$ROUNDS"
pair god-p16 $SINGLE 6379 redis-p16 $REDIS_HOST $REDIS_PORT "$ROUNDS" -P 16
zbench god-z $SINGLE 6379
zbench redis-z $REDIS_HOST $REDIS_PORT
# the persistence pair: both append every write to a log fsynced once a second
mkdir -p "$OUT/god-data" "$OUT/redis-aof"
redis-server --bind $REDIS_HOST --port $AOF_PORT --save '' --appendonly yes --appendfsync everysec \
  --dir "$OUT/redis-aof" > "$OUT/redis-aof.log" 2>&1 &
PIDS+=("$!")
start_node durable $DURABLE "$DURABLE:9191" 1 -Dgod.data-dir="$OUT/god-data" -Dgod.persistence.fsync=everysec
wait_pong $REDIS_HOST $AOF_PORT
wait_pong $DURABLE 6379
warm $DURABLE 6379
warm $REDIS_HOST $AOF_PORT
pair god-aof-p1 $DURABLE 6379 redis-aof-p1 $REDIS_HOST $AOF_PORT "$ROUNDS"
pair god-aof-p16 $DURABLE 6379 redis-aof-p16 $REDIS_HOST $AOF_PORT "$ROUNDS" -P 16
if [ "$RING" = 1 ]; then
  SEEDS="${NODES[0]}:9191,${NODES[1]}:9191,${NODES[2]}:9191"
  for i in 0 1 2; do start_node "ring-$i" "${NODES[$i]}" "$SEEDS" 3; done
  for h in "${NODES[@]}"; do wait_pong "$h" 6379; done
  sleep 5 # the ring settles (joins, position moves) before it is measured
  warm "${NODES[0]}" 6379
  pair ring-p1 "${NODES[0]}" 6379 redis-ring-p1 $REDIS_HOST $REDIS_PORT 1
  pair ring-p16 "${NODES[0]}" 6379 redis-ring-p16 $REDIS_HOST $REDIS_PORT 1 -P 16
  redis-cli -h $REDIS_HOST -p $REDIS_PORT FLUSHALL > /dev/null
  zbench ring-z "${NODES[0]}" 6379
  zbench redis-ring-z $REDIS_HOST $REDIS_PORT
  # raw keys are placed in byte order: how the benchmark's key:NNNNNNNNNNNN keys fell on the three owners
  OWNED=$(for h in "${NODES[@]}"; do curl -sf "http://$h:9000/admin/status" | jq -r '.ownedEntries'; done | paste -sd/ -)
fi
teardown; PIDS=()

row() { # label god-run redis-run test (a run that failed shows "failed" and no ratio)
  local g r
  g=$(ops "$2" "$4"); r=$(ops "$3" "$4")
  echo "| $1 | ${g:-failed} | ${r:-failed} | **$(ratio "${g:-0}" "${r:-0}")** |"
}
{
  echo "<!-- resp.sh:begin (generated by bench/resp.sh; edits here are overwritten) -->"
  echo "## god's Redis protocol against Redis (bench/resp.sh)"
  echo "\`bench/resp.sh\` on $(date -u +%Y-%m-%d), commit \`$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- client node bench 2>/dev/null || echo "+changes")\`:"
  echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores, $(redis-server --version | grep -o 'v=[0-9.]*'),"
  echo "$(java -version 2>&1 | head -1). Load average at the start $LOAD_START, at the end $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "The same \`redis-benchmark -t set,get -c $CONC -n $N -r $N -d 16\` against each server after one untimed warm-up"
  echo "run of it; god and Redis runs alternate, each figure the median of $ROUNDS rounds (the ring: one round);"
  echo "god in memory with RESP writes Sync, Redis without persistence; client and servers share the cores."
  echo "Persistence pair: god with \`god.data-dir\` and \`god.persistence.fsync=everysec\` against Redis with"
  echo "\`--appendonly yes --appendfsync everysec\` (both fsync their log once a second)."
  echo "Sorted sets: \`redis-benchmark -c $CONC -n $N -r $N ZADD zset:__rand_int__ __rand_int__ m:__rand_int__\` and"
  echo "\`ZRANGE myzset 0 99 WITHSCORES\` of a 100-member set."
  echo
  echo "| run | god ops/s | Redis ops/s | god/Redis |"
  echo "| --- | --- | --- | --- |"
  row "one node, SET" god-p1 redis-p1 SET
  row "one node, GET" god-p1 redis-p1 GET
  row "one node, SET -P 16" god-p16 redis-p16 SET
  row "one node, GET -P 16" god-p16 redis-p16 GET
  row "one node, ZADD (random keys)" god-z redis-z ZADD
  row "one node, ZRANGE 0 99 WITHSCORES" god-z redis-z ZRANGE
  row "one node, fsync everysec, SET" god-aof-p1 redis-aof-p1 SET
  row "one node, fsync everysec, GET" god-aof-p1 redis-aof-p1 GET
  row "one node, fsync everysec, SET -P 16" god-aof-p16 redis-aof-p16 SET
  row "one node, fsync everysec, GET -P 16" god-aof-p16 redis-aof-p16 GET
  if [ "$RING" = 1 ]; then
    row "3-node ring (N=3), SET" ring-p1 redis-ring-p1 SET
    row "3-node ring (N=3), GET" ring-p1 redis-ring-p1 GET
    row "3-node ring (N=3), SET -P 16" ring-p16 redis-ring-p16 SET
    row "3-node ring (N=3), GET -P 16" ring-p16 redis-ring-p16 GET
    row "3-node ring (N=3), ZADD (random keys)" ring-z redis-ring-z ZADD
    row "3-node ring (N=3), ZRANGE 0 99 WITHSCORES" ring-z redis-ring-z ZRANGE
    echo
    echo "Keys owned by the ring's three nodes at the end (raw keys, placed in byte order): $OWNED."
  fi
  if [ -s "$OUT/failures.md" ]; then
    echo
    echo "Runs that ended early (their rows say failed):"
    cat "$OUT/failures.md"
  fi
  echo
  echo "Raw output: \`bench/out/$(basename "$OUT")\` (not committed)."
  echo "<!-- resp.sh:end -->"
} > "$OUT/section.md"

replace_section resp.sh "$OUT/section.md"
cat "$OUT/section.md"
