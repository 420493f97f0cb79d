#!/usr/bin/env python3
"""Who stops for good in the real-study corpus: the figures behind dropout_per_day's default.

    ESMSIM_CORPUS=/path/to/corpus python3 scripts/corpus_stoppers.py

For each study under validation/real/ whose raw file is found in $ESMSIM_CORPUS/<study>/,
converts its records (scripts/corpus_convert.py) and counts the participants whose last answer
is followed by prompts on 2 days or more, none answered (validate_real.stoppers), and their
days at risk. A file that is not the version its study.yaml names (SHA-256) is left out, and
said. Studies whose records keep only the participants who answered enough (`records_kept`) are
listed but not pooled: their rule removed who stopped. Prints a Markdown table, then the pooled
rate a day with its exact Poisson 95 % interval, for the training studies and for all.
Without ESMSIM_CORPUS it says so and exits 0. Standard library only.
"""
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import corpus_convert  # noqa: E402
import validate_real as vr  # noqa: E402


def poisson_interval(k, level=0.95):
    """The exact (Garwood) interval of a Poisson mean from k events, by bisection."""
    def cdf(n, mean):
        term = total = math.exp(-mean)
        for i in range(1, n + 1):
            term *= mean / i
            total += term
        return total

    def solve(f, lo, hi):
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
        return (lo + hi) / 2
    tail = (1 - level) / 2
    lower = 0.0 if k == 0 else solve(lambda m: tail - (1 - cdf(k - 1, m)), 0.0, 10.0 * k + 10)
    upper = solve(lambda m: cdf(k, m) - tail, 0.0, 10.0 * k + 10)
    return lower, upper


def main():
    corpus = os.environ.get('ESMSIM_CORPUS')
    if not corpus:
        print('corpus_stoppers.py: ESMSIM_CORPUS is not set: nothing counted', file=sys.stderr)
        return 0
    print('| study | role | participants | with an answer | stopped | days at risk | a day |')
    print('|---|---|---|---|---|---|---|')
    pooled = {'training': [0, 0], 'all': [0, 0]}
    for study in vr.find_studies(vr.STUDIES_DIR):
        raw = study['raw_files'][0]
        path = os.path.join(corpus, study['name'], raw['name'])
        if not os.path.isfile(path):
            print(f"corpus_stoppers.py: {study['name']}: {path} not found, left out", file=sys.stderr)
            continue
        if vr.sha256(path) != raw.get('sha256'):
            print(f"corpus_stoppers.py: {study['name']}: {path} is not the version study.yaml names "
                  f"(SHA-256), left out", file=sys.stderr)
            continue
        rows = vr.rows_from_prompts(corpus_convert.convert(study['reader']['converter'], path))
        n, answering, stopped, days = vr.stoppers(rows)
        kept = bool(study.get('records_kept'))
        role = study.get('role', '') + (' (kept)' if kept else '')
        rate = f'{stopped / days:.4f}' if days else '-'
        print(f"| {study['name']} | {role} | {n} | {answering} | {stopped} | {days} | {rate} |")
        if not kept:
            for key in ['all'] + (['training'] if study.get('role') == 'training' else []):
                pooled[key][0] += stopped
                pooled[key][1] += days
    print()
    for key, (stopped, days) in pooled.items():
        if days:
            lo, hi = poisson_interval(stopped)
            print(f'- {key} (records that keep every participant): {stopped} stopped in {days} days, '
                  f'{stopped / days:.4f} a day (95 % {lo / days:.4f}-{hi / days:.4f})')
    return 0


if __name__ == '__main__':
    sys.exit(main())
