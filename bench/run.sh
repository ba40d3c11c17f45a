#!/usr/bin/env bash
# god against Redis in one run: builds what it needs, starts one god node, a 3-node loopback ring and a
# redis-server (no persistence), drives them with the same concurrency and key space, prints the
# god/Redis ratios and memory per key, and rewrites the generated section of bench/RESULTS.md.
#
#   bench/run.sh [--quick] [--skip-build] [--jfr] [--memory-only] [-c N] [--duration S] [--mem-keys N] [--ring-keys N]
#
# --memory-only: only the memory per key of god and Redis, printed (RESULTS.md is left alone).
# --quick: 4 s runs after 2 s warm-up (a few minutes on 2 cores). --jfr: record the single node with
# Java Flight Recorder (bench/out/<run>/single.jfr; see docs/benchmarks.md for how to read it).
# Everything binds to 127.0.0.2x; teardown kills only the processes this script started.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

QUICK=0; BUILD=1; JFR=0; MEMORY_ONLY=0; CONC=16; DURATION=15; WARMUP=5; MEM_KEYS=1000000; RING_KEYS=100000; VALUE=16
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1; DURATION=4; WARMUP=2 ;;
    --skip-build) BUILD=0 ;;
    --jfr) JFR=1 ;;
    --memory-only) MEMORY_ONLY=1 ;;
    -c|--concurrency) CONC=$2; shift ;;
    --duration) DURATION=$2; shift ;;
    --mem-keys) MEM_KEYS=$2; shift ;;
    --ring-keys) RING_KEYS=$2; shift ;;
    -h|--help) sed -n 2,12p "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

OUT=$ROOT/bench/out/$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$OUT"
JAR=$ROOT/node/target/quarkus-app/quarkus-run.jar
BENCH=$ROOT/bench/target/benchmarks.jar
SINGLE=127.0.0.21; RING=(127.0.0.22 127.0.0.23 127.0.0.24); REDIS_HOST=127.0.0.25; REDIS_PORT=16379
# shellcheck source=bench/common.sh
source "$ROOT/bench/common.sh"

if [ "$BUILD" = 1 ] || [ ! -f "$JAR" ] || [ ! -f "$BENCH" ]; then
  log "building client, node and bench"
  ./mvnw -B -q ${MVN_FLAGS:-} -DskipTests -pl client,node,bench -am package
fi
if ! command -v redis-server >/dev/null || ! command -v redis-benchmark >/dev/null || ! command -v wrk >/dev/null; then
  log "installing redis-server, redis-tools and wrk"
  apt-get install -y redis-server redis-tools wrk >/dev/null || { apt-get update >/dev/null && apt-get install -y redis-server redis-tools wrk >/dev/null; }
fi

# ---------------------------------------------------------------- processes
start_node() { # name host seeds redundancy extra-jvm-args...
  local name=$1 host=$2 seeds=$3 redundancy=$4; shift 4
  java -Xms2g -Xmx2g -XX:+ExitOnOutOfMemoryError -XX:+UseTransparentHugePages "$@" \
    -Dquarkus.http.host="$host" -Dquarkus.http.port=9192 \
    -Dquarkus.management.host="$host" -Dquarkus.management.port=9000 \
    -Dgod.node.host="$host" -Dgod.node.port=9191 -Dgod.node.advertise="$host:9191" \
    -Dgod.seeds="$seeds" -Dgod.redundancy="$redundancy" -Dgod.ring.interval=200ms \
    -jar "$JAR" > "$OUT/$name.log" 2>&1 &
  LAST_PID=$!
  PIDS+=("$LAST_PID")
}

