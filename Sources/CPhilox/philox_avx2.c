// Philox4x32-10 (Salmon et al., SC'11) on sixteen counters at once: two sets of eight, one
// counter per 32-bit lane of an AVX2 register, whose rounds interleave. The same function of counter and key as SimKernel's Philox4x32.block:
// PhiloxTests checks every output word against it. Compiled for AVX2 only in this one
// function (target attribute), called only where the CPU reports AVX2.
#include "CPhilox.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

int cphilox_has_avx2(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
  // OSXSAVE (bit 27) and AVX (bit 28), then the OS saves XMM and YMM state (XCR0 bits 1, 2).
  if ((c & (1u << 27)) == 0 || (c & (1u << 28)) == 0) return 0;
  unsigned lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  if ((lo & 6u) != 6u) return 0;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
  return (b & (1u << 5)) != 0;  // AVX2
}

// The high and low 32 bits of the 32 x 32-bit products m * x in each lane.
__attribute__((target("avx2"))) static inline void mulhilo(__m256i m, __m256i x, __m256i *hi,
                                                           __m256i *lo) {
  __m256i even = _mm256_mul_epu32(m, x);                                         // lanes 0, 2, 4, 6
  __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(m, 32), _mm256_srli_epi64(x, 32));  // 1, 3, 5, 7
  *hi = _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
  *lo = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
}

// One Philox round on the eight counters (x0, x1, x2, x3) under the round key (ka, kb).
__attribute__((target("avx2"))) static inline void round8(__m256i *x0, __m256i *x1, __m256i *x2,
                                                          __m256i *x3, __m256i ka, __m256i kb) {
  const __m256i m0 = _mm256_set1_epi32((int)0xD2511F53u);
  const __m256i m1 = _mm256_set1_epi32((int)0xCD9E8D57u);
  __m256i hi0, lo0, hi1, lo1;
  mulhilo(m0, *x0, &hi0, &lo0);
  mulhilo(m1, *x2, &hi1, &lo1);
  __m256i y0 = _mm256_xor_si256(_mm256_xor_si256(hi1, *x1), ka);
  __m256i y2 = _mm256_xor_si256(_mm256_xor_si256(hi0, *x3), kb);
  *x0 = y0;
  *x1 = lo1;
  *x2 = y2;
  *x3 = lo0;
}

// The sixteen 64-bit numbers of eight blocks in stream order (see CPhilox.h).
__attribute__((target("avx2"))) static inline void store8(__m256i x0, __m256i x1, __m256i x2,
                                                          __m256i x3, uint64_t out[16]) {
  // Lane i of (x1, x0) interleaved is word0 << 32 | word1 of block i; likewise (x3, x2).
  __m256i w01lo = _mm256_unpacklo_epi32(x1, x0);  // blocks 0, 1 | 4, 5
  __m256i w01hi = _mm256_unpackhi_epi32(x1, x0);  // blocks 2, 3 | 6, 7
  __m256i w23lo = _mm256_unpacklo_epi32(x3, x2);
  __m256i w23hi = _mm256_unpackhi_epi32(x3, x2);
  // Per block the pair (w01, w23): interleave the 64-bit lanes.
  __m256i b0145a = _mm256_unpacklo_epi64(w01lo, w23lo);  // block 0 | block 4
  __m256i b0145b = _mm256_unpackhi_epi64(w01lo, w23lo);  // block 1 | block 5
  __m256i b2367a = _mm256_unpacklo_epi64(w01hi, w23hi);  // block 2 | block 6
  __m256i b2367b = _mm256_unpackhi_epi64(w01hi, w23hi);  // block 3 | block 7
  __m256i *o = (__m256i *)out;
  _mm256_storeu_si256(o + 0, _mm256_permute2x128_si256(b0145a, b0145b, 0x20));  // blocks 0, 1
  _mm256_storeu_si256(o + 1, _mm256_permute2x128_si256(b2367a, b2367b, 0x20));  // blocks 2, 3
  _mm256_storeu_si256(o + 2, _mm256_permute2x128_si256(b0145a, b0145b, 0x31));  // blocks 4, 5
  _mm256_storeu_si256(o + 3, _mm256_permute2x128_si256(b2367a, b2367b, 0x31));  // blocks 6, 7
}

__attribute__((target("avx2"))) void cphilox_blocks16(uint32_t block, uint32_t c1, uint32_t c2,
                                                      uint32_t c3, uint32_t k0, uint32_t k1,
                                                      uint64_t out[32]) {
  // Two sets of eight counters whose rounds interleave: each hides the other's latency.
  __m256i x0 = _mm256_add_epi32(_mm256_set1_epi32((int)block), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256i z0 = _mm256_add_epi32(x0, _mm256_set1_epi32(8));
  __m256i x1 = _mm256_set1_epi32((int)c1), z1 = x1;
  __m256i x2 = _mm256_set1_epi32((int)c2), z2 = x2;
  __m256i x3 = _mm256_set1_epi32((int)c3), z3 = x3;
  uint32_t a = k0, b = k1;
  for (int r = 0; r < 10; r++) {
    __m256i ka = _mm256_set1_epi32((int)a), kb = _mm256_set1_epi32((int)b);
    round8(&x0, &x1, &x2, &x3, ka, kb);
    round8(&z0, &z1, &z2, &z3, ka, kb);
    a += 0x9E3779B9u;
    b += 0xBB67AE85u;
  }
  store8(x0, x1, x2, x3, out);
  store8(z0, z1, z2, z3, out + 16);
}

#else

int cphilox_has_avx2(void) { return 0; }

void cphilox_blocks16(uint32_t block, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t k0,
                      uint32_t k1, uint64_t out[32]) {
  (void)block; (void)c1; (void)c2; (void)c3; (void)k0; (void)k1; (void)out;
}

#endif
