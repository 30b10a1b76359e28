# SPDX-License-Identifier: MIT
# Sourced by tests/gpu.sh with $fake, a directory holding the tests' fake
# libcuda.so.1 (tests/gpu/fakecuda.c): the GPU backend's host side end to
# end, its files against the fake's formulas:
#   B(nop) = 200 / (1 + nop / 64) GB/s, L(B) = 500 / (1 - B / 1000) ns,
#   timer cost 40, read share 100 - store %, 4 SMs x 3 CTAs.
# The latency is exact (the fake's timer); the bandwidth is counted in real
# time by the fake's thread and the host's clock, so it gets 15 %.
FAKE_NAME='mess-fakecuda (tests/gpu/fakecuda.c, not a GPU)'
fk() { LD_LIBRARY_PATH=$fake "$mess" curves --device "$@"; }

# rows_bad DIR: the rows of curves.csv off the formulas.
rows_bad() {
	awk -F, 'NR > 1 {
		b = 200 / (1 + $3 / 64); l = 500 / (1 - b / 1000)
		if ((($7 - l) ^ 2) ^ 0.5 > 1e-3 || (($4 - b) ^ 2) ^ 0.5 > 0.15 * b ||
		    (($2 - (100 - $1)) ^ 2) ^ 0.5 > 1e-6 || $8 != 0 || $10 != "accounted")
			print NR ": " $0
	}' "$1/curves.csv"
}

d=$out/fake-run
fk gpu:0 --quick --buffer 8M --gen-bytes 1M --out "$d" >"$out/stdout" 2>"$out/err"
rc=$?
check "fake driver: a quick GPU run ends 0 (exit $rc): $(tail -2 "$out/err")" '[ $rc -eq 0 ]'
check "fake driver: stdout is the directory" '[ "$(cat "$out/stdout")" = "$d" ]'
bad_rows=$(rows_bad "$d")
check "fake driver: every point is the formulas' (latency to 1e-3 ns, bandwidth 15 %, read share 100 - s): ${bad_rows:0:300}" \
	'[ -z "$bad_rows" ] && [ "$(awk -F, "NR > 1" "$d/curves.csv" | wc -l)" -ge 18 ]'
for s in 0 50 100; do
	n=$(awk -F, -v s=$s 'NR > 1 && $1 == s' "$d/curves.csv" | wc -l)
	check "fake driver: mix $s has its --quick points ($n)" '[ "$n" -ge 6 ]'
done
meta() { python3 -c "import json,sys; m=json.load(open('$d/meta.json')); print($1)"; }
check "fake driver: meta.json cpu_model is the fake's device: $(meta "m['cpu_model']")" \
	'[ "$(meta "m[\"cpu_model\"]")" = "$FAKE_NAME (GPU 0, sm_90, 4 SMs)" ]'
check "fake driver: meta.json gpu: its device, 4 SMs, 12 CTAs, 1000 MHz SM clock, peak 256 GB/s" \
	'[ "$(meta "m[\"gpu\"][\"device\"], m[\"gpu\"][\"sms\"], m[\"gpu\"][\"ctas\"], m[\"gpu\"][\"sm_clock_mhz\"], m[\"gpu\"][\"peak_gbs\"]")" = "$FAKE_NAME 4 12 1000.0 256.0" ]'
check "fake driver: the timer's cost 40 ns, the unloaded latency 500 ns: $(meta "m['chase']['timer_cost_ns'], m['unloaded_ns']")" \
	'[ "$(meta "m[\"chase\"][\"timer_cost_ns\"], m[\"unloaded_ns\"]")" = "40.0 500.0" ]'
check "fake driver: summary.md's title and how line name the fake device, its CTAs and SMs" \
	'head -1 "$d/summary.md" | grep -qF "# $FAKE_NAME GPU 0 memory" &&
	 grep -qF "($FAKE_NAME (GPU 0, sm_90, 4 SMs)), GPU 0" "$d/summary.md" &&
	 grep -q "generators on 12 CTAs x 256 threads over 4 SMs" "$d/summary.md"'