wait_ready() { # host [members]
  local want=${2:-1}
  for _ in $(seq 1 240); do
    if [ "$(curl -sf "http://$1:9000/admin/status" 2>/dev/null | jq '.ring | length' 2>/dev/null)" = "$want" ] \
        && curl -sf "http://$1:9000/q/health/ready" >/dev/null 2>&1; then
      return 0
    fi
    sleep 0.5
  done
  log "node $1 did not become ready with $want members; see $OUT/*.log"; exit 1
}

heap_used_after_gc() { # pid → bytes of live heap after a full GC
  jcmd "$1" GC.run >/dev/null
  jcmd "$1" GC.heap_info | grep -o 'used [0-9]*K' | head -1 | grep -o '[0-9]*' | awk '{print $1 * 1024}'
}

loadgen() { # name args... → $OUT/name.json
  local name=$1; shift
  log "god $name"
  java -Xmx1g -cp "$BENCH" io.god.bench.load.LoadGen -c "$CONC" --value-size "$VALUE" \
    --warmup "$WARMUP" --duration "$DURATION" --json "$OUT/$name.json" "$@" > "$OUT/$name.txt"
  tail -n +8 "$OUT/$name.txt" >&2
}

redis() { redis-cli -h $REDIS_HOST -p $REDIS_PORT "$@"; }

# wrk: HTTP load from a C event loop (2 threads, $CONC connections), next to the JVM generator's HTTP runs
WRK_KEYS=100000
wrk_run() { # name host Put|Get → $OUT/wrk-name.txt
  log "wrk $1"
  wrk -t2 -c "$CONC" -d "$((WARMUP + DURATION))s" --latency -s "$ROOT/bench/wrk/god.lua" "http://$2:9192" -- "$3" "$WRK_KEYS" \
    > "$OUT/wrk-$1.txt" 2>&1 || log "wrk $1 failed: see $OUT/wrk-$1.txt"
}

# bytes the node allocated per call: the JVM's young-generation allocation counter around a run, a full GC on
# each side so that the counter (advanced at each GC) covers the run, divided by the calls the node counted
metric_sum() { # host regex → the sum of the matching samples of /q/metrics
  curl -sf "http://$1:9000/q/metrics" | grep -v '^#' | grep -E "$2" | awk '{ s += $NF } END { printf "%.0f", s }'
}
alloc_mark() { # pid host method → "allocated-bytes calls"
  jcmd "$1" GC.run >/dev/null
  echo "$(metric_sum "$2" '^jvm_gc_memory_allocated_bytes_total') $(metric_sum "$2" "^god_rpc_requests_total\\{method=\"$3\"")"
}
alloc_per_call() { # name "before" "after" → $OUT/alloc-name.txt (bytes per call)
  read -r a0 c0 <<< "$2"; read -r a1 c1 <<< "$3"
  awk -v a="$((a1 - a0))" -v c="$((c1 - c0))" 'BEGIN { if (c > 0) printf "%.0f\n", a / c; else print "—" }' > "$OUT/alloc-$1.txt"
}

# ---------------------------------------------------------------- servers: one god node and Redis
# Each god run is followed at once by its Redis counterpart, so a ratio compares runs seconds apart
# (the build machine's background load drifts over minutes).
log "output: $OUT"
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
JFR_ARGS=()
[ "$JFR" = 1 ] && JFR_ARGS=(-XX:StartFlightRecording=filename="$OUT/single.jfr",settings=profile,dumponexit=true)
start_node single $SINGLE "$SINGLE:9191" 1 ${JFR_ARGS[@]+"${JFR_ARGS[@]}"}
SINGLE_PID=$LAST_PID
log "redis-server on $REDIS_HOST:$REDIS_PORT (no persistence)"
redis-server --bind $REDIS_HOST --port $REDIS_PORT --save '' --appendonly no > "$OUT/redis.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 40); do redis PING >/dev/null 2>&1 && break; sleep 0.25; done
REDIS_VERSION=$(redis-server --version | grep -o 'v=[0-9.]*' | cut -c3-)
wait_ready $SINGLE

log "memory: $MEM_KEYS keys into the single node and into Redis"
H0=$(heap_used_after_gc "$SINGLE_PID")
java -Xmx1g -cp "$BENCH" io.god.bench.load.LoadGen --endpoints $SINGLE:9191 --redundancy 1 -c 32 \
  --keys "$MEM_KEYS" --value-size "$VALUE" --preload --duration 0 > "$OUT/god-preload.txt"
H1=$(heap_used_after_gc "$SINGLE_PID")
GOD_ENTRIES=$(curl -sf http://$SINGLE:9000/admin/status | jq .heldEntries)
R0=$(redis INFO memory | tr -d '\r' | awk -F: '$1=="used_memory"{print $2}')
# the same key space as redis-benchmark -r: key:%012d (16 bytes), 16-byte values
awk -v n="$MEM_KEYS" 'BEGIN { for (i = 0; i < n; i++) printf "*3\r\n$3\r\nSET\r\n$16\r\nkey:%012d\r\n$16\r\n%016d\r\n", i, i }' \
  | redis-cli -h $REDIS_HOST -p $REDIS_PORT --pipe > "$OUT/redis-preload.txt"
R1=$(redis INFO memory | tr -d '\r' | awk -F: '$1=="used_memory"{print $2}')
REDIS_KEYS=$(redis DBSIZE)
if [ "$MEMORY_ONLY" = 1 ]; then
  awk -v a="$H0" -v b="$H1" -v n="$MEM_KEYS" -v e="$GOD_ENTRIES" 'BEGIN { printf "god: %.1f bytes per key (live heap after a full GC, %d entries held)\n", (b - a) / n, e }'
  awk -v a="$R0" -v b="$R1" -v n="$MEM_KEYS" -v k="$REDIS_KEYS" 'BEGIN { printf "Redis: %.1f bytes per key (used_memory, %d keys)\n", (b - a) / n, k }'
  exit 0
fi

# about as many requests as god's runs make in warm-up + measurement
RN=$(awk -v d="$DURATION" -v w="$WARMUP" 'BEGIN { print int(25000 * (d + w)) }')
rb() { # name args...
  local name=$1; shift
  log "redis $name"
  redis-benchmark -h $REDIS_HOST -p $REDIS_PORT -c "$CONC" --csv "$@" | tail -n +2 > "$OUT/redis-$name.csv"
  cat "$OUT/redis-$name.csv" >&2
}

B="--endpoints $SINGLE:9191 --redundancy 1 --keys $MEM_KEYS"
H="--target http --endpoints $SINGLE:9192 --keys $MEM_KEYS"
W="--target wire --endpoints $SINGLE:9191 --keys $MEM_KEYS"
loadgen single-binary-put $B --mix put=1
M0=$(alloc_mark "$SINGLE_PID" $SINGLE Put)
loadgen single-wire-put $W --mix put=1
alloc_per_call put "$M0" "$(alloc_mark "$SINGLE_PID" $SINGLE Put)"
loadgen single-http-put $H --mix put=1
wrk_run single-put $SINGLE Put
rb set -n "$RN" -r "$MEM_KEYS" -d "$VALUE" -t set
loadgen single-binary-get $B --mix get=1
M0=$(alloc_mark "$SINGLE_PID" $SINGLE Get)
loadgen single-wire-get $W --mix get=1
alloc_per_call get "$M0" "$(alloc_mark "$SINGLE_PID" $SINGLE Get)"
loadgen single-http-get $H --mix get=1
wrk_run single-get $SINGLE Get
rb get -n "$RN" -r "$MEM_KEYS" -d "$VALUE" -t get
loadgen single-binary-subput $B --mix subput=1 --preload-subs 20000
loadgen single-http-subput $H --mix subput=1
rb zadd -n "$RN" -r "$MEM_KEYS" zadd bench:zset __rand_int__ member:__rand_int__
loadgen single-binary-slice $B --mix slice=1
loadgen single-http-slice $H --mix slice=1
rb zrange -n $((RN / 3)) zrange bench:zset 0 99 withscores
loadgen single-binary-setexpr $B --mix setexpr=1
kill "$SINGLE_PID"; wait "$SINGLE_PID" 2>/dev/null || true

# ---------------------------------------------------------------- 3-node ring (Redis stays up)
log "3-node ring on ${RING[*]} (god.redundancy=3)"
SEEDS="${RING[0]}:9191,${RING[1]}:9191,${RING[2]}:9191"
for i in 0 1 2; do start_node "ring-$i" "${RING[$i]}" "$SEEDS" 3; done
for h in "${RING[@]}"; do wait_ready "$h" 3; done
java -Xmx1g -cp "$BENCH" io.god.bench.load.LoadGen --endpoints "$SEEDS" -c 32 --keys "$RING_KEYS" \
  --value-size "$VALUE" --preload --duration 0 > "$OUT/ring-preload.txt"
RB="--endpoints $SEEDS --keys $RING_KEYS"
RH="--target http --endpoints ${RING[0]}:9192,${RING[1]}:9192,${RING[2]}:9192 --keys $RING_KEYS"
loadgen ring-binary-put $RB --mix put=1
loadgen ring-wire-put --target wire --endpoints "$SEEDS" --keys "$RING_KEYS" --mix put=1
loadgen ring-http-put $RH --mix put=1
wrk_run ring-put "${RING[0]}" Put
rb ring-set -n "$RN" -r "$RING_KEYS" -d "$VALUE" -t set
loadgen ring-binary-get $RB --mix get=1
loadgen ring-http-get $RH --mix get=1
wrk_run ring-get "${RING[0]}" Get
rb ring-get -n "$RN" -r "$RING_KEYS" -d "$VALUE" -t get
# SliceLen 100 of one sub tree: merged (all 3 replicas: one sends entries, two digests) and owner-only (a client
# that believes N=1 asks the owner alone); the sorted set bench:zset is still in Redis from the single-node runs
java -Xmx1g -cp "$BENCH" io.god.bench.load.LoadGen --endpoints "$SEEDS" -c 32 --keys "$RING_KEYS" \
  --value-size "$VALUE" --preload-subs 20000 --duration 0 > "$OUT/ring-preload-subs.txt"
loadgen ring-binary-slice $RB --mix slice=1
loadgen ring-binary-slice-owner $RB --redundancy 1 --mix slice=1
rb ring-zrange -n $((RN / 3)) zrange bench:zset 0 99 withscores
teardown; PIDS=()

# ---------------------------------------------------------------- report
god_ops() { jq -r ".ops.$2.opsPerSecond // 0" "$OUT/$1.json"; }
god_lat() { jq -r ".ops.$2 | \"\(.p50us | floor) / \(.p99us | floor) / \(.p999us | floor)\"" "$OUT/$1.json"; }
god_err() { jq -r ".ops.$2.errors // 0" "$OUT/$1.json"; }
redis_ops() { awk -F'","' '{print int($2)}' "$OUT/redis-$1.csv"; }
redis_lat() { awk -F'","' '{printf "%d / %d / —", $5 * 1000, $7 * 1000}' "$OUT/redis-$1.csv"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f×", a / b; else print "—" }'; }
wrk_ops() { awk '/^Requests\/sec:/ { printf "%d", $2 }' "$OUT/wrk-$1.txt"; }
wrk_lat() { # p50 / p99 in µs
  awk '$1 == "50%" || $1 == "99%" { v = $2; u = 1
         if (v ~ /us$/) u = 1; else if (v ~ /ms$/) u = 1000; else if (v ~ /s$/) u = 1000000
         sub(/[a-z]+$/, "", v); out = out (out == "" ? "" : " / ") int(v * u) }
       END { print out " / —" }' "$OUT/wrk-$1.txt"
}
wrk_err() { awk '/Non-2xx|Socket errors/ { n++ } END { print n ? "yes (see wrk-'"$1"'.txt)" : 0 }' "$OUT/wrk-$1.txt"; }
wrk_row() { # label run redis-test redis-label
  local ops; ops=$(wrk_ops "$2")
  echo "| $1 | $ops | $(wrk_lat "$2") | $(wrk_err "$2") | $4 | $(redis_ops "$3") | $(redis_lat "$3") | **$(ratio "$ops" "$(redis_ops "$3")")** |"
}
per_key() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.1f", (b - a) / n }'; }

row() { # label run op [redis-test redis-label]
  local ops; ops=$(god_ops "$2" "$3")
  if [ -n "${4:-}" ]; then
    echo "| $1 | $ops | $(god_lat "$2" "$3") | $(god_err "$2" "$3") | $5 | $(redis_ops "$4") | $(redis_lat "$4") | **$(ratio "$ops" "$(redis_ops "$4")")** |"
  else
    echo "| $1 | $ops | $(god_lat "$2" "$3") | $(god_err "$2" "$3") | — | — | — | — |"
  fi
}

table_head() {
  echo "| god op | god ops/s | god p50 / p99 / p999 µs | errors | Redis op | Redis ops/s | Redis p50 / p99 / p999 µs | god/Redis |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
}

CPU=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
RAM=$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)
COMMIT=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- client node bench/src 2>/dev/null || echo "+changes")
JAVA=$(java -version 2>&1 | head -1)
MODE=$([ "$QUICK" = 1 ] && echo "--quick" || echo "full")

