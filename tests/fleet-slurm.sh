#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tests/fleet-slurm.sh MESS
#
# tools/slurm/mess-fleet.sbatch on a real Slurm started here: munged with
# a key generated in a temporary directory, slurmctld and slurmd on
# localhost with a generated slurm.conf (the node's CPUs and memory as
# `slurmd -C` reports them, our own ports), all of it in that directory.
#
#  1. submit pinned over two array tasks on this one node (named twice:
#     RESULTS/<node>-0 and <node>-1), wait, check both runs and the logs;
#  2. make <node>-1 a partial run (its last mix undone) and <node>-2 a run
#     that cannot resume, resubmit over three tasks: 0 is skipped, 1
#     resumed to complete, 2 fails with its log kept, the others go on;
#  3. plain sbatch (no pinning), then submit --partition: the complete
#     node is skipped;
#  4. mess fleet on RESULTS: the files, two nodes compared, the failed one
#     listed with its log's last line.
# Every wait is bounded; every daemon started here is stopped by its pid.
# Exit 0 passed, 1 failed, 77 skipped (the reason on stdout, and appended
# to $SKIPPED_FILE when set).
# shellcheck disable=SC2016,SC2034,SC2054 # checks are eval'd strings; --mixes 0,100
set -u
mess=$(readlink -f "$1")
script=$(readlink -f "$(dirname "$0")/../tools/slurm/mess-fleet.sbatch")
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }
skip() {
	echo "SKIPPED fleet-slurm: $1"
	[ -n "${SKIPPED_FILE:-}" ] && mkdir -p "$(dirname "$SKIPPED_FILE")" &&
		echo "check-slurm: $1" >>"$SKIPPED_FILE"
	exit 77
}

for b in munged slurmctld slurmd sbatch scontrol squeue sinfo jq; do
	command -v $b >/dev/null || skip "no $b (apt-get install slurm-wlm munge jq)"
done
[ "$(id -u)" = 0 ] || skip "slurmd must run as root to start jobs (not root here)"

