#!/usr/bin/env bash
# Prints the CPU that `make release` compiles esmsim's Swift code for: `haswell` (the
# x86-64-v3 level: AVX2, FMA, BMI1/2, LZCNT, MOVBE, F16C; Intel Haswell and AMD Zen onwards)
# when this machine's processor has all of it, nothing otherwise (the compiler's baseline).
#
# Why: on the city benchmark the x86-64-v3 build is about 6 % faster (rounding and bit
# operations become single instructions). The results are the same bit for bit: Swift never
# fuses or reorders floating-point operations on its own, whatever the CPU (checked on the
# benchmark scenarios' outputs, `make validate` and `esmsim bench random`).
#
# The binary then runs only on such processors. To build for any x86-64 (for example to copy
# the binary to older cluster nodes): `make release CPU=`.
set -euo pipefail

[ "$(uname -m)" = "x86_64" ] || exit 0
[ -r /proc/cpuinfo ] || exit 0
flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
for f in avx2 fma bmi1 bmi2 abm movbe f16c popcnt sse4_2; do
  case "$flags" in
    *" $f "*) ;;
    *) exit 0 ;;
  esac
done
echo haswell
