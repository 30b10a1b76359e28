#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tests/input.sh MESS
#
# Input refused with one line (issue 14), for the cases the CLI table
# (tests/cli/cases.txt) cannot spell: empty values given as '', control
# characters in a value, a read-only directory for --out (as nobody when
# run as root), and output that cannot be written (stdout on /dev/full).
# Each refusal must exit 1 with exactly one line on stderr, nothing on
# stdout, and nothing written: every command runs in an empty working
# directory that must stay empty.  Run from the repository root.
set -u
mess=$(realpath "$1")
pass=0 fail=0
tmp=$(mktemp -d /tmp/mess-input.XXXXXX)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir "$tmp/cwd"

ok() { pass=$((pass + 1)); }
bad() {
	fail=$((fail + 1))
	echo "FAIL: $1"
	sed 's/^/    /' "$tmp/err" | head -5
}

# refused TEXT ARGS...: exit 1, one line on stderr holding TEXT, no stdout,
# nothing in the working directory.
refused() {
	local text=$1 got
	shift
	(cd "$tmp/cwd" && timeout 60 "$mess" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null)
	got=$?
	if [ "$got" != 1 ]; then
		bad "mess $(printf '%q ' "$@"): exit $got, want 1"
	elif [ "$(wc -l <"$tmp/err")" != 1 ] || ! grep -qF -- "$text" "$tmp/err"; then
		bad "mess $(printf '%q ' "$@"): want one line with '$text'"
	elif [ -s "$tmp/out" ] || [ -n "$(ls -A "$tmp/cwd")" ]; then
		bad "mess $(printf '%q ' "$@"): wrote something"
	else
		ok
	fi
}

# Empty values: never the default.
refused "--out: an empty value is not allowed; allowed: DIR" --out ''
refused "--cores: an empty value is not allowed" --cores ''
refused "--variant: an empty value is not allowed" --variant ''
refused "--resume: an empty value is not allowed" --resume ''
refused "--mixes: an empty value is not allowed" --mixes ''
refused "--points: an empty value is not allowed" --points ''
refused "--out: an empty value is not allowed" curves --quick --out ''
refused "--out: an empty value is not allowed" absorb --out ''
refused "--resume: an empty value is not allowed" absorb --resume ''
refused "--kernels: an empty value is not allowed" absorb --kernels ''
refused "--q: an empty value is not allowed" absorb --q ''
refused "--out: an empty value is not allowed" ladder --out ''
refused "--mem-node: an empty value is not allowed" ladder --mem-node ''
refused "--out: an empty value is not allowed" export /tmp --out ''
refused "--out: an empty value is not allowed" compare a b --out ''
refused "--curves: an empty value is not allowed" position --curves '' x

# Control characters: a newline in --out once dropped the plots silently.
refused "--out: 'a\\nb' has a control character" --out $'a\nb'
refused "--out: 'run\\r' has a control character" --out $'run\r'
refused "--resume: 'x\\n' has a control character" --resume $'x\n'
refused "--cores: '1\\n' has a control character" --cores $'1\n'
refused "--points: '5\\r' has a control character" --points $'5\r'
refused "--out: 'a\\nb' has a control character" absorb --out $'a\nb'
refused "--out: 'a\\tb' has a control character" ladder --out $'a\tb'
refused "--kernels: 'stream\\n' has a control character" absorb --kernels $'stream\n'
refused "unknown option '--bo\\ngus'" $'--bo\ngus'
refused "unexpected argument 'str\\nay'" export a $'str\nay' --out x
# Spaces are no part of a number.
refused "--points: ' 5' is not allowed" --points ' 5'
refused "--buffer: '1 G' is not allowed" --buffer '1 G'
refused "--q: ' 0.5' is not allowed" absorb --q ' 0.5'
refused "--mixes: '0, 2' is not allowed" --mixes '0, 2'

# --out that can never hold a run, refused before anything is made.
touch "$tmp/file"
refused "--out: $tmp/file/run: $tmp/file is a file, not a directory" --out "$tmp/file/run"
refused "--out: $tmp/file: a file, not a directory" absorb --out "$tmp/file"
ln -s /nonexistent/mess "$tmp/dangling"
refused "--out: $tmp/dangling: a link to nothing" --out "$tmp/dangling"
# The same run refused for another option: the --out it names not made.
refused "--cores: '1,1' is not allowed" --out "$tmp/new/run" --cores 1,1
if [ -e "$tmp/new" ]; then
	fail=$((fail + 1)); echo "FAIL: a refused run made its --out"
else
	ok
fi

# A read-only directory: as nobody when root (root writes anywhere).
mkdir "$tmp/ro" && chmod 555 "$tmp/ro"
as=()
[ "$(id -u)" = 0 ] && as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
if [ ${#as[@]} -gt 0 ] && ! "${as[@]}" "$mess" --help >/dev/null 2>&1; then
	echo "SKIPPED the read-only --out: cannot run mess as nobody here"
else
	chmod 755 "$tmp"
	out=$(cd / && "${as[@]}" "$mess" --out "$tmp/ro/run" 2>&1 </dev/null)
	got=$?
	want="--out: $tmp/ro/run: $tmp/ro is not writable (Permission denied); allowed: a new or empty directory you can write"
	if [ "$got" = 1 ] && [ "$out" = "mess: $want" ]; then ok; else
		fail=$((fail + 1)); echo "FAIL: read-only --out: exit $got: $out"; fi
	out=$(cd / && "${as[@]}" "$mess" absorb --out "$tmp/ro" 2>&1 </dev/null)
	got=$?
	if [ "$got" = 1 ] && grep -qF "$tmp/ro is not writable" <<<"$out"; then ok; else
		fail=$((fail + 1)); echo "FAIL: read-only absorb --out: exit $got: $out"; fi
fi

# Output that cannot be written: exit 2 with one line, once the command
# itself succeeded; a command that failed keeps its own status.
full() {
	local want=$1 got
	shift
	(cd "$tmp/cwd" && "$mess" "$@" >/dev/full 2>"$tmp/err" </dev/null)
	got=$?
	if [ "$got" != "$want" ] || [ "$(wc -l <"$tmp/err")" != 1 ]; then
		bad "mess $* >/dev/full: exit $got (want $want) and one line on stderr"
	elif [ "$want" = 2 ] && ! grep -qF "mess: cannot write the output: No space left on device" "$tmp/err"; then
		bad "mess $* >/dev/full: the message"
	else
		ok
	fi
}
full 2 --help
full 2 -h
full 2 help
full 2 --list
full 2 nodes
full 2 nodes --json
for c in curves absorb ladder export nodes position compare; do
	full 2 "$c" --help
	full 2 help "$c"
done
full 1 --bogus
full 1 absorb --q 2

echo "input: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
