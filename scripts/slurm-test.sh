#!/usr/bin/env bash
# make test-slurm: a real Slurm job array on this machine.
#
# Installs Slurm and munge from Debian when missing, starts munged, slurmctld and slurmd as
# a single-node cluster on localhost with all state in a temporary folder (no systemd, no
# cgroups: [@Slurm]), submits a small sweep as an array of 3
# shards plus the dependent merge job, waits, checks that the merged summary equals a
# single-process run of the same sweep byte for byte, and stops the daemons it started.
# Needs root (or sudo) to install packages and run the daemons.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
ESMSIM="$ROOT/.build/release/esmsim"
[ -x "$ESMSIM" ] || { echo "test-slurm: build first (make release)" >&2; exit 1; }

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "test-slurm: needs root to run the Slurm daemons; skipped" >&2
    exit 0
  fi
fi

# 1. Packages (about 10 s the first time).
if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1 || ! command -v sbatch >/dev/null 2>&1; then
  echo "test-slurm: installing slurmctld, slurmd, slurm-client and munge…" >&2
  $sudo apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null
fi

WORK=$(mktemp -d /tmp/esmsim-slurm.XXXXXX)
chmod 755 "$WORK"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do $sudo kill "$pid" 2>/dev/null || true; done
  sleep 1
  for pid in "${PIDS[@]}"; do $sudo kill -9 "$pid" 2>/dev/null || true; done
  $sudo rm -rf "$WORK"
}
trap cleanup EXIT

# 2. munge.
$sudo mkdir -p /run/munge /var/log/munge /var/lib/munge
$sudo chown munge:munge /run/munge /var/log/munge /var/lib/munge 2>/dev/null || true
if [ ! -s /etc/munge/munge.key ]; then
  $sudo mungekey --create >/dev/null 2>&1 || $sudo sh -c 'dd if=/dev/urandom bs=1 count=1024 > /etc/munge/munge.key 2>/dev/null'
  $sudo chown munge:munge /etc/munge/munge.key
  $sudo chmod 400 /etc/munge/munge.key
fi
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  $sudo rm -f /run/munge/munged.pid
  $sudo runuser -u munge -- /usr/sbin/munged --pid-file=/run/munge/munged.pid
  for _ in $(seq 50); do [ -s /run/munge/munged.pid ] && break; sleep 0.1; done
  PIDS+=("$(cat /run/munge/munged.pid)")
fi
munge -n | unmunge >/dev/null

# 3. slurmctld and slurmd on localhost, state under $WORK.
HOST=$(hostname -s)
CPUS=$(nproc)
mkdir -p "$WORK/state" "$WORK/spool" "$WORK/log"
cat > "$WORK/slurm.conf" <<EOF
ClusterName=esmsimtest
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CryptoType=crypto/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
SlurmdLogFile=$WORK/log/slurmd.log
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$WORK/slurm.conf"
$sudo env SLURM_CONF="$SLURM_CONF" /usr/sbin/slurmctld -f "$SLURM_CONF"
for _ in $(seq 100); do [ -s "$WORK/slurmctld.pid" ] && break; sleep 0.1; done
PIDS+=("$(cat "$WORK/slurmctld.pid")")
$sudo env SLURM_CONF="$SLURM_CONF" /usr/sbin/slurmd -f "$SLURM_CONF"
for _ in $(seq 100); do [ -s "$WORK/slurmd.pid" ] && break; sleep 0.1; done
PIDS+=("$(cat "$WORK/slurmd.pid")")
for _ in $(seq 60); do
  sinfo -h -o %t 2>/dev/null | grep -q idle && break
  sleep 1
done
sinfo -h -o %t | grep -q idle || { echo "test-slurm: the node never became idle" >&2; cat "$WORK/log/"*.log >&2; exit 1; }

# 4. A small sweep: 2 points × 3 replications, as 3 shards and a merge job, into a folder
# whose name has a space (the #SBATCH --output line quotes it).
cat > "$WORK/base.yaml" <<'EOF'
name: slurm test
seed: 3
duration: 3d
population: {size: 40, devices: {non_controlled: 0.5, heavy: 0.5}}
protocol:
  schedule: {algorithm: mappiness, per_day: 4}
  sensors: {location: {every: 3m}}
EOF
cat > "$WORK/sweep.yaml" <<'EOF'
scenario: base.yaml
replications: 3
grid:
  protocol.expiry: [15m, until_next]
EOF
"$ESMSIM" sweep slurm-script "$WORK/sweep.yaml" --output "$WORK/the cluster" --shards 3 --max-concurrent 2 --time 00:10:00 --cpus 1 >/dev/null
SUBMITTED=$(bash "$WORK/the cluster/slurm/submit.sh")
echo "test-slurm: $SUBMITTED" >&2
MERGE=${SUBMITTED##* }
for _ in $(seq 300); do
  state=$(scontrol show job "$MERGE" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
  case "$state" in
    COMPLETED) break ;;
    FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY)
      echo "test-slurm: the merge job ended $state" >&2
      cat "$WORK/the cluster/slurm/logs/"* >&2 || true
      exit 1 ;;
  esac
  sleep 1
done
[ "$state" = COMPLETED ] || { echo "test-slurm: the merge job did not finish in 5 minutes (state ${state:-unknown})" >&2; squeue >&2; exit 1; }
SHARDS=$(ls "$WORK/the cluster/slurm/logs" | grep -c '^shard-')

# 5. The same sweep in one process.
"$ESMSIM" sweep run "$WORK/sweep.yaml" --output "$WORK/local" --merge >/dev/null
if cmp -s "$WORK/the cluster/summary.csv" "$WORK/local/summary.csv"; then
  echo "test-slurm: ok — $SHARDS array tasks and a dependent merge job on Slurm $(sinfo -V | cut -d' ' -f2); summary.csv identical to a single-process run ($(wc -l < "$WORK/local/summary.csv") lines)"
else
  echo "test-slurm: FAILED — the merged summary differs from a single-process run" >&2
  diff "$WORK/the cluster/summary.csv" "$WORK/local/summary.csv" | head >&2
  exit 1
fi
