#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tests/docs.sh MESS SHARE
#
# What tools/gen-docs.sh generated from the tables (SHARE = build/<arch>/
# share): a man page per command naming each of its options, and bash
# completion that completes commands and each command's options.
set -u
mess=$1
share=$2
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }

check "mess(1) exists and names every command" \
	'for c in $("$mess" --list-commands | cut -f1); do grep -q "mess\\\\-$c(1)" "$share/man/man1/mess.1" || exit 1; done'
# The installed page says what a command does, not what the build
# machine lacked (issue 46 item 7: "profile ... unavailable here").
check "mess(1) carries no 'unavailable here' of the build machine" \
	'! grep -q "unavailable here" "$share/man/man1/mess.1"'
for c in $("$mess" --list-commands | cut -f1); do
	p=$share/man/man1/mess-$c.1
	check "mess-$c(1) exists with its NAME" '[ -s "$p" ] && grep -q "^mess-$c \\\\- " "$p"'
	for o in $("$mess" "$c" --help | sed -n 's/^  \(--[a-z0-9-]*\).*/\1/p'); do
		check "mess-$c(1) names $o" 'grep -qF -- "$(echo "$o" | sed "s/-/\\\\-/g")" "$p"'
	done
done
if command -v man >/dev/null; then
	check "man renders mess-report(1)" 'man -l "$share/man/man1/mess-report.1" 2>/dev/null | grep -q -- "--peak-gbs"'
fi
# bash completion, as bash calls it.
comp() { # WORD...: the completions of the last word
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _mess; echo "${COMPREPLY[*]}"' _ \
		"$share/bash-completion/completions/mess" "$@"
}
check "bash: 'mess abs' completes to absorb" '[ "$(comp mess abs)" = absorb ]'
check "bash: 'mess absorb --km' completes to --kmax" '[ "$(comp mess absorb --km)" = --kmax ]'
check "bash: 'mess --qu' completes curves' --quick" '[ "$(comp mess --qu)" = --quick ]'
check "bash: 'mess report --pe' completes to --peak-gbs" '[ "$(comp mess report --pe)" = --peak-gbs ]'
check "zsh completion lists the commands" 'grep -q "^  .report:" "$share/zsh/vendor-completions/_mess"'
# Issue 34 item 15: option values complete from the tables, each option
# is offered once, mess(1) is a manual, not the curves' help alone.
fmts=$("$mess" export --help | awk '/^Formats:/ { on = 1; next } on && /^  [a-z]/ { print $1; next } on { exit }' | paste -sd' ' -)
check "bash: 'mess export --format ' completes to the formats ($fmts)" \
	'[ -n "$fmts" ] && [ "$(comp mess export --format "")" = "$fmts" ]'
check "bash: 'mess export --format pr' completes to profet" '[ "$(comp mess export --format pr)" = profet ]'
# Issue 46 item 7: --stat, --counters and --variant complete to their
# values, not to file names; "--format=pr" as "--format pr".
check "bash: 'mess export --stat p9' completes to p90 p99 p99.9" '[ "$(comp mess export --stat p9)" = "p90 p99 p99.9" ]'
check "bash: 'mess compare --stat m' completes to mean" '[ "$(comp mess compare --stat m)" = mean ]'
check "bash: 'mess curves --variant sc' completes to scalar" '[ "$(comp mess curves --variant sc)" = scalar ]'
check "bash: 'mess --counters of' completes to off" '[ "$(comp mess --counters of)" = off ]'
check "bash: 'mess export --format=pr' completes to profet" '[ "$(comp mess export --format=pr)" = profet ]'
check "bash: 'mess export --format = pr' (COMP_WORDBREAKS) completes to profet" '[ "$(comp mess export --format = pr)" = profet ]'
check "bash: 'mess import --processing ' completes to the three processings" \
	'[ "$(comp mess import --processing "")" = "mess mess-groups per-ratio" ]'
check "bash: 'mess import --processing mess-' completes to mess-groups" '[ "$(comp mess import --processing mess-)" = mess-groups ]'
check "bash: 'mess --mem-node h' completes to hbm" '[ "$(comp mess --mem-node h)" = hbm ]'
check "bash: 'mess --mem-node e' completes to each" '[ "$(comp mess --mem-node e)" = each ]'
check "bash: 'mess ladder --mem-node e' offers no each (curves' alone)" '[ -z "$(comp mess ladder --mem-node e)" ]'
check "bash: 'mess --mem-node ' offers this machine's node 0" \
	'[ ! -d /sys/devices/system/node/node0 ] || comp mess --mem-node "" | tr " " "\n" | grep -qx 0'
check "bash: 'mess sample --o' offers --out once ($(comp mess sample --o))" \
	'[ "$(comp mess sample --o | tr " " "\n" | grep -cx -- --out)" -eq 1 ]'
m1=$share/man/man1/mess.1
for s in COMMANDS EXAMPLES "EXIT STATUS" FILES; do
	check "mess(1) has a $s section" 'grep -qx ".SH $s" "$m1"'
done
check "mess(1) lists every command under COMMANDS" \
	'for c in $("$mess" --list-commands | cut -f1); do grep -qx ".B mess $c" "$m1" || exit 1; done'
check "no man page points into the source tree (results/README.md, docs/)" \
	'! grep -l -e "results/README" -e "docs/reference" "$share"/man/man1/*.1'
check "the man pages name the installed results.md" 'grep -q "share/doc/mess/results.md" "$m1"'

echo "docs: $pass passed, $fail failed"
[ $fail -eq 0 ]
