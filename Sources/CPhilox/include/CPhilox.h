// Philox4x32-10 blocks sixteen at a time with AVX2, for esmsim's random streams.
// Copyright (C) 2026 the esmsim authors. Licensed GPL-3.0-or-later.
#ifndef CPHILOX_H
#define CPHILOX_H

#include <stdint.h>

/// Whether this CPU and OS run AVX2 code (CPUID leaf 7 and the OS's saved YMM state).
/// Always 0 off x86-64.
int cphilox_has_avx2(void);

/// The sixteen Philox4x32-10 blocks of counters (block + i, c1, c2, c3), i = 0..15, under the
/// key (k0, k1), as a stream's thirty-two 64-bit numbers in order: for block i,
/// out[2i] = word0 << 32 | word1 and out[2i + 1] = word2 << 32 | word3. Two sets of eight
/// blocks whose rounds interleave (each hides the other's multiply latency).
/// Call only when cphilox_has_avx2() is 1; the caller keeps block + 15 from wrapping.
void cphilox_blocks16(uint32_t block, uint32_t c1, uint32_t c2, uint32_t c3,
                      uint32_t k0, uint32_t k1, uint64_t out[32]);

#endif
