#!/usr/bin/env bash
# Run the CLI table: each row is `args | exit | expected text`.
set -u
bin=$1 table=$2
pass=0 fail=0
while IFS='|' read -r args code text; do
	case "$args" in ''|'#'*) continue ;; esac
	args=$(echo "$args" | sed 's/[[:space:]]*$//')
	code=$(echo "$code" | tr -d '[:space:]')
	text=$(echo "$text" | sed 's/^[[:space:]]*//;s/[[:space:]]*$//')
	# shellcheck disable=SC2086
	out=$(timeout 60 "$bin" $args 2>&1 </dev/null)
	got=$?
	if [ "$got" = "$code" ] && grep -qF -- "$text" <<<"$out"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: mess $args: exit $got (want $code), output:"
		echo "$out" | head -5 | sed 's/^/    /'
		echo "    wanted text: $text"
	fi
done <"$table"
echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
