#!/usr/bin/env bash
# Characterise this machine's memory system: bandwidth-latency curve
# families (the Mess method), or with "absorb" the noise-absorption tables,
# with "ladder" the latency ladder (and "matrix", "c2c", "interfere": each
# closes with its verdict as the curves do).
# Installs what it needs when run as root, builds the suite, then runs it.
# With no argument: the curves, then a quick absorption table.  With
# arguments, the harness gets them all (./run.sh --help and ./run.sh absorb
# --help list them; --quick is the smoke run of either).
set -euo pipefail
cd "$(dirname "$0")"

# The run set of tools/debian-packages.txt: installed as root, else the
# apt-get line to run and exit 1.
tools/deps.sh run

make -s -j"$(nproc)" >&2
mess=$(make -s print-mess)
# The command mess names when it says how to go on (--resume): this
# script as it was invoked, which builds first and works where mess is
# not on PATH.
case $0 in */*) MESS_INVOKED_AS=$0 ;; *) MESS_INVOKED_AS=./$0 ;; esac
export MESS_INVOKED_AS
started=$(date +%s)

# The closing block, the last lines a run leaves: the time it all took,
# each part's verdict, directory and next step (from its meta.json, where
# mess writes one key a line: no jq needed), and the page to open; so
# that whether to trust it, and what to do, need no scrolling back.
# Arguments: the exit status, then a part's name and directory, ...
closing() {
	local rc=$1 t m v n page=
	shift
	t=$(($(date +%s) - started))
	echo "run.sh: finished in $((t / 60)) min $((t % 60)) s, exit $rc" >&2
	while [ $# -ge 2 ]; do
		m=$2/meta.json
		v=$(sed -n '/^  "quality": {/,/^  }/s/^    "verdict": "\([A-Za-z]*\)".*/\1/p' "$m" 2>/dev/null | head -n 1)
		n=$(sed -n 's/^    "next_step": "\(.*\)",\{0,1\}$/\1/p' "$m" 2>/dev/null | head -n 1)
		echo "run.sh:   $1: ${v:-no verdict} in $2${n:+; next step: $n}" >&2
		[ -n "$page" ] || [ ! -f "$2/report.html" ] || page=$2/report.html
		shift 2
	done
	[ -z "$page" ] || echo "run.sh: open $page" >&2
}

if [ $# -gt 0 ]; then
	# A command other than a measurement's is the harness alone.
	case $1 in
	-*|curves|absorb|ladder|matrix|c2c|interfere) ;;
	*) exec "$mess" "$@" ;;
	esac
	# A measurement, its status ours; its directory from --out or
	# --resume, else its stdout's last line, which is kept to be said
	# after.
	part=curves dir= prev=
	case $1 in -*) ;; *) part=$1 ;; esac
	for a in "$@"; do
		case $prev in --out|--resume) dir=$a ;; esac
		case $a in --out=*|--resume=*) dir=${a#*=} ;; esac
		prev=$a
	done
	so=$(mktemp)
	trap 'rm -f "$so"' EXIT
	# In the foreground: a terminal's Ctrl-C reaches mess, which keeps
	# what it measured and exits 130 (a script signals mess, run.sh's
	# child: run.sh waits for it to close the run with its block).
	rc=0
	"$mess" "$@" >"$so" || rc=$?
	cat "$so"
	# --json: stdout is summary.json, which says where the run is.
	[ -n "$dir" ] || dir=$(sed -n 's/^  "run_dir": "\(.*\)",\{0,1\}$/\1/p' "$so" | head -n 1)
	[ -n "$dir" ] || dir=$(tail -n 1 "$so")
	# --help, or refused before it began: nothing of its own to close.
	[ -n "$dir" ] && [ -f "$dir/meta.json" ] && closing $rc "$part" "$dir"
	exit $rc
fi

# No arguments: the default characterisation, curves then a quick
# absorption table, in one directory.
out="results/$(uname -n)-$(date -u +%Y%m%dT%H%M%SZ)"
# Exit 3: that part cannot run on this machine (it says why); go on.
rc=0
"$mess" --out "$out" || { rc=$?; [ $rc -eq 3 ] || { closing $rc curves "$out"; exit $rc; }; }
"$mess" absorb --quick --out "$out/absorb" || { rc=$?; [ $rc -eq 3 ] || { closing $rc curves "$out" absorb "$out/absorb"; exit $rc; }; }
# The curves' page again, now that it can link the absorption table's.
"$mess" report --no-plots "$out" >/dev/null || true
closing 0 curves "$out" absorb "$out/absorb"
