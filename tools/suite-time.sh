#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The shell of make check's recipes (the Makefile's SHELL for the suites
# and what they build): runs one recipe line, `suite-time.sh TARGET -c
# LINE`, and appends TARGET, its start and its end (epoch seconds) to
# $MESS_CHECK_TIMES, so that make check can say how long each suite took
# (issue 47: the note gives the time per suite) though suites run side by
# side with their output held (-Otarget).  MAKELEVEL goes with each line:
# a suite that runs make again (check-sanitize, check-<isa>) holds its
# inner suites' lines inside its own.  Without MESS_CHECK_TIMES it is only
# /bin/sh.
t=$1
shift
[ -n "$MESS_CHECK_TIMES" ] || exec /bin/sh "$@"
s=$(date +%s.%N)
/bin/sh "$@"
rc=$?
printf '%s\t%s\t%s\t%s\n' "$t" "$s" "$(date +%s.%N)" "${MAKELEVEL:-0}" >>"$MESS_CHECK_TIMES"
exit $rc