T=$(mktemp -d /tmp/mess-slurm.XXXXXX)
# munged refuses a socket directory that others cannot traverse.
chmod 755 "$T"
pids=()
cleanup() {
	if [ -n "${SLURM_CONF:-}" ] && [ ${#pids[@]} -gt 1 ]; then
		scancel --quiet --user=root 2>/dev/null
		for _ in $(seq 1 20); do
			[ -z "$(squeue -h 2>/dev/null)" ] && break
			sleep 0.5
		done
	fi
	# Ours only, by pid: slurmd, slurmctld, munged, newest first.
	for ((k = ${#pids[@]} - 1; k >= 0; k--)); do
		kill "${pids[k]}" 2>/dev/null
		for _ in $(seq 1 20); do
			kill -0 "${pids[k]}" 2>/dev/null || break
			sleep 0.25
		done
		kill -9 "${pids[k]}" 2>/dev/null
		wait "${pids[k]}" 2>/dev/null
	done
	[ $fail -eq 0 ] && rm -rf "$T"
}
trap cleanup EXIT

# ---- munge ----
mkdir -m 755 "$T/munge"
dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$T/munge/munge.key"
munged -F --key-file="$T/munge/munge.key" --socket="$T/munge/sock" \
	--pid-file="$T/munge/pid" --log-file="$T/munge/log" --seed-file="$T/munge/seed" \
	>"$T/munge/out" 2>&1 &
pids+=($!)
for _ in $(seq 1 40); do
	[ -S "$T/munge/sock" ] && break
	sleep 0.25
done
[ -S "$T/munge/sock" ] || skip "munged did not start: $(tail -n1 "$T/munge/out" 2>/dev/null)"

# ---- two free TCP ports: none listening in /proc/net/tcp{,6} ----
listening=$(awk 'NR > 1 && $4 == "0A" { split($2, a, ":"); print a[2] }' \
	/proc/net/tcp /proc/net/tcp6 2>/dev/null | while read -r h; do echo $((16#$h)); done)
port() {
	local p
	for _ in $(seq 1 50); do
		p=$((20000 + RANDOM % 30000))
		grep -qx "$p" <<<"$listening" || { echo $p && return; }
	done
	echo 0
}
cport=$(port) dport=$(port)
if [ "$cport" = "$dport" ] || [ "$cport" = 0 ] || [ "$dport" = 0 ]; then skip "no free TCP port found"; fi

# ---- slurm.conf: this node as slurmd -C sees it ----
node=$(hostname -s)
hw=$(slurmd -C 2>/dev/null | head -n1)
case $hw in NodeName=*) ;; *) skip "slurmd -C says nothing usable: '$hw'" ;; esac
hw="NodeName=$node ${hw#NodeName=* }"
mkdir -p "$T/state" "$T/spool" "$T/log"
cat >"$T/slurm.conf" <<EOF
ClusterName=messtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$cport
SlurmdPort=$dport
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/sock
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SlurmdParameters=config_overrides
$hw NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=messtest Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$T/slurm.conf
slurmctld -D -f "$SLURM_CONF" >"$T/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$node" >"$T/log/slurmd.out" 2>&1 &
pids+=($!)
state=
for _ in $(seq 1 60); do
	state=$(sinfo -h -n "$node" -o %t 2>/dev/null)
	[ "$state" = idle ] && break
	sleep 0.5
done
if [ "$state" != idle ]; then
	skip "the local Slurm did not come up (node state '$state'): $(tail -n2 "$T/log/slurmctld.log" "$T/log/slurmd.log" 2>/dev/null | tr '\n' ' ')"
fi
echo "fleet-slurm: slurmctld and slurmd up on $node (ports $cport, $dport; $hw)"

# Wait for every job, at most $1 seconds.
drain() {
	for _ in $(seq 1 $(($1 * 2))); do
		[ -z "$(squeue -h)" ] && return 0
		sleep 0.5
	done
	return 1
}

R=$T/results
opts=(--quick --no-plots --buffer 32M --gen-bytes 8M --chase-ms 5 --mixes 0,100)
export MESS=$mess
start=$(date +%s)

# ---- 1. two pinned tasks on this node ----
jid=$("$script" submit --nodelist="$node,$node" --time=10 "$R" "${opts[@]}" 2>"$T/submit1.err")
check "submit prints the array job id ($jid)" '[ -n "$jid" ] && [ "$jid" -gt 0 ] 2>/dev/null' || cat "$T/submit1.err"
check "first array finishes within 60 s" 'drain 60'
check "fleet-nodes.txt names the two tasks' directories" \
	'[ "$(cat "$R/fleet-nodes.txt" | tr "\n" " ")" = "$node-0 $node-1 " ]'
for i in 0 1; do
	d=$R/$node-$i
	check "$node-$i: complete run" 'jq -e ".complete == true and .mixes == [0,100]" "$d/meta.json" >/dev/null'
	check "$node-$i: curves.csv has both mixes" \
		'[ "$(cut -d, -f1 "$d/curves.csv" | sort -u | tr "\n" " ")" = "0 100 store_pct " ]'
	check "$node-$i: its log says measure and exit 0" \
		'grep -q ": measure curves" "$d/mess-fleet.log" && grep -qx "== exit 0" "$d/mess-fleet.log"'
	check "$node-$i: Slurm's output in RESULTS" '[ -s "$R/slurm-${jid}_$i.out" ]'
done

# ---- 2. a partial run and a broken one: resubmit over three tasks ----
d=$R/$node-1
jq '.done_mixes = [0]' "$d/resume.json" >"$T/r.json" && mv "$T/r.json" "$d/resume.json"
sed -i 's/"complete": true/"complete": false/' "$d/meta.json"
awk -F, 'NR == 1 || $1 != 100' "$d/curves.csv" >"$T/c.csv" && mv "$T/c.csv" "$d/curves.csv"
mkdir -p "$R/$node-2"
echo '{ not json' >"$R/$node-2/resume.json"
jid2=$("$script" submit --nodelist="$node,$node,$node" --time=10 "$R" "${opts[@]}" 2>"$T/submit2.err")
check "resubmission accepted ($jid2)" '[ -n "$jid2" ]' || cat "$T/submit2.err"
check "second array finishes within 60 s" 'drain 60'
check "$node-0: skipped, complete" \
	'grep -q "complete (meta.json), skipped" "$R/$node-0/mess-fleet.log" && grep -q "$node-0: complete, skipped" "$R/slurm-${jid2}_0.out"'
check "$node-1: resumed to complete, mix 100 measured again, mix 0 reused" \
	'grep -q ": resume curves" "$d/mess-fleet.log" && jq -e ".complete == true and .resumed == 1 and .points_reused > 0" "$d/meta.json" >/dev/null && grep -q "^100," "$d/curves.csv"'
check "$node-2: failed, its log and directory kept" \
	'grep -q "^== exit [1-9]" "$R/$node-2/mess-fleet.log" && grep -q "not valid JSON" "$R/$node-2/mess-fleet.log" && grep -q "exit [1-9]" "$R/slurm-${jid2}_2.out"'

# ---- 3. plain sbatch, no pinning: task 0 of this node is complete ----
MESS_FLEET_NAME=%n-%a sbatch --parsable --array=0 --output="$R/plain-%A_%a.out" \
	"$script" "$R" "${opts[@]}" >"$T/plain.id" 2>"$T/plain.err"
check "plain sbatch array finishes within 30 s" 'drain 30'
check "plain sbatch: this node's run is complete, skipped" \
	'grep -q "^mess-fleet: $node-0: complete, skipped" "$R"/plain-*.out'

# ---- 3b. pinned over a whole partition: its one node, task 0, complete ----
MESS_FLEET_NAME=%n-%a "$script" submit --partition=messtest "$R" "${opts[@]}" >"$T/part.id" 2>"$T/part.err"
check "submit --partition: one task, finished within 30 s" \
	'[ -s "$T/part.id" ] && drain 30 && grep -q "1 task(s)" "$T/part.err"' || cat "$T/part.err"
check "submit --partition: this node's run is complete, skipped" \
	'grep -q "^mess-fleet: $node-0: complete, skipped" "$R/slurm-$(cat "$T/part.id")_0.out"'
check "fleet-nodes.txt keeps every submission's nodes, once each" \
	'[ "$(tr "\n" " " <"$R/fleet-nodes.txt")" = "$node-0 $node-1 $node-2 " ]'

# ---- 4. merge ----
# --with-invalid: the quick runs of this test's machine may well be INVALID
# (meta.json quality); what is tested here is the merge of what the batch
# script left, not the machine (tests/fleet.sh tests the verdicts).
"$mess" fleet "$R" --out "$T/fleet" --with-invalid >"$T/fleet.out" 2>"$T/fleet.err"
rc=$?
check "mess fleet exit 0 ($rc)" '[ $rc -eq 0 ]' || cat "$T/fleet.err"
for f in fleet.csv fleet.md meta.json median-g1/curves.csv median-g1/meta.json; do
	check "$f written" '[ -s "$T/fleet/$f" ]'
done
csv=$T/fleet/fleet.csv
check "fleet.csv: a header and one row per node directory" \
	'[ $(wc -l <"$csv") -eq $(($(ls -d "$R"/*/ | wc -l) + 1)) ]'
check "fleet.csv: $node-0 and $node-1 compared in g1" \
	'[ $(grep -c "^$node-[01],[^,]*,g1,compared," "$csv") -eq 2 ]'
check "fleet.csv: each run's verdict, from its meta.json" \
	'(for n in 0 1; do v=$(awk -F, -v n="$node-$n" "NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"verdict\") k = i } \$1 == n { print \$k }" "$csv");
		[ "$v" = "$(jq -r ".quality.verdict // \"none\"" "$R/$node-$n/meta.json")" ] || exit 1; done)'
check "fleet.md lists $node-2 as not a run, with its log" \
	'grep -q "^- $node-2, curves (not a run):.*mess-fleet.log ends: .*not valid JSON" "$T/fleet/fleet.md"'
check "the median set reads back (mess export)" \
	'"$mess" export "$T/fleet/median-g1" --format csv --out "$T/export" >/dev/null 2>&1'
check "meta.json of the median says 2 nodes" \
	'jq -e ".fleet_median.nodes == 2 and .tool == \"mess fleet\"" "$T/fleet/median-g1/meta.json" >/dev/null'

secs=$(($(date +%s) - start))
echo "fleet-slurm: $pass passed, $fail failed (Slurm part $secs s)"
[ $fail -eq 0 ] || { echo "fleet-slurm: logs kept in $T"; exit 1; }
