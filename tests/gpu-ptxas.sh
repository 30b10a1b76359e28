#!/bin/sh
# SPDX-License-Identifier: MIT
# Every kernels/ptx/*.ptx assembled by NVIDIA's ptxas for sm_80, sm_90 and
# sm_100 (make check-ptx; issue 45), where a ptxas is found: PATH, CUDA's
# usual place, or a build-local venv with the nvidia-cuda-nvcc wheel
# (python3 -m venv build/ptx-venv && build/ptx-venv/bin/pip install
# nvidia-cuda-nvcc).  Without one it says SKIPPED and why, and passes:
# tests/gpu-ptx.py, which needs nothing, checks the text everywhere.
set -u
ptxas=$(command -v ptxas 2>/dev/null || true)
for p in /usr/local/cuda/bin/ptxas build/ptx-venv/lib/python3*/site-packages/nvidia/cuda_nvcc/bin/ptxas \
	build/ptx-venv/lib/python3*/site-packages/nvidia/cu*/bin/ptxas; do
	[ -n "$ptxas" ] && break
	[ -x "$p" ] && ptxas=$p
done
if [ -z "$ptxas" ]; then
	echo "SKIPPED ptxas: none found (PATH, /usr/local/cuda/bin, build/ptx-venv with nvidia-cuda-nvcc): the PTX was checked as text only"
	[ -n "${SKIPPED_FILE:-}" ] && echo "check-ptx: no ptxas" >>"$SKIPPED_FILE"
	exit 0
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
n=0
for f in kernels/ptx/*.ptx; do
	for sm in sm_80 sm_90 sm_100; do
		if ! "$ptxas" -arch=$sm -o "$tmp/out.cubin" "$f" 2>"$tmp/log"; then
			# A ptxas older than the architecture cannot judge it.
			if grep -q "Value '$sm' is not defined\|Unknown option\|not defined for option" "$tmp/log"; then
				echo "SKIPPED ptxas $sm: $("$ptxas" --version | tail -1) does not know it"
				continue
			fi
			echo "ptxas: $f for $sm:"; cat "$tmp/log"; exit 1
		fi
		n=$((n + 1))
	done
done
echo "ptxas: ok ($n assemblies, $("$ptxas" --version | tail -1))"
