#!/usr/bin/env python3
"""`esmsim calibrate --kept-at-least` on a simulated pilot whose truth is known.

    python3 scripts/kept_closed_loop.py .build/release/esmsim [--least 0.7] [--work DIR]

Simulates a pilot (150 participants, 4 fixed prompts a day for 14 days, an hour to answer,
esmsim's default people), keeps only the participants who answered at least --least of their
prompts (those with fewer than 5 prompts whatever their share, as esmsim does), and fits three
ways: every participant, the kept records read as they are, and the kept records with
--kept-at-least. Each fit's people are then simulated on the same protocol (5 replications):
the answered share, the between-person sd and 10th percentile of every participant, and the
share the rule keeps, against the truth's. Prints a Markdown table (docs/calibration.md).
Standard library only; about 3 minutes on 2 cores.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import validate_real as vr  # noqa: E402

TRUTH = """name: closed loop for --kept-at-least
start_date: "2025-03-03"
duration: 14d
seed: 4
population:
  size: 150
  time_zones: {Europe/Brussels: 1}
protocol:
  window: "09:00-21:30"
  schedule: {algorithm: fixed-times, times: ["09:00", "13:00", "17:00", "21:00"]}
  expiry: 60m
  channel: push
outputs: {prompts: true, participants: false, sqlite: false, report: false}
"""
COLUMNS = ['participant', 'scheduled', 'delivered', 'opened', 'submitted']


def pilot_rows(prompts_csv):
    """The simulated prompts as a pilot's records: not volunteered, before any dropout."""
    with open(prompts_csv, newline='', encoding='utf-8') as f:
        return [r for r in csv.DictReader(f) if r.get('volunteered', '0') != '1' and r['status'] != 'dropped_out']


def write_pilot(rows, keep, path):
    with open(path, 'w', newline='', encoding='utf-8') as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        for r in rows:
            if r['participant'] in keep:
                w.writerow([r[c] if (c != 'submitted' or r['status'] == 'answered') else '' for c in COLUMNS])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('esmsim')
    ap.add_argument('--least', type=float, default=0.7, help='the rule: the share a participant must reach (0.7)')
    ap.add_argument('--work', help='keep the files in this folder')
    args = ap.parse_args()
    work = args.work or tempfile.mkdtemp(prefix='esmsim-kept-')
    os.makedirs(work, exist_ok=True)
    esmsim = os.path.abspath(args.esmsim)
    truth = os.path.join(work, 'truth.yaml')
    with open(truth, 'w', encoding='utf-8') as f:
        f.write(TRUTH)
    subprocess.run([esmsim, 'run', truth, '--output', os.path.join(work, 'truth'), '--force'], check=True,
                   capture_output=True)
    rows = pilot_rows(os.path.join(work, 'truth', 'prompts.csv'))
    counts = defaultdict(lambda: [0, 0])
    for r in rows:
        counts[r['participant']][0] += 1
        counts[r['participant']][1] += r['status'] == 'answered'
    keep = {p for p, (n, a) in counts.items() if n < 5 or a >= args.least * n - 1e-9}
    write_pilot(rows, set(counts), os.path.join(work, 'all.csv'))
    write_pilot(rows, keep, os.path.join(work, 'kept.csv'))
    least = Fraction(args.least).limit_denominator(1000)
    table = []
    truth_f = vr.simulated_figures(os.path.join(work, 'truth', 'prompts.csv'), keep_openings=False)
    table.append(('the truth (the pilot before the rule)', truth_f['answered'], truth_f['person_sd'],
                  truth_f['person_p10'], 100.0 * len(keep) / len(counts)))
    for label, pilot, extra in (('fitted to every participant', 'all.csv', []),
                                ('fitted to the kept records as they are', 'kept.csv', []),
                                (f'fitted to the kept records, --kept-at-least {args.least:g}', 'kept.csv',
                                 ['--kept-at-least', f'{args.least:g}'])):
        out = os.path.join(work, f'{pilot}-{len(table)}.yaml')
        subprocess.run([esmsim, 'calibrate', os.path.join(work, pilot), '--format', 'csv', '--time-zone',
                        'Europe/Brussels', '--scenario', truth, '--output', out, *extra], check=True, capture_output=True)
        with open(os.path.splitext(out)[0] + '.json', encoding='utf-8') as f:
            fitted = json.load(f)['compliance']
        scenario = os.path.join(work, f'fit-{len(table)}.yaml')
        with open(scenario, 'w', encoding='utf-8') as f:
            f.write(vr.with_compliance(TRUTH, vr.median_compliance([fitted])))
        run_dir = os.path.join(work, f'fit-{len(table)}')
        subprocess.run([esmsim, 'run', scenario, '--output', run_dir, '--force', '--replications', '5', '--seed', '9'],
                       check=True, capture_output=True)
        every = vr.simulated_figures(os.path.join(run_dir, 'prompts.csv'), keep_openings=False)
        kept = vr.simulated_figures(os.path.join(run_dir, 'prompts.csv'), keep_openings=False, min_share=least)
        table.append((label, every['answered'], every['person_sd'], every['person_p10'], kept['kept']))
    print(f'| people | answered % | between-person sd | 10th percentile | the rule ({args.least:g}) keeps % |')
    print('|---|---|---|---|---|')
    for label, a, sd, p10, k in table:
        print(f'| {label} | {a:.1f} | {sd:.1f} | {p10:.1f} | {k:.0f} |')
    return 0


if __name__ == '__main__':
    sys.exit(main())
