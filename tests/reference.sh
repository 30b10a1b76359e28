# SPDX-License-Identifier: MIT
#
# Sourced by the suites that read ../shared/reference (the public sets and
# raw Mess trees).  By hand, where it is missing, such a suite is SKIPPED
# and says why in one line; under CI (CI=true, as .ci/run exports it) it
# fails in one line: a CI run that skipped what it claims to check would
# pass having proven nothing (issue 44).
#
# no_reference SUITE WHY: returns by hand (the caller skips); exits 1 under CI.
no_reference() {
	if [ "${CI:-}" = true ]; then
		echo "FAIL $1: $2 (CI=true: ../shared/reference is required, not skipped)"
		exit 1
	fi
	echo "SKIPPED $1: $2"
	echo "$1: $2" >>"${SKIPPED_FILE:-/dev/null}"
}
