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

echo "docs: $pass passed, $fail failed"
[ $fail -eq 0 ]
