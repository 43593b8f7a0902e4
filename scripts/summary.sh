#!/bin/sh
# Sum automake test-suite.log files into "N passed, N failed, N skipped".
awk '
/^# PASS:/  { pass += $3 }
/^# SKIP:/  { skip += $3 }
/^# XFAIL:/ { pass += $3 }
/^# FAIL:/  { fail += $3 }
/^# ERROR:/ { fail += $3 }
/^# XPASS:/ { fail += $3 }
END { printf "%d passed, %d failed, %d skipped\n", pass, fail, skip }
' "$@" 2>/dev/null
