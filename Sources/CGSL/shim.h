// Shim over GNU GSL for Swift.
//
// Swift 6 strict concurrency rejects reading GSL's global generator-type variables
// (`gsl_rng_mt19937` and friends are mutable globals), so every one we use is read
// through a `static inline` accessor here. esmsim itself draws from its own Philox
// streams through a custom `gsl_rng_type` (see SimKernel/Random/GSLAdaptor.swift);
// the accessors exist for tests that compare against GSL's own generators.
#ifndef ESMSIM_CGSL_SHIM_H
#define ESMSIM_CGSL_SHIM_H

#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_version.h>

static inline const gsl_rng_type *esmsim_gsl_rng_mt19937(void) { return gsl_rng_mt19937; }
static inline const char *esmsim_gsl_version(void) { return GSL_VERSION; }

#endif