check "fake driver: no file names a real GPU or a CPU model" \
	'! grep -rqE "H100|H200|A100|B200|GeForce|Tesla|Xeon|EPYC|Ryzen" "$d"'
check "fake driver: the verdict PASS" 'grep -q "^## Verdict: PASS" "$d/summary.md"'

# The clock64 chase: cycles at the 1 GHz the driver states, the same ns.
d=$out/fake-clk
fk gpu:0 --quick --gpu-timer clock64 --mixes 0 --buffer 8M --gen-bytes 1M --no-plots --out "$d" >/dev/null 2>"$out/err"
rc=$?
bad_rows=$(rows_bad "$d")
check "fake driver: --gpu-timer clock64 ends 0 and its points are the formulas' (exit $rc): ${bad_rows:0:300}" \
	'[ $rc -eq 0 ] && [ -z "$bad_rows" ]'
check "fake driver: --gpu-timer clock64 is said in meta.json" \
	'[ "$(meta "m[\"chase\"][\"kernel\"]")" = mess_chase_clk ]'

# The default directory says gpu; an ordinal the driver lacks is bad input.
mkdir -p "$out/cwd2"
(cd "$out/cwd2" && LD_LIBRARY_PATH=$fake "$mess" curves --device gpu:0 --quick --mixes 0 --points 3 \
	--buffer 8M --gen-bytes 1M --no-plots >"$out/stdout" 2>/dev/null)
check "fake driver: the default directory is results/<host>-gpu-<UTC>: $(cat "$out/stdout")" \
	'grep -q "^results/.*-gpu-[0-9]\{8\}T[0-9]\{6\}Z$" "$out/stdout"'
(cd "$out/cwd" && LD_LIBRARY_PATH=$fake "$mess" curves --device gpu:1 --quick >"$out/stdout" 2>"$out/err")
rc=$?
check "fake driver: gpu:1 of one GPU exits 1 in one line naming what is allowed (exit $rc): $(cat "$out/err")" \
	'[ $rc -eq 1 ] && [ "$(wc -l <"$out/err")" -eq 1 ] &&
	 grep -q "^mess: --device: .gpu:1. is not a GPU here; allowed: gpu:0..gpu:0" "$out/err" &&
	 [ -z "$(ls -A "$out/cwd")" ]'

# A PTX the JIT refuses: its log on stderr, exit 2, nothing written.
(cd "$out/cwd" && FAKECUDA_JIT_FAIL=1 LD_LIBRARY_PATH=$fake "$mess" curves --device gpu:0 --quick >"$out/stdout" 2>"$out/err")
rc=$?
check "fake driver: a JIT failure exits 2 with the call, the file and the JIT's log, nothing written (exit $rc): $(head -c 300 "$out/err")" \
	'[ $rc -eq 2 ] && grep -q "^mess: --device gpu:0: cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (fake) (CUresult 218)" "$out/err" &&
	 grep -q "^mess: the JIT.s log for kernels/ptx/chase.ptx:" "$out/err" &&
	 grep -q "^ptxas fatal   : fakecuda refused this PTX" "$out/err" && [ -z "$(ls -A "$out/cwd")" ]'

# A chain longer than its 32-bit indices: bad input, before the directory.
(cd "$out/cwd" && LD_LIBRARY_PATH=$fake "$mess" curves --device gpu:0 --quick --buffer 2T --stride 64 >"$out/stdout" 2>"$out/err")
rc=$?
check "fake driver: --buffer 2T --stride 64 (2^35 lines) exits 1 in one line, nothing written (exit $rc): $(cat "$out/err")" \
	'[ $rc -eq 1 ] && [ "$(wc -l <"$out/err")" -eq 1 ] &&
	 grep -q "^mess: --buffer: 2199023255552 bytes are over 2^32 lines of --stride 64; allowed:" "$out/err" &&
	 [ -z "$(ls -A "$out/cwd")" ]'
