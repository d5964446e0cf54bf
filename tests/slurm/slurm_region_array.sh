#!/usr/bin/env bash
# The documented Slurm job array (scripts/slurm/region-array.sbatch) run for real on a
# single-node Slurm started here from Debian's slurm-wlm packages: an LLM region computed as 3
# array tasks, merged, and compared byte for byte with the same region computed on one machine,
# its result JSON and every file of its curve pack.
# Opt-in (root, starts daemons): BATCHSCOPE_TEST_SLURM=1 scripts/test. Usage:
#   tests/slurm/slurm_region_array.sh BUILD/app/batchscope-cli
set -euo pipefail
cli="$(realpath "${1:?usage: slurm_region_array.sh PATH/TO/batchscope-cli}")"
root="$(cd "$(dirname "$0")/../.." && pwd)"
for tool in slurmctld slurmd sbatch munged; do
    command -v "$tool" >/dev/null || { echo "slurm test: $tool not found (BATCHSCOPE_TEST_SLURM=1 scripts/bootstrap installs slurm-wlm)" >&2; exit 1; }
done
[[ $(id -u) -eq 0 ]] || { echo "slurm test: must run as root (it starts munged, slurmctld and slurmd)" >&2; exit 1; }

work="$(mktemp -d /tmp/batchscope-slurm.XXXXXX)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# munge: its own key and socket, so an existing installation is left alone.
mkdir -p "$work/munge" "$work/spool" "$work/state" "$work/log"
chmod 700 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
munged --key-file="$work/munge/munge.key" --socket="$work/munge/socket" \
    --pid-file="$work/munge/munged.pid" --log-file="$work/log/munged.log" --seed-file="$work/munge/seed" -f
export MUNGE_SOCKET="$work/munge/socket"

host="$(hostname -s)"
cpus="$(nproc)"
memory_mb=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2 ))
cat > "$work/slurm.conf" <<CONF
ClusterName=batchscope-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/socket
CredType=cred/munge
SlurmctldPort=16817
SlurmdPort=16818
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$cpus RealMemory=$memory_mb State=UNKNOWN
PartitionName=batch Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
slurmctld -D -f "$SLURM_CONF" 2>>"$work/log/slurmctld.err" & pids+=($!)
slurmd -D -f "$SLURM_CONF" 2>>"$work/log/slurmd.err" & pids+=($!)
for _ in $(seq 60); do
    sinfo -h -o '%T' 2>/dev/null | grep -qE '^idle' && break
    sleep 1
done
sinfo -h -o '%T' | grep -qE '^idle' || { echo "slurm test: the node never became idle" >&2; cat "$work"/log/*.log >&2; exit 1; }

# The region: a small LLM grid with a load axis (36 cells, 3 slices).
cat > "$work/llm.json" <<'JSON'
{"kind": "llm", "seed": 11, "replications": 3,
 "engine": {"policy": "vllm_v1", "num_gpu_blocks": 8192},
 "step": {"kind": "linear", "base_ms": 5, "per_prefill_token_ms": 0.04, "per_decode_seq_ms": 0.5},
 "arrivals": {"kind": "poisson", "rate_per_s": 10, "requests": 1000,
              "prompt_tokens": {"kind": "fixed", "tokens": 1000},
              "output_tokens": {"kind": "fixed", "tokens": 20}}}
JSON
args="--max-num-seqs 1,4,16 --max-num-batched-tokens 256,1024,2048 --rate-per-s 5,10,20,40 --sla-ttft-ms 1000 --sla-tpot-ms 25"
cd "$work"
# shellcheck disable=SC2086
"$cli" region "$work/llm.json" $args --json --out "$work/single-pack" > single.json

# The task settings travel in the environment (--export=ALL): sbatch's --export list splits
# on the commas of the axis values.
export SPEC="$work/llm.json" OUT="$work/shards" REGION_ARGS="$args" BATCHSCOPE_CLI="$cli"
jobid=$(sbatch --parsable --array=0-2 --output="$work/log/task-%a.out" --export=ALL \
    "$root/scripts/slurm/region-array.sbatch")
sbatch --wait --dependency=afterok:"$jobid" --output="$work/log/merge.out" \
    --wrap "'$cli' merge $work/shards/llm-region-shard-*-of-3.json --json --out $work/pack > $work/merged.json" \
    || { echo "slurm test: the merge job failed" >&2; cat "$work"/log/*.out >&2; exit 1; }

cmp single.json merged.json || { echo "slurm test: the merged region differs from the single-machine run" >&2; diff single.json merged.json | head -20 >&2; exit 1; }
# The curve pack the merge wrote equals the one machine's, file for file.
for file in cells.csv capacity.csv pareto.csv llm-region-heatmap.svg; do
    [[ -s "pack/$file" ]] || { echo "slurm test: pack/$file missing" >&2; exit 1; }
done
single_files=$(cd single-pack && find . -type f | sort)
merged_files=$(cd pack && find . -type f | sort)
[[ "$single_files" == "$merged_files" ]] || { echo "slurm test: the packs hold different files" >&2; diff <(echo "$single_files") <(echo "$merged_files") >&2; exit 1; }
while read -r file; do
    cmp "single-pack/$file" "pack/$file" || { echo "slurm test: pack file $file differs from the single-machine pack" >&2; diff "single-pack/$file" "pack/$file" | head -20 >&2; exit 1; }
done <<<"$single_files"
echo "slurm test: $(wc -l <<<"$single_files") curve pack files identical to the single-machine pack"
echo "slurm test: 3 array tasks on $host merged into the same LLM region as one machine: passed"