{
  echo "<!-- run.sh:begin (generated by bench/run.sh; edits here are overwritten) -->"
  echo "## god against Redis (bench/run.sh)"
  echo "\`bench/run.sh $MODE\` on $(date -u +%Y-%m-%d), commit \`$COMMIT\`: $CPU, $(nproc) cores, $RAM RAM,"
  echo "$JAVA, Redis $REDIS_VERSION. Load average at the start $LOAD_START, at the end $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "Every run: $CONC clients with one request in flight each (\`redis-benchmark -c $CONC\`, no pipelining),"
  echo "${VALUE}-byte values, 16-byte keys; god runs ${WARMUP} s warm-up + ${DURATION} s measured per line."
  echo "The load generator (a JVM) and redis-benchmark (C) share the 2 cores with the server, so the"
  echo "generator's own cost weighs on god's figures more than redis-benchmark's on Redis'. \"binary\" runs"
  echo "drive god through \`GodClient\` (a client and a connection per worker thread); \"light generator\" runs"
  echo "send the same binary data calls from one NIO thread over $CONC connections, built like redis-benchmark"
  echo "(\`LoadGen --target wire\`): the node's ceiling without the Java client's cost. SubPut writes"
  echo "random sub keys into two sub trees (their intersection is the set expression), ZADD into one sorted"
  echo "set; SliceLen 100 and ZRANGE read the first 100 entries with their values (scores). Each Redis run"
  echo "directly follows the god runs it is compared with (the background load drifts over minutes)."
  echo
  echo "One node (god.redundancy=1, in memory), key space $MEM_KEYS keys (all present; uniform, hashed):"
  echo
  table_head
  row "binary Put" single-binary-put put set SET
  row "binary Get" single-binary-get get get GET
  row "binary Put, light generator" single-wire-put put set SET
  row "binary Get, light generator" single-wire-get get get GET
  row "HTTP JSON Put" single-http-put put set SET
  row "HTTP JSON Get" single-http-get get get GET
  wrk_row "HTTP JSON Put, wrk" single-put set SET
  wrk_row "HTTP JSON Get, wrk" single-get get GET
  row "binary SubPut" single-binary-subput subput zadd ZADD
  row "HTTP JSON SubPut" single-http-subput subput zadd ZADD
  row "binary SliceLen 100" single-binary-slice slice zrange "ZRANGE 0 99 WITHSCORES"
  row "HTTP JSON SliceLen 100" single-http-slice slice zrange "ZRANGE 0 99 WITHSCORES"
  row "binary SetExpression (I t0 t1), 100 rows" single-binary-setexpr setexpr
  echo
  echo "3-node loopback ring (god.redundancy=3: every put is applied on 3 nodes, a GodClient Get asks all"
  echo "3 replicas), key space $RING_KEYS keys; against the same Redis, run again right after. SliceLen 100 reads"
  echo "one sub tree of 10,000 entries: merged (every replica asked; one sends its entries, the others digests)"
  echo "or owner only (\`LoadGen --redundancy 1\`: the client asks the owner alone, no merge):"
  echo
  table_head
  row "ring binary Put" ring-binary-put put ring-set SET
  row "ring binary Get" ring-binary-get get ring-get GET
  row "ring HTTP JSON Put" ring-http-put put ring-set SET
  row "ring HTTP JSON Get" ring-http-get get ring-get GET
  wrk_row "ring HTTP JSON Put, wrk" ring-put ring-set SET
  wrk_row "ring HTTP JSON Get, wrk" ring-get ring-get GET
  row "ring binary Put, light generator" ring-wire-put put ring-set SET
  row "ring binary SliceLen 100, merged (3 replicas)" ring-binary-slice slice ring-zrange "ZRANGE 0 99 WITHSCORES"
  row "ring binary SliceLen 100, owner only" ring-binary-slice-owner slice ring-zrange "ZRANGE 0 99 WITHSCORES"
  echo
  echo "The ring's binary Put from the light generator is **$(ratio "$(god_ops ring-wire-put put)" "$(god_ops single-wire-put put)")** of the single"
  echo "node's (issue 29 goal: ≥ 0.6×); every Put is applied on 3 nodes sharing the 2 cores."
  echo
  echo "Allocation on the node per binary data call (\`jvm_gc_memory_allocated_bytes_total\` across the light"
  echo "generator's run, a full GC before and after, divided by the node's \`god_rpc_requests_total\` of the method):"
  echo "Put **$(cat "$OUT/alloc-put.txt") bytes**, Get **$(cat "$OUT/alloc-get.txt") bytes** (generator excluded)."
  echo "\"wrk\" rows: \`wrk -t2 -c $CONC\` with \`bench/wrk/god.lua\` ($WRK_KEYS random 12-byte keys, the same"
  echo "table in every thread; the Get run reads what its Put run wrote), a C load generator like redis-benchmark."
  echo
  echo "Memory per key, $MEM_KEYS keys of 16 bytes with 16-byte values:"
  echo
  echo "| server | measure | bytes per key |"
  echo "| --- | --- | --- |"
  echo "| god | JVM heap used after a full GC (\`jcmd GC.run\`, \`GC.heap_info\`), delta over the load ($GOD_ENTRIES entries held) | **$(per_key "$H0" "$H1" "$MEM_KEYS")** |"
  echo "| Redis | \`INFO memory\` used_memory delta ($REDIS_KEYS keys) | **$(per_key "$R0" "$R1" "$MEM_KEYS")** |"
  echo
  echo "god's figure is the live heap after a full GC, before and after the load: like Redis' used_memory it"
  echo "counts everything the server allocated for the keys (tree nodes, Merkle hashes, subtree counts,"
  echo "timestamps). \`/admin/status\` dataBytes is not used: it counts the data directory, 0 in memory."
  echo "Raw output: \`bench/out/$(basename "$OUT")\` (not committed)."
  echo "<!-- run.sh:end -->"
} > "$OUT/section.md"

replace_section run.sh "$OUT/section.md"
cat "$OUT/section.md"
[ "$JFR" = 1 ] && log "flight recording: $OUT/single.jfr (jfr print --events jdk.ExecutionSample ...)"
log "bench/RESULTS.md updated"
