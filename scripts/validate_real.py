#!/usr/bin/env python3
"""esmsim's predictions against real per-prompt ESM studies (validation/real/).

    ESMSIM_CORPUS=/path/to/corpus python3 scripts/validate_real.py .build/release/esmsim [--write]

For each study under validation/real/ whose raw file is found in $ESMSIM_CORPUS/<study>/
(the file names and SHA-256 are in the study's study.yaml), this script

  1. checks the file's SHA-256 and converts it (scripts/corpus_convert.py) to esmsim's
     per-prompt CSV in a temporary folder;
  2. computes the observed figures (`figures`);
  3. the default prediction: runs the study's scenario (esmsim's defaults) and computes the
     same figures from the simulated prompts;
  4. the split-half check: `esmsim calibrate` fitted on the first half of the study's days,
     its held-out answered share and how many held-out figures lie in their intervals;
  5. leave-one-study-out defaults: each training study calibrated on all its data; each
     study run with the median of the other training studies' fitted people (median_compliance);

then prints a Markdown section (and with --write puts it into --doc between the markers
<!-- real-studies:begin --> and <!-- real-studies:end -->). The exit status is 1 when a
check misses its bound (held-out answered share within 5 points, at least 85 % of the
held-out figures inside their intervals, leave-one-out prediction within 8 points), 0
otherwise or with --report-only. Without ESMSIM_CORPUS it says so and exits 0, having
checked nothing (CI has no corpus).

    python3 scripts/validate_real.py .build/release/esmsim --study my_study/study.yaml

checks a study of your own alone: its records beside its study.yaml, in esmsim's generic
per-prompt CSV when it names no converter, and the training studies' presets as its
leave-one-out people (validation/real/README.md, "A study of your own").

Standard library only, Python 3.9+.
"""
import argparse
import csv
import hashlib
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from datetime import datetime
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import corpus_convert  # noqa: E402  (beside this script)

ROOT = os.path.dirname(HERE)
STUDIES_DIR = os.path.join(ROOT, 'validation', 'real')
BEGIN, END = '<!-- real-studies:begin -->', '<!-- real-studies:end -->'

# The stated bounds of the checks (docs: validation/real/README.md).
HELDOUT_POINTS = 5.0     # held-out answered share: |observed - predicted| in points
INSIDE_SHARE = 0.85      # held-out figures inside their 95 % prediction interval
LOO_POINTS = 8.0         # leave-one-study-out default: |observed - predicted| in points


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ====================================================================== study.yaml

def _strip_comment(line):
    """The line without a trailing # comment (a # outside quotes, after a space)."""
    quote, escaped = None, False
    for i, ch in enumerate(line):
        if quote:
            if escaped:
                escaped = False
            elif ch == '\\' and quote == '"':
                escaped = True
            elif ch == quote:
                quote = None
        elif ch in '"\'':
            quote = ch
        elif ch == '#' and (i == 0 or line[i - 1] in ' \t'):
            return line[:i].rstrip()
    return line.rstrip()


def _scalar(text):
    text = text.strip()
    if text == '':
        return None
    if text[0] == '"' and text[-1] == '"':
        return json.loads(text)
    if text[0] == "'" and text[-1] == "'":
        return text[1:-1].replace("''", "'")
    if text[0] == '[' and text[-1] == ']':
        inner = text[1:-1].strip()
        return [_scalar(x) for x in _split_flow(inner)] if inner else []
    if text[0] == '{' and text[-1] == '}':
        out = {}
        for part in _split_flow(text[1:-1]):
            k, _, v = part.partition(':')
            out[k.strip()] = _scalar(v)
        return out
    low = text.lower()
    if low in ('true', 'false'):
        return low == 'true'
    if low in ('null', '~'):
        return None
    if re.fullmatch(r'[-+]?\d+', text):
        return int(text)
    if re.fullmatch(r'[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?', text):
        return float(text)
    return text


def _split_flow(text):
    parts, depth, quote, cur = [], 0, None, ''
    for ch in text:
        if quote:
            cur += ch
            if ch == quote:
                quote = None
            continue
        if ch in '"\'':
            quote = ch
        elif ch in '[{':
            depth += 1
        elif ch in ']}':
            depth -= 1
        elif ch == ',' and depth == 0:
            parts.append(cur.strip())
            cur = ''
            continue
        cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def parse_yaml_subset(text):
    """The YAML subset study.yaml uses: block mappings and sequences, quoted and plain
    scalars, flow lists and mappings of scalars, comments. Enough for our own files; not a
    general YAML reader."""
    lines = []
    for raw in text.splitlines():
        line = _strip_comment(raw)
        if line.strip():
            lines.append((len(line) - len(line.lstrip(' ')), line.strip()))
    pos = 0

    def block(indent):
        nonlocal pos
        if pos >= len(lines):
            return None
        if lines[pos][1].startswith('- ') or lines[pos][1] == '-':
            seq = []
            while pos < len(lines) and lines[pos][0] == indent and (
                    lines[pos][1].startswith('- ') or lines[pos][1] == '-'):
                item = lines[pos][1][2:].strip()
                if ':' in item and not item.startswith(('"', "'", '[', '{')) and re.match(r'^[^:]+:( |$)', item):
                    # a mapping starting on the dash line: re-read it as a block at indent + 2
                    lines[pos] = (indent + 2, item)
                    seq.append(block(indent + 2))
                else:
                    pos += 1
                    seq.append(_scalar(item))
            return seq
        mapping = {}
        while pos < len(lines) and lines[pos][0] == indent and not lines[pos][1].startswith('- '):
            key, _, rest = lines[pos][1].partition(':')
            key = key.strip()
            rest = rest.strip()
            pos += 1
            if rest in ('', '>', '|', '>-', '|-'):
                if pos < len(lines) and lines[pos][0] > indent:
                    if rest:
                        parts = []
                        while pos < len(lines) and lines[pos][0] > indent:
                            parts.append(lines[pos][1])
                            pos += 1
                        mapping[key] = (' ' if rest.startswith('>') else '\n').join(parts)
                    else:
                        mapping[key] = block(lines[pos][0])
                elif pos < len(lines) and lines[pos][0] == indent and lines[pos][1].startswith('- '):
                    mapping[key] = block(indent)
                else:
                    mapping[key] = None
            else:
                mapping[key] = _scalar(rest)
        return mapping

    return block(lines[0][0]) if lines else {}


def load_study(path):
    """A study.yaml: its fields (parsed) and its scenario (the text under `scenario:`,
    dedented, exactly as esmsim reads it). `scenario` must be the file's last key."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    m = re.search(r'^scenario:[ \t]*(#[^\n]*)?\n', text, flags=re.M)
    if not m:
        raise ValueError(f'{path}: no top-level `scenario:` key')
    head, tail = text[:m.start()], text[m.end():]
    scenario_lines = []
    for line in tail.splitlines():
        if line.strip() and not line.startswith('  '):
            raise ValueError(f'{path}: `scenario` must be the last key (found {line!r} after it)')
        scenario_lines.append(line[2:] if line.startswith('  ') else '')
    study = parse_yaml_subset(head)
    study['scenario_text'] = '\n'.join(scenario_lines).strip('\n') + '\n'
    study['dir'] = os.path.dirname(path)
    study.setdefault('name', os.path.basename(os.path.dirname(path)))
    check_records_kept(study.get('records_kept'), f'{path}: records_kept')
    return study


# How a study's published records were selected (`records_kept` in its study.yaml).
KEPT_RULES = ('answered_share',)


def check_records_kept(kept, where):
    """A study's `records_kept` block, checked: `by` (one of KEPT_RULES: the records hold only
    the participants whose answered share reached a threshold, which is the records' own lowest
    share), `evidence` (what shows the selection) and optionally `enrolled` (the participants the
    study's source counts, for the share kept). ValueError naming the file and key."""
    if kept is None:
        return
    if not isinstance(kept, dict):
        raise ValueError(f'{where}: a mapping with by, evidence and optionally enrolled')
    if kept.get('by') not in KEPT_RULES:
        raise ValueError(f"{where}.by: one of {', '.join(KEPT_RULES)}, not {kept.get('by')!r}")
    if not str(kept.get('evidence') or '').strip():
        raise ValueError(f'{where}.evidence: say what shows the selection')
    enrolled = kept.get('enrolled')
    if enrolled is not None and (isinstance(enrolled, bool) or not isinstance(enrolled, int) or enrolled < 1):
        raise ValueError(f'{where}.enrolled: a whole number of participants, not {enrolled!r}')
    unknown = set(kept) - {'by', 'evidence', 'enrolled'}
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")


def own_study(path):
    """A study of your own (`--study`): its study.yaml, read like the corpus's, its raw files in
    the same folder; a check study unless it says otherwise."""
    study = load_study(path)
    study['corpus_dir'] = os.path.dirname(os.path.abspath(path))
    study.setdefault('role', 'check')
    if study['role'] not in ('check', 'training'):
        raise ValueError(f"{path}: role: check or training, not {study['role']!r}")
    raws = study.get('raw_files')
    if not isinstance(raws, list) or not raws or not all(isinstance(f, dict) and f.get('name') for f in raws):
        raise ValueError(f'{path}: raw_files: a list of {{name: FILE}} (the records, beside study.yaml)')
    if not isinstance(study.get('reader'), dict):
        raise ValueError(f'{path}: reader: a mapping ({{format: csv}}, with columns: if the file names them otherwise)')
    if study['reader'].get('format') == 'csv' and not study.get('time_zone'):
        raise ValueError(f'{path}: time_zone: the participants\' clock (an IANA name, Europe/Brussels)')
    return study


def scenario_days(scenario_text):
    m = re.search(r'^duration:\s*"?(\d+)d"?\s*(#.*)?$', scenario_text, flags=re.M)
    return int(m.group(1)) if m else None


def find_studies(studies_dir):
    out = []
    for name in sorted(os.listdir(studies_dir)):
        path = os.path.join(studies_dir, name, 'study.yaml')
        if os.path.isfile(path):
            out.append(load_study(path))
    return out


def sha256(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for chunk in iter(lambda: f.read(1 << 20), b''):
            h.update(chunk)
    return h.hexdigest()


# ====================================================================== figures

def _when(value):
    """A time from a CSV cell: ISO 8601, naive or with Z/offset (dropped), any fraction."""
    if value is None:
        return None
    if isinstance(value, datetime):
        return value
    text = value.strip()
    if not text:
        return None
    text = re.sub(r'(Z|[+-]\d\d:?\d\d)$', '', text).replace(' ', 'T')
    m = re.match(r'^(\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d)?)(?:\.(\d+))?$', text)
    if not m:
        raise ValueError(f'not a time: {value!r}')
    base = datetime.fromisoformat(m.group(1))
    if m.group(2):
        base = base.replace(microsecond=int((m.group(2) + '000000')[:6]))
    return base


def percentile(xs, p):
    """Linear interpolation between order statistics (numpy's default)."""
    xs = sorted(xs)
    if not xs:
        return None
    k = (len(xs) - 1) * p
    lo, hi = math.floor(k), math.ceil(k)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


# Days lost whole are counted among the person-days with at least this many prompts.
MIN_DAY_PROMPTS = 3


def by_participant(rows):
    """The rows with a time, by participant (in order of first appearance), each participant's
    in time order."""
    byp = defaultdict(list)
    for r in rows:
        if r['time'] is not None:
            byp[r['participant']].append(r)
    for v in byp.values():
        v.sort(key=lambda r: r['time'])
    return byp


def figures(rows, min_prompts=5, min_day_prompts=MIN_DAY_PROMPTS):
    """The observed figures of a per-prompt table, real or simulated alike.

    rows: dicts with participant, time (the prompt: delivered, else scheduled), answered
    (bool), opened and submitted (datetime or None). Shares are in %, minutes in minutes.
    * answered: answered prompts as a share of all prompts; answered_se: its standard error
      with the N participants as the sampling units (a ratio's: sqrt(N/(N-1) * sum over
      participants of (answered_i - share * prompts_i)^2) / all prompts, the share a fraction,
      then in points): how far the share of a study of this size and spread would move with
      other participants;
    * person_sd, person_p10: the sd (ddof 1, points) and the 10th percentile of the
      participants' answered shares (participants with at least `min_prompts` prompts);
    * by_week: the answered share by study week (from each participant's first prompt day);
    * trend_per_week: the least-squares slope of person-day answered shares on the study
      day (from 0 at each participant's first prompt day), in points per week;
    * p_after_answered, p_after_missed: P(answered | the participant's previous prompt
      answered / missed), over consecutive prompts of a participant in time order;
    * wait_p25 .. wait_p90: minutes from the prompt to opening, or to submission where no
      opening is recorded, for answered prompts; wait_basis says which;
    * silent_days: of the person-days with at least `min_day_prompts` prompts, up to the
      participant's last day with an answer, the share with none answered (a day lost
      whole, as an empty battery or a day away loses it; the days after a participant stopped
      are not counted: that is dropout).
    """
    byp = by_participant(rows)
    n = sum(len(v) for v in byp.values())
    if n == 0:
        return {'prompts': 0, 'participants': 0}
    # Each participant's prompts and answers, counted once (the shares and the error use them).
    counts = [(len(v), sum(r['answered'] for r in v)) for v in byp.values()]
    answered = sum(a for _, a in counts)
    shares = [a / c for c, a in counts if c >= min_prompts]
    trans = Counter()
    weeks = defaultdict(lambda: [0, 0])
    pd_share = defaultdict(lambda: [0, 0])
    last_answered = {}  # each participant's last day with an answer (rows in time order)
    waits, basis = [], Counter()
    for pid, v in byp.items():
        for a, b in zip(v, v[1:]):
            trans[(a['answered'], b['answered'])] += 1
        first = v[0]['time'].date()
        for r in v:
            day = (r['time'].date() - first).days
            weeks[day // 7 + 1][0] += 1
            weeks[day // 7 + 1][1] += r['answered']
            pd_share[(pid, day)][0] += 1
            pd_share[(pid, day)][1] += r['answered']
            if r['answered']:
                last_answered[pid] = day
                end = r['opened'] or r['submitted']
                if end is not None:
                    waits.append((end - r['time']).total_seconds() / 60.0)
                    basis['opened' if r['opened'] else 'submitted'] += 1
    counted = [a for (pid, day), (c, a) in pd_share.items()
               if c >= min_day_prompts and pid in last_answered and day <= last_answered[pid]]
    xs = [day for (_, day) in pd_share]
    ys = [100.0 * a / c for (c, a) in pd_share.values()]
    trend = None
    if len(xs) > 1:
        mx, my = statistics.fmean(xs), statistics.fmean(ys)
        sxx = sum((x - mx) ** 2 for x in xs)
        if sxx > 0:
            trend = 7.0 * sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    aa, am = trans[(True, True)], trans[(True, False)]
    ma, mm = trans[(False, True)], trans[(False, False)]
    k = len(counts)
    # In whole numbers (n * answered_i - answered * prompts_i), so that equal shares give 0 exactly.
    residuals = sum((n * a - answered * c) ** 2 for c, a in counts)
    out = {
        'prompts': n,
        'participants': k,
        'answered': 100.0 * answered / n,
        'answered_se': 100.0 * (k / (k - 1) * residuals) ** 0.5 / n ** 2 if k > 1 else None,
        'person_sd': 100.0 * statistics.stdev(shares) if len(shares) > 1 else None,
        'person_p10': 100.0 * percentile(shares, 0.10) if shares else None,
        'by_week': {w: 100.0 * a / c for w, (c, a) in sorted(weeks.items())},
        'trend_per_week': trend,
        'p_after_answered': 100.0 * aa / (aa + am) if aa + am else None,
        'p_after_missed': 100.0 * ma / (ma + mm) if ma + mm else None,
        'wait_basis': '+'.join(sorted(basis)) if basis else None,
        'silent_days': 100.0 * sum(a == 0 for a in counted) / len(counted) if counted else None,
    }
    for p in (25, 50, 75, 90):
        out[f'wait_p{p}'] = percentile(waits, p / 100.0)
    return out


def average_figures(runs):
    """The mean of several replications' figures (each key over the runs that have it)."""
    runs = [r for r in runs if r.get('prompts')]
    if not runs:
        return {'prompts': 0, 'participants': 0}
    out = {'replications': len(runs)}
    for key in runs[0]:
        vals = [r[key] for r in runs if r.get(key) is not None]
        if key == 'by_week':
            weeks = defaultdict(list)
            for r in runs:
                for w, s in r['by_week'].items():
                    weeks[w].append(s)
            out[key] = {w: statistics.fmean(s) for w, s in sorted(weeks.items())}
        elif vals and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals):
            out[key] = statistics.fmean(vals)
        else:
            out[key] = vals[0] if vals else None
    return out


def rows_from_prompts(prompts, keep_openings=True):
    """figures() rows from corpus_convert prompts."""
    return [dict(participant=p['participant'], time=p['delivered'] or p['scheduled'],
                 answered=p['status'] == 'answered',
                 opened=p['opened'] if keep_openings else None, submitted=p['submitted'])
            for p in prompts]


def stoppers(rows):
    """Who stops for good in a per-prompt table (figures() rows): a participant whose last
    answer is followed by prompts on 2 days or more (by the prompts' dates), none answered.
    Returns (participants, participants with an answer, stopped, days at risk): the days at
    risk are, for each participant with an answer, the days from their first prompt to their
    last answer (stopped) or their last prompt (not), both counted; a participant who never
    answered is neither at risk nor stopped (docs/sources.md, dropout_per_day)."""
    byp = by_participant(rows)
    answering = stopped = at_risk = 0
    for v in byp.values():
        last = max((r['time'].date() for r in v if r['answered']), default=None)
        if last is None:
            continue
        answering += 1
        days = sorted({r['time'].date() for r in v})
        if sum(d > last for d in days) >= 2:
            stopped += 1
            at_risk += (last - days[0]).days + 1
        else:
            at_risk += (days[-1] - days[0]).days + 1
    return len(byp), answering, stopped, at_risk


def lowest_share(rows, min_prompts=5):
    """The lowest answered share (an exact Fraction) of the participants with at least
    `min_prompts` prompts (None without any): for records that hold only the participants who
    reached a share, the threshold's maximum-likelihood estimate (a truncation point's is the
    sample's minimum)."""
    shares = [Fraction(a, c) for c, a in _answered_counts(rows).values() if c >= min_prompts]
    return min(shares) if shares else None


def _answered_counts(rows):
    """Each participant's prompts and answered prompts: participant -> [prompts, answered]."""
    counts = defaultdict(lambda: [0, 0])
    for r in rows:
        counts[r['participant']][0] += 1
        counts[r['participant']][1] += bool(r['answered'])
    return counts


def kept_by_share(rows, min_share):
    """The rows of the participants whose answered share is at least `min_share` (compared
    exactly), with how many participants were kept and of how many."""
    counts = _answered_counts(rows)
    keep = {p for p, (c, a) in counts.items() if Fraction(a, c) >= min_share}
    return [r for r in rows if r['participant'] in keep], len(keep), len(counts)


def simulated_figures(prompts_csv, keep_openings=True, min_share=None):
    """Figures of esmsim's prompts.csv as the study's records would hold them: non-volunteered
    prompts before the participant's dropout (as `esmsim calibrate` reads a simulation:
    Calibration/Moments.swift; these studies' records hold a stopper's later prompts, missed,
    docs/sources.md), answered = status answered, the prompt's time its delivery (else its
    scheduled time); one set per replication
    and variant, then their mean. keep_openings=False drops the openings (for a study whose
    records have none, so waits run to submission as in the records). min_share: the records
    hold only participants who answered at least this share (`records_kept`), so the figures
    are of the simulated participants the same rule keeps; then also `answered_all` (the share
    of all simulated participants) and `kept` (the % of simulated participants kept)."""
    groups = defaultdict(list)
    with open(prompts_csv, newline='', encoding='utf-8') as f:
        for r in csv.DictReader(f):
            if r.get('volunteered', '0') == '1' or r.get('status') == 'dropped_out':
                continue
            groups[(r.get('variant', ''), r.get('replication', '1'))].append(dict(
                participant=r['participant'],
                time=_when(r.get('delivered')) or _when(r['scheduled']),
                answered=r['status'] == 'answered',
                opened=_when(r.get('opened')) if keep_openings else None,
                submitted=_when(r.get('submitted'))))
    if min_share is None:
        return average_figures([figures(v) for _, v in sorted(groups.items())])
    runs, answered_all, kept_share = [], [], []
    for _, rows in sorted(groups.items()):
        kept_rows, kept, total = kept_by_share(rows, min_share)
        runs.append(figures(kept_rows))
        # Over every replication, also one that keeps nobody (whose figures are left out).
        answered_all.append(100.0 * sum(r['answered'] for r in rows) / len(rows))
        kept_share.append(100.0 * kept / total)
    out = average_figures(runs)
    if answered_all:
        out['answered_all'] = statistics.fmean(answered_all)
        out['kept'] = statistics.fmean(kept_share)
    return out


# ====================================================================== esmsim

class CommandFailed(Exception):
    pass


TIMEOUT = 3600  # seconds for one esmsim command (--timeout)


def set_timeout(seconds):
    global TIMEOUT
    TIMEOUT = seconds


def run(cmd, timeout=None):
    """Run one esmsim command; CommandFailed with its last lines when it fails, crashes or
    runs over the timeout (then its whole process group is stopped). Swift's crash
    backtracer is turned off unless SWIFT_BACKTRACE is set: it can hang after a crash
    holding the output pipes open; a crash is reported by its signal instead."""
    t0 = time.time()
    env = dict(os.environ)
    env.setdefault('SWIFT_BACKTRACE', 'enable=no')
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout or TIMEOUT)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, 9)
        except OSError:
            pass
        out, err = proc.communicate()
        raise CommandFailed(f"{' '.join(cmd)} stopped after {timeout or TIMEOUT} s (--timeout)")
    result = subprocess.CompletedProcess(cmd, proc.returncode, out, err)
    if proc.returncode != 0:
        tail = '\n'.join((err or out).strip().splitlines()[-8:])
        how = (f'crashed (signal {-proc.returncode})' if proc.returncode < 0
               else f'exited {proc.returncode}')
        raise CommandFailed(f"{' '.join(cmd)} {how}:\n{tail}\nesmsim: {how}")
    return result, time.time() - t0


def simulate(esmsim, scenario_text, work, tag, replications, seed, keep_openings, min_share=None):
    path = os.path.join(work, f'{tag}.yaml')
    with open(path, 'w', encoding='utf-8') as f:
        f.write(scenario_text)
    out = os.path.join(work, f'{tag}-run')
    cmd = [esmsim, 'run', path, '--output', out, '--force', '--seed', str(seed)]
    if replications:
        cmd += ['--replications', str(replications)]
    _, secs = run(cmd)
    figs = simulated_figures(os.path.join(out, 'prompts.csv'), keep_openings, min_share)
    shutil.rmtree(out, ignore_errors=True)
    return figs, secs


_RANGE = re.compile(r'(--[a-z-]+): expected (\d+) to (\d+), found (\d+)')


def calibrate(esmsim, study, inputs, scenario_path, out_yaml, args, holdout_days=None, notes=None):
    """`esmsim calibrate` on one study; its JSON (read generically). A --people or
    --bootstrap outside the range this esmsim accepts is moved into it once, with a note."""
    fmt = study['reader']['format']
    cmd = [esmsim, 'calibrate', *inputs, '--format', fmt]
    if fmt == 'csv':
        cmd += ['--time-zone', study['time_zone']]
    cmd += ['--scenario', scenario_path]
    if holdout_days:
        cmd += ['--holdout', f'days:{holdout_days}']
    cmd += ['--output', out_yaml, '--seed', str(args.seed)]
    for flag, value in (('--people', args.people), ('--bootstrap', args.bootstrap)):
        if value is not None:
            cmd += [flag, str(value)]
    cmd += args.calibrate_arg
    try:
        _, secs = run(cmd)
    except CommandFailed as e:
        m = _RANGE.search(str(e))
        if not m or m.group(1) not in ('--people', '--bootstrap') or m.group(1) not in cmd:
            raise
        flag, low, high = m.group(1), int(m.group(2)), int(m.group(3))
        i = cmd.index(flag)
        value = min(max(int(cmd[i + 1]), low), high)
        setattr(args, flag[2:], value)  # the rest of the run uses it too
        if notes is not None:
            notes.append(f'{flag} {m.group(4)} is outside this esmsim\'s {low}-{high}: {value} used')
        log(f'{flag} {m.group(4)} refused ({low} to {high}): {value} used from here on')
        cmd[i + 1] = str(value)
        _, secs = run(cmd)
    with open(os.path.splitext(out_yaml)[0] + '.json', encoding='utf-8') as f:
        result = json.load(f)
    return result, secs, cmd


_DURATION = re.compile(r'^([0-9]*\.?[0-9]+(?:[eE][-+]?\d+)?)(ms|s|m|h|d)$')
_UNIT_SECONDS = {'ms': 0.001, 's': 1.0, 'm': 60.0, 'h': 3600.0, 'd': 86400.0}


def block_values(block_text):
    """The numeric keys of a population.compliance block (YAML text), generically: numbers
    and durations (in seconds, marked as such); lists, mappings and text are left out."""
    values, inside, key_indent = {}, False, None
    for raw in (block_text or '').splitlines():
        line = _strip_comment(raw)
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(' '))
        text = line.strip()
        if text.startswith('compliance:'):
            inside, key_indent = True, None
            continue
        if not inside:
            continue
        if key_indent is None:
            key_indent = indent
        if indent < key_indent:
            break
        if indent > key_indent or ':' not in text:
            continue  # inside a nested value
        key, _, value = text.partition(':')
        value = value.strip().strip('"\'')
        if not value or value[0] in '[{':
            continue
        m = _DURATION.match(value)
        if m:
            values[key.strip()] = ('duration', float(m.group(1)) * _UNIT_SECONDS[m.group(2)])
            continue
        try:
            number = float(value)
        except ValueError:
            continue
        if math.isfinite(number):
            values[key.strip()] = ('number', number)
    return values


# Fitted keys a people preset does not carry (esmsim's defaults stay: no study fits them;
# the phones' charging stays with the device profiles, whose value the fits check).
PRESET_LEFT_OUT = ('break_off_per_minute', 'charge_nightly')
# A class's fields a preset carries.
CLASS_FIELDS = ('share', 'level', 'spread', 'weekly_change', 'weekly_change_sd')


def shown_compliance(text):
    """The population.compliance mapping of `esmsim show`'s YAML (parse_yaml_subset), its
    numbers as floats (the quoted negative ones too)."""
    def number(v):
        try:
            return float(v) if isinstance(v, str) else v
        except ValueError:
            return v
    c = (parse_yaml_subset(text).get('population') or {}).get('compliance') or {}
    out = {k: number(v) for k, v in c.items() if k != 'classes'}
    out['classes'] = [{k: number(v) for k, v in cls.items()} for cls in c.get('classes') or []]
    return out


def _same(a, b):
    return a is not None and abs(a - b) <= 5e-4 * max(abs(b), 1e-9)


def preset_compliance(esmsim, name, work):
    """The people preset `name` (`population.compliance: {preset: name}`) as `esmsim show`
    resolves it (shown_compliance); None when this esmsim has no such preset."""
    path = os.path.join(work, f'preset-{name}.yaml')
    with open(path, 'w', encoding='utf-8') as f:
        f.write(f'name: preset\nduration: 1d\npopulation: {{compliance: {{preset: {name}}}}}\n')
    try:
        shown, _ = run([esmsim, 'show', path])
    except CommandFailed:
        return None
    return shown_compliance(shown.stdout)


def preset_differences(esmsim, name, fitted, work, fitted_classes=None):
    """How the people preset `name` (`population.compliance: {preset: name}`, as `esmsim show`
    resolves it) differs from a run's fitted block `fitted` (block_values) and its classes
    (calibrate's JSON `compliance.classes`, matched by name: share, level, spread, weekly change
    and its sd): a list of 'key preset vs fit' texts, empty when they match to 4 significant
    digits; None when this esmsim has no such preset."""
    compliance = preset_compliance(esmsim, name, work)
    if compliance is None:
        return None
    classes = {c.get('name'): c for c in compliance['classes']}
    pairs = [(key, compliance.get(key), fit) for key, (_, fit) in fitted.items() if key not in PRESET_LEFT_OUT]
    pairs += [(f"classes[{c.get('name')}].{field}", classes.get(c.get('name'), {}).get(field), c[field])
              for c in fitted_classes or [] for field in CLASS_FIELDS if field in c]
    out = []
    for key, have, fit in pairs:
        have = float(have) if isinstance(have, (int, float)) and not isinstance(have, bool) else None
        if not _same(have, fit):
            out.append(f"{key} {'–' if have is None else f'{have:.4g}'} vs {fit:.4g}")
    return out


def median_compliance(fits):
    """The people of several calibrations (their JSON `compliance` objects) combined: each
    number's median (a median does not depend on the scale: the log-odds' median is the
    median's log-odds), each class's fields likewise, class by class; the hour odds left out
    (each study's own hours). Returns population.compliance lines, key -> YAML text."""
    keys = []
    for f in fits:
        keys += [k for k in f if k not in keys and k not in ('classes', 'hour_odds')]
    lines = {}
    for k in keys:
        vals = [f[k] for f in fits if isinstance(f.get(k), (int, float))]
        if vals:
            lines[k] = f'{statistics.median(vals):.6g}'
    classes = [f.get('classes') for f in fits if f.get('classes')]
    if classes and all(len(c) == len(classes[0]) for c in classes):
        medians = []
        for i in range(len(classes[0])):
            medians.append({field: statistics.median([c[i][field] for c in classes])
                            for field in ('share', 'level', 'spread', 'weekly_change', 'weekly_change_sd')})
        total = sum(m['share'] for m in medians)  # the shares' medians, made to sum to 1
        items = []
        for first, m in zip(classes[0], medians):
            m['share'] /= total
            items.append('{' + f'name: "{first["name"]}", ' + ', '.join(f'{k}: {v:.6g}' for k, v in m.items()) + '}')
        lines['classes'] = '[' + ', '.join(items) + ']'
    return lines


# The keys of a calibration's people (calibrate's JSON `compliance`) a people preset carries.
PRESET_FIT_KEYS = ('answer_probability', 'first_days_change', 'miss_persistence', 'looks_per_hour',
                   'alert_odds', 'at_once', 'at_once_weekly_change', 'at_once_seconds',
                   'reaction_seconds', 'busy', 'deferral_shape')


def training_names(studies_dir=None):
    """The training studies of the corpus (validation/real/): their people are esmsim's presets."""
    return sorted(s['name'] for s in find_studies(studies_dir or STUDIES_DIR) if s.get('role') == 'training')


def preset_people(esmsim, names, work):
    """The people of each preset in `names` as `esmsim show` resolves them, in the form of
    calibrate's JSON `compliance` (PRESET_FIT_KEYS and the classes), for median_compliance:
    the leave-one-out people of a study checked without the training studies' records.
    A name this esmsim has no preset for is left out."""
    out = {}
    for name in names:
        c = preset_compliance(esmsim, name, work)
        if c is None:
            log(f'{name}: this esmsim has no such people preset: left out of the leave-one-out people')
            continue
        people = {k: c[k] for k in PRESET_FIT_KEYS if isinstance(c.get(k), (int, float))}
        people['classes'] = [{'name': cls.get('name'), **{k: cls[k] for k in CLASS_FIELDS if k in cls}}
                             for cls in c['classes']]
        out[name] = people
    return out


def with_compliance(scenario_text, compliance):
    """The scenario with a population.compliance block (the scenario's population must be a
    block mapping without compliance of its own)."""
    lines = scenario_text.splitlines()
    for i, line in enumerate(lines):
        if re.match(r'^population:\s*$', line):
            body = [f'  compliance:'] + [f'    {k}: {v}' for k, v in compliance.items()]
            j = i + 1
            while j < len(lines) and (lines[j].startswith(' ') or not lines[j].strip()):
                if re.match(r'^  compliance:', lines[j]):
                    raise ValueError('the scenario has population.compliance of its own')
                j += 1
            return '\n'.join(lines[:j] + body + lines[j:]) + '\n'
    raise ValueError('the scenario has no block-style `population:` mapping')


# ====================================================================== the report

def fmt(x, nd=1, unit=''):
    if x is None:
        return '–'
    if isinstance(x, float) and not math.isfinite(x):
        return '–'
    return f'{x:.{nd}f}{unit}'


def heldout_answered(check):
    """The held-out 'answered' figure (in %) from calibrate's check, or None."""
    for f in (check or {}).get('figures', []):
        if f.get('figure') == 'answered':
            scale = 100.0 if f.get('unit', 'share') == 'share' else 1.0
            return {k: (f[k] * scale if isinstance(f.get(k), (int, float)) else None)
                    for k in ('observed', 'predicted', 'low', 'high')} | {'inside': f.get('inside')}
    return None


def fitted_days_answered(cal):
    """The answered share (in %) of the days a held-out calibration was fitted on: the whole
    pilot's less the held-out part's (calibrate's JSON), or None."""
    pilot, check = cal.get('pilot') or {}, cal.get('check') or {}
    held = heldout_answered(check)
    n, fit, rest = pilot.get('prompts'), check.get('fit_prompts'), check.get('check_prompts')
    if not held or held.get('observed') is None or not fit or rest is None or pilot.get('answered') is None:
        return None
    if fit + rest != n:
        return None  # the parts are not the pilot split in two
    return (pilot['answered'] * 100.0 * n - held['observed'] * rest) / fit


def fitted_days_simulated(cal):
    """The answered share (in %) the fit on the kept days simulates for those days (the
    check's `fit`, its moments at the estimate), or None."""
    fit = ((cal.get('check') or {}).get('fit') or {})
    for m in fit.get('moments') or []:
        if m.get('moment') == 'answered share' and m.get('simulated') is not None:
            return 100.0 * m['simulated']
    return None


def inside_count(check):
    figs = (check or {}).get('figures', [])
    observed = [f for f in figs if f.get('observed') is not None]
    return sum(bool(f.get('inside')) for f in observed), len(observed)


def _reason(text):
    """The telling line of a failure: esmsim's own message, not the command line."""
    lines = [l.strip() for l in str(text).splitlines() if l.strip()]
    for l in lines[1:]:
        if l.startswith(('esmsim:', 'Error:')):
            return l[:300]
    return (lines[-1] if lines else '')[:300]


def evaluate(res):
    """The checks of one study: list of (name, passed, text)."""
    out = []
    if res.get('error'):
        out.append(('run', False, _reason(res['error'])))
        return out
    ho = res.get('heldout')
    if ho and ho.get('observed') is not None and ho.get('predicted') is not None:
        d = ho['predicted'] - ho['observed']
        text = f'{d:+.1f} points (bound ±{HELDOUT_POINTS:g})'
        fitted = res.get('fitted_days_answered')
        if abs(d) > HELDOUT_POINTS and fitted is not None:
            # What a miss comes from: the study changing after the split, or the prediction.
            simulated = res.get('fitted_days_simulated')
            reproduced = f" (the fit simulates them at {simulated:.1f} %)" if simulated is not None else ''
            text += (f"; the fitted days answered {fitted:.1f} %{reproduced}, the held-out days {ho['observed']:.1f} % "
                     f"({ho['observed'] - fitted:+.1f} after the split; predicted {ho['predicted'] - fitted:+.1f})")
        out.append(('held-out answered', abs(d) <= HELDOUT_POINTS, text))
    elif res.get('calibrate_error'):
        out.append(('held-out check', False, _reason(res['calibrate_error'])))
    k, n = res.get('inside', (0, 0))
    if n:
        out.append(('held-out figures inside', k >= INSIDE_SHARE * n - 1e-9,
                    f'{k} of {n} (bound {INSIDE_SHARE:.0%})'))
    loo = res.get('loo')
    if loo and loo.get('answered') is not None:
        d = loo['answered'] - res['observed']['answered']
        text = f'{d:+.1f} points (bound ±{LOO_POINTS:g})'
        if loo.get('answered_all') is not None:
            # Like with like: the records hold only the participants who reached a share.
            text += (f" of the simulated participants the records' rule keeps "
                     f"(all simulated participants: {loo['answered_all'] - res['observed']['answered']:+.1f})")
        se = res['observed'].get('answered_se')
        if se is not None:
            # The observed share is itself a sample: how far it would move with other people.
            text += (f"; the observed share's own standard error {se:.1f} points "
                     f"({res['observed']['participants']} participants)")
            if se > 0:
                text += f', the miss {abs(d) / se:.1f} of them'
        out.append(('leave-one-out default', abs(d) <= LOO_POINTS, text))
    elif res.get('loo_error'):
        out.append(('leave-one-out default', False, _reason(res['loo_error'])))
    return out


def design_free_benchmark(results):
    """What a prediction that knows nothing of a study's design would do on the same leave-one-out
    rule: each study predicted by the mean observed answered share of the other training studies
    (all of them for a check study). Returns rows (name, observed, benchmark, esmsim's LOO) and the
    best any single prediction shared by every study could do (half the observed range)."""
    observed = {r['study']['name']: r['observed']['answered'] for r in results
                if not r.get('skipped') and (r.get('observed') or {}).get('answered') is not None}
    training = [r['study']['name'] for r in results
                if r['study'].get('role') == 'training' and r['study']['name'] in observed]
    rows = []
    for r in results:
        name = r['study']['name']
        if name not in observed:
            continue
        others = [observed[t] for t in training if t != name]
        if not others:
            continue
        rows.append((name, observed[name], sum(others) / len(others), (r.get('loo') or {}).get('answered')))
    spread = (max(observed.values()) - min(observed.values())) / 2 if observed else None
    return rows, spread


def benchmark_text(results):
    """A paragraph comparing esmsim's leave-one-out predictions with the design-free benchmark."""
    rows, spread = design_free_benchmark(results)
    scored = [(n, o, b, l) for n, o, b, l in rows if l is not None]
    if not scored:
        return []
    def within(pairs):
        return sum(1 for o, p in pairs if abs(p - o) <= LOO_POINTS)
    bench = [(o, b) for _, o, b, _ in scored]
    loo = [(o, l) for _, o, _, l in scored]
    total = lambda pairs: sum(abs(p - o) for o, p in pairs)
    return [f"*Against a design-free benchmark* (each study predicted by the mean observed share of the "
            f"other training studies, the same leave-one-out rule): esmsim's LOO lies within "
            f"{LOO_POINTS:g} points for {within(loo)} of {len(scored)} studies (its misses sum to "
            f"{total(loo):.1f} points), the benchmark for {within(bench)} (sum {total(bench):.1f}). "
            f"No single share predicted for every study can come within {spread:.1f} points of all of "
            f"them (half the observed range): a leave-one-out bound of {LOO_POINTS:g} points is met for "
            f"every study only as far as the studies' designs explain their levels.", '']


def t_quantile_975(df):
    """Student's t 0.975 quantile for df degrees of freedom (the Cornish-Fisher expansion about
    the normal's 1.959964: within 0.01 of the tables from 4 degrees of freedom on)."""
    z = 1.959963984540054
    v = float(df)
    return (z + (z ** 3 + z) / (4 * v) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * v ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * v ** 3))


BETWEEN_STUDIES_SWIFT = os.path.join('Sources', 'StudyModel', 'Plan', 'BetweenStudies.swift')


def between_studies(results):
    """The spread of real studies around the leave-one-out prediction (the default people a
    planner without a pilot has): each study's miss (LOO minus observed, as its check compares
    them), their root mean square, the 95 % prediction interval of a new study's share
    (t(0.975, n) times it: the misses taken as centred on 0, so n degrees of freedom), the part the
    observed shares' own sampling error explains, and the chance that every study falls within
    the LOO bound were the misses this size. Each study is also set against the interval from the
    other studies' misses alone (`nested`). None with fewer than 4 studies."""
    rows = []
    for r in results:
        loo = (r.get('loo') or {}).get('answered')
        obs = r.get('observed') or {}
        if loo is None or obs.get('answered') is None:
            continue
        rows.append((r['study']['name'], loo - obs['answered'], obs.get('answered_se') or 0.0))
    n = len(rows)
    if n < 4:
        return None
    rms = math.sqrt(sum(m * m for _, m, _ in rows) / n)
    sampling = sum(se * se for _, _, se in rows) / n
    # The default people's own misses, for comparison (in sample for the training studies).
    defaults = [r['default']['answered'] - r['observed']['answered'] for r in results
                if (r.get('default') or {}).get('answered') is not None
                and (r.get('observed') or {}).get('answered') is not None]
    within = math.erf(LOO_POINTS / (rms * math.sqrt(2))) if rms > 0 else 1.0
    nested = []
    for i, (name, miss, _) in enumerate(rows):
        others = [m for j, (_, m, _) in enumerate(rows) if j != i]
        half = t_quantile_975(len(others)) * math.sqrt(sum(m * m for m in others) / len(others))
        nested.append((name, miss, half, abs(miss) <= half))
    return dict(n=n, rms=rms, mean=sum(m for _, m, _ in rows) / n, half=t_quantile_975(n) * rms,
                default_rms=math.sqrt(sum(m * m for m in defaults) / len(defaults)) if defaults else None,
                default_n=len(defaults),
                sampling_sd=math.sqrt(sampling), beyond_sampling=math.sqrt(max(0.0, rms * rms - sampling)),
                within_bound=within, all_within=within ** n, nested=nested)


def swift_between_studies(root=ROOT):
    """The figure esmsim's runs say (BetweenStudies.swift): (half-width, studies), or None."""
    try:
        with open(os.path.join(root, BETWEEN_STUDIES_SWIFT), encoding='utf-8') as f:
            text = f.read()
    except OSError:
        return None
    half = re.search(r'answeredHalfWidthPoints = ([0-9.]+)', text)
    n = re.search(r'static let studies = ([0-9]+)', text)
    return (float(half.group(1)), int(n.group(1))) if half and n else None


def between_studies_text(results, swift=None):
    """A paragraph and a table: how far real studies lie from the default people's prediction,
    the interval esmsim's runs say beside it, and whether the figure esmsim carries matches."""
    b = between_studies(results)
    if b is None:
        return []
    inside = sum(1 for *_, ok in b['nested'] if ok)
    L = [f"*Between studies*: the leave-one-out misses (LOO minus observed: each study predicted by the median of "
         f"the people fitted to the other training studies, as esmsim's default people are the median of all five) of "
         f"the {b['n']} studies have a root mean square of {b['rms']:.1f} points (mean {b['mean']:+.1f}). The observed "
         f"shares' own sampling error is {b['sampling_sd']:.1f} points (the root mean square of their standard errors), "
         f"so, in quadrature, studies differ by about {b['beyond_sampling']:.1f} points beyond what their samples "
         f"explain. A new study's answered share then lies within ±{b['half']:.1f} points of such a prediction 95 % of "
         f"the time (t(0.975, {b['n']}) times the root mean square: the misses taken as centred on 0 and independent, "
         f"though the check studies share one prediction's people and the training studies three of four fits, so "
         f"the interval is if anything narrow)."
         + (f" The default people's own misses (in sample for the training studies, whose fits made them) have a "
            f"root mean square of {b['default_rms']:.1f} points over {b['default_n']} studies." if b.get('default_rms') is not None else '')
         + f" With misses this size a study falls within the leave-one-out bound of {LOO_POINTS:g} points with "
         f"probability {b['within_bound']:.2f}, and all {b['n']} studies with probability {b['all_within']:.2f} "
         f"(about {b['n'] * (1 - b['within_bound']):.1f} studies expected outside). Each study against the interval "
         f"from the other {b['n'] - 1} studies' misses alone (not wholly out of sample: the others' leave-one-out "
         f"people include a training study's own fit): {inside} of {b['n']} inside.", '',
         '| study | LOO miss | 95 % between studies (from the others) | inside |', '|---|---|---|---|']
    for name, miss, half, ok in b['nested']:
        L.append(f"| {name} | {miss:+.1f} | ±{half:.1f} | {'yes' if ok else '**no**'} |")
    L.append('')
    if swift is not None:
        said, studies = swift
        same = abs(said - round(b['half'], 1)) < 0.05 and studies == b['n']
        L.append(f"esmsim's runs say ±{said:.1f} points over {studies} studies beside a default people's answered "
                 f"share (`{BETWEEN_STUDIES_SWIFT}`): "
                 + ('it matches this run.' if same else
                    f"**it differs**; set it from this run (±{b['half']:.1f}, {b['n']} studies)."))
        L.append('')
    return L


def design_gap(results):
    """Whether the model's design differences could close the leave-one-out misses: the study the
    LOO people under-predict most (beyond the bound) and the one they over-predict most, each
    simulated with every training study's fitted people that ran on both (`loo_each`). Returns
    None unless both exist, else (high, low, observed gap, [(people, simulated gap)]): with the
    same people, how far esmsim puts the first study's protocol above the second's."""
    def miss(r):
        loo = (r.get('loo') or {}).get('answered')
        obs = (r.get('observed') or {}).get('answered')
        return None if loo is None or obs is None else loo - obs
    failing = [(m, r) for r in results if (m := miss(r)) is not None and abs(m) > LOO_POINTS]
    under = [x for x in failing if x[0] < 0]
    over = [x for x in failing if x[0] > 0]
    if not under or not over:
        return None
    high = min(under, key=lambda x: x[0])[1]
    low = max(over, key=lambda x: x[0])[1]
    people = sorted(set(high.get('loo_each') or {}) & set(low.get('loo_each') or {}))
    if not people:
        return None
    gaps = [(k, high['loo_each'][k] - low['loo_each'][k]) for k in people]
    return high, low, high['observed']['answered'] - low['observed']['answered'], gaps


def design_gap_text(results):
    """A paragraph saying what no single population can do: the LOO people miss one study low and
    another high, and esmsim's design difference between the two (the same people simulated in
    both) is what one population within the bound of both would need at least."""
    found = design_gap(results)
    if found is None:
        return []
    high, low, observed, gaps = found
    values = [g for _, g in gaps]
    need = observed - 2 * LOO_POINTS
    h, l = high['study']['name'], low['study']['name']
    return [f"*What the designs explain*: {h} answered {observed:.1f} points more than {l}, the two "
            f"leave-one-out misses of opposite sign. Simulated with the same people (each training study's "
            f"fitted people in turn, the {len(gaps)} that ran on both), {h}'s protocol answers "
            f"{min(values):+.1f} to {max(values):+.1f} points against {l}'s; one population within "
            f"{LOO_POINTS:g} points of both studies would need at least {need:+.1f}. "
            + (f"The rest of the gap lies in who took part, which no key of the protocol carries: a planner "
               f"sets it with `population.compliance` (a preset or a pilot's fit)." if max(values) < need else
               f"The protocols' difference is enough for some of these people: the misses lie in the level "
               f"the pooled people set, not in the designs."), '']


def records_kept_text(results):
    """A paragraph on the studies whose records hold only the participants who reached an answered
    share (`records_kept`): the threshold, the evidence, the simulated share kept against the
    records' own where the source counts those enrolled, and the shares of all simulated
    participants."""
    rows = [r for r in results if r.get('kept_min_share') is not None and r.get('default')]
    if not rows:
        return []
    L = ["*Records kept by answers*: these studies' records appear to hold only participants who "
         "answered at least a share of their prompts (no rule is published with the files; the "
         "evidence is below). The threshold is the records' lowest participant share (a truncation "
         "point's maximum-likelihood estimate), and every simulated figure of the study above and below "
         "(default, LOO, LOO range, the table of which people predict which study, the other "
         "figures) is of the simulated participants who reach it, as the records would hold them "
         "(a simulated participant who left early with a high share is kept too, though these "
         "records hold no one who left early). The calibrations read the records as they are, so a "
         "kept training study's fitted people are like those its records kept (and are filtered "
         "again where they predict another kept study); fitted as the people before the rule "
         "(`esmsim calibrate --kept-at-least`), they extrapolate a part of the people no record "
         "shows (validation/real/README.md).", '']
    for r in rows:
        kept = r['study']['records_kept']
        m = r['kept_min_share']
        d, loo = r['default'], r.get('loo') or {}
        text = (f"- {r['study']['name']}: at least {100 * float(m):.1f} % answered (the records' lowest "
                f"share); {kept['evidence']}. The rule keeps {fmt(d.get('kept'), 0)} % of the participants "
                f"the default simulates")
        n = r['observed']['participants']
        if kept.get('enrolled'):
            text += (f" (the records {n} of the {kept['enrolled']} the source counts, "
                     f"{100 * n / kept['enrolled']:.0f} %)")
        text += '.'
        if d.get('kept') is not None:
            # How likely the records' participants would all reach it, were they not selected.
            p = (d['kept'] / 100) ** n
            text += (f" {n} participants of the default people would all reach it with probability "
                     + ('under 0.001' if p < 0.001 else f'{p:.2g}') + '.')
        text += f" Of all simulated participants the default answers {fmt(d.get('answered_all'))} %"
        if loo.get('answered_all') is not None:
            text += f", the LOO {fmt(loo['answered_all'])} %"
        L.append(text + '.')
    L.append('')
    return L


def cross_prediction_text(results):
    """The table behind the LOO ranges: each study (a row) simulated with each training study's
    fitted people (a column), as the observed share's difference in points, the closest marked."""
    rows = [r for r in results if r.get('loo_each') and (r.get('observed') or {}).get('answered') is not None]
    if not rows:
        return []
    cols = sorted({k for r in rows for k in r['loo_each']})
    L = ['*Which people predict which study*: each study (a row) simulated with one training study\'s '
         'fitted people (a column), predicted minus observed share in points; the closest in bold. '
         'A planner who knows which fitted study their sample resembles can start from it (`population.compliance: {preset: NAME}`).', '',
         '| study | observed | ' + ' | '.join(cols) + ' |', '|---|---|' + '---|' * len(cols)]
    for r in rows:
        obs = r['observed']['answered']
        diffs = {k: v - obs for k, v in r['loo_each'].items()}
        best = min(diffs, key=lambda k: abs(diffs[k]))
        cells = []
        for c in cols:
            if c not in diffs:
                cells.append('–')
            else:
                text = f'{diffs[c]:+.1f}'
                cells.append(f'**{text}**' if c == best else text)
        L.append(f"| {r['study']['name']} | {fmt(obs)} | " + ' | '.join(cells) + ' |')
    L.append('')
    return L


def markdown(results, meta):
    L = []
    L.append('## Real studies: esmsim against public per-prompt ESM data')
    L.append('')
    L.append('Generated by `scripts/validate_real.py` (`make validate-real`; the studies, their sources '
             'and how to get the files: `validation/real/README.md`). '
             f"esmsim {meta['version']}"
             + (f" (binary SHA-256 {meta['binary_sha256'][:12]})" if meta.get('binary_sha256') else '')
             + f"; calibrate `{meta['calibrate_flags']}`; default and leave-one-out predictions from "
             f"{meta['replications']} replication(s) of each study's scenario; run {meta['date']}, "
             f"{meta['seconds'] / 60:.1f} min.")
    L.append('')
    L.append('Shares in %, differences in points. *Observed*: the records (answered = submitted, of all '
             'prompts; simulated prompts after a participant\'s dropout left out, as `esmsim calibrate` counts them, '
             'though these records hold a stopper\'s later prompts, missed: `docs/sources.md`). '
             '*(kept)* after a study: its records appear to hold only the participants who answered enough, '
             'and its simulated figures are of the simulated participants the same rule keeps (below). *Default*: the study\'s scenario with esmsim\'s default compliance. *LOO*: the '
             'same scenario with the median of the other training studies\' fitted people (all '
             'training studies for a check study). *Held-out*: `esmsim calibrate --holdout days:N`, '
             'fitted on the first half of the study\'s days and predicting the rest, with its 95 % '
             'prediction interval; *inside*: held-out figures inside their intervals. '
             f'Bounds: held-out answered within {HELDOUT_POINTS:g} points, at least {INSIDE_SHARE:.0%} '
             f'of the held-out figures inside, LOO within {LOO_POINTS:g} points.')
    L.append('')
    L.append('| study | role | platform | window / expiry | days | N | observed | default | LOO | LOO range | '
             'held-out observed vs predicted [interval] | inside |')
    L.append('|---|---|---|---|---|---|---|---|---|---|---|---|')
    for r in results:
        s = r['study']
        d = s.get('design', {}) or {}
        obs = r.get('observed') or {}
        if r.get('skipped'):
            L.append(f"| {s['name']} | {s.get('role', '')} | {r['skipped']} | | | | | | | | | |")
            continue
        ho = r.get('heldout')
        hotext = (f"{fmt(ho['observed'])} vs {fmt(ho['predicted'])} [{fmt(ho['low'])}, {fmt(ho['high'])}]"
                  if ho else '–')
        k, n = r.get('inside', (0, 0))
        win = f"{str(d.get('window', '')).split(' (')[0]} / {r.get('expiry', '')}"
        loo = (r.get('loo') or {}).get('answered')
        rng = r.get('loo_range')
        rngtext = f"{fmt(rng[0])}–{fmt(rng[1])}" if rng else '–'
        kept = ' (kept)' if r.get('kept_min_share') is not None else ''
        L.append(f"| {s['name']}{kept} | {s.get('role', '')} | {short_platform(s.get('platform', ''))} | {win} | "
                 f"{d.get('days', '')} | {obs.get('participants', '')} | {fmt(obs.get('answered'))} | "
                 f"{fmt((r.get('default') or {}).get('answered'))} | {fmt(loo)} | {rngtext} | {hotext} | "
                 f"{f'{k} of {n}' if n else '–'} |")
    L.append('')
    ranged = [r for r in results if r.get('loo_range') and (r.get('observed') or {}).get('answered') is not None]
    if ranged:
        inside = [r['study']['name'] for r in ranged
                  if r['loo_range'][0] - 1 <= r['observed']['answered'] <= r['loo_range'][1] + 1]
        L.append(f"*LOO range*: the study simulated with each other training study's fitted people in turn "
                 f"(the spread between studies a planner faces before any pilot). The observed share lies "
                 f"within it (±1 point) for {len(inside)} of {len(ranged)} studies"
                 + (f" ({', '.join(inside)})." if inside else "."))
        L.append('')
    L.extend(records_kept_text(results))
    L.extend(cross_prediction_text(results))
    L.extend(benchmark_text(results))
    L.extend(design_gap_text(results))
    L.extend(between_studies_text(results, swift_between_studies()))
    L.append('The other figures, observed / default prediction: the between-person sd of answered '
             'shares and their 10th percentile, the weekly trend (least-squares slope of person-day '
             'shares on the day, points a week), P(answered | previous answered) and P(answered | '
             f'previous missed), the share of days lost whole (of the person-days with {MIN_DAY_PROMPTS} or more prompts, '
             'up to the participant\'s last day with an answer, those with none answered, %), and the minutes '
             'from the prompt to opening (to submission where the records have no opening: *sub*) '
             'of answered prompts at 25/50/75/90 %.')
    L.append('')
    L.append('| study | sd | p10 | trend / week | P(a\\|a) | P(a\\|m) | days lost | wait p25 | p50 | p75 | p90 |')
    L.append('|---|---|---|---|---|---|---|---|---|---|---|')
    for r in results:
        if r.get('skipped') or not r.get('observed'):
            continue
        o, d = r['observed'], r.get('default') or {}
        pair = lambda k, nd=1: f'{fmt(o.get(k), nd)} / {fmt(d.get(k), nd)}'
        sub = ' (sub)' if o.get('wait_basis') == 'submitted' else ''
        L.append(f"| {r['study']['name']}{sub} | {pair('person_sd')} | {pair('person_p10')} | "
                 f"{pair('trend_per_week')} | {pair('p_after_answered')} | {pair('p_after_missed')} | "
                 f"{pair('silent_days')} | {pair('wait_p25')} | {pair('wait_p50')} | {pair('wait_p75')} | {pair('wait_p90')} |")
    L.append('')
    L.append('Answered share by study week, observed / default:')
    L.append('')
    for r in results:
        if r.get('skipped') or not r.get('observed'):
            continue
        o, d = r['observed'].get('by_week', {}), (r.get('default') or {}).get('by_week', {})
        weeks = ', '.join(f'w{w} {fmt(o[w])} / {fmt(d.get(w))}' for w in sorted(o))
        L.append(f"- {r['study']['name']}: {weeks}")
    L.append('')
    training = [r for r in results if r.get('full_block')]
    if training:
        L.append('Fitted compliance of the training studies on all their data (`esmsim calibrate`, '
                 'numeric keys; lists such as hour multipliers and classes left out):')
        L.append('')
        keys = []
        for r in training:
            keys += [k for k in r['full_block'] if k not in keys]
        L.append('| key | ' + ' | '.join(r['study']['name'] for r in training) + ' |')
        L.append('|---|' + '---|' * len(training))
        for k in keys:
            cells = []
            for r in training:
                v = r['full_block'].get(k)
                cells.append('–' if v is None else (f'{v[1]:.4g}s' if v[0] == 'duration' else f'{v[1]:.4g}'))
            L.append(f'| {k} | ' + ' | '.join(cells) + ' |')
        L.append('')
        at_bound = []
        for r in training:
            for e in r.get('full_estimates', []):
                if e.get('at_bound'):
                    at_bound.append(f"{r['study']['name']}: {e.get('parameter')}")
        if at_bound:
            L.append('Estimates at the edge of their range (the model does not reach the study\'s moment): '
                     + '; '.join(at_bound) + '.')
            L.append('')
        presets = [r for r in training if 'preset_differences' in r]
        if presets:
            unknown = [r['study']['name'] for r in presets if r['preset_differences'] is None]
            differ = [f"{r['study']['name']} ({', '.join(r['preset_differences'])})"
                      for r in presets if r['preset_differences']]
            same = len(presets) - len(unknown) - len(differ)
            text = (f'People presets (`population.compliance: {{preset: NAME}}`, '
                    f'`Sources/Scenarios/Resolve/PeoplePresets.swift`): {same} of {len(presets)} '
                    'match these fits')
            if differ:
                text += '; these differ (preset vs this run\'s fit; update Sources/Scenarios/Resolve/PeoplePresets.swift from this run\'s fits): ' + '; '.join(differ)
            if unknown:
                text += '; this esmsim has none for ' + ', '.join(unknown)
            L.append(text + '.')
            L.append('')
    loos = [r for r in results if r.get('loo_block')]
    if loos:
        L.append('Leave-one-out blocks (`population.compliance` put into each study\'s scenario):')
        L.append('')
        for r in loos:
            source = (" as esmsim's presets (their records are not in this run; hour odds, break-offs "
                      "and charging are esmsim's defaults)") if r.get('loo_source') == 'presets' else ''
            L.append(f"- {r['study']['name']} (from {', '.join(r['loo_from'])}{source}): "
                     + ', '.join(f'{k} {v}' for k, v in r['loo_block'].items()))
        L.append('')
    L.append('Checks:')
    L.append('')
    failures = 0
    for r in results:
        if r.get('skipped'):
            continue
        for name, ok, text in r.get('checks', []):
            failures += not ok
            L.append(f"- {r['study']['name']} ({r['study'].get('role', '')}): {name}: "
                     f"{'pass' if ok else '**fail**'}, {text}")
    L.append('')
    L.append(f"{failures} check(s) failed. Timings (s): " + '; '.join(
        f"{r['study']['name']} {r.get('seconds', 0):.0f}" for r in results if not r.get('skipped')) + '.')
    notes = [f"{r['study']['name']}: {n}" for r in results for n in r.get('notes', [])]
    if notes:
        L.append('')
        L.append('Notes:')
        L.append('')
        L += [f'- {n}' for n in notes]
    return '\n'.join(L) + '\n', failures


def short_platform(text):
    text = str(text)
    return text.split(' (')[0]


def write_doc(doc, section):
    text = ''
    if os.path.exists(doc):
        with open(doc, encoding='utf-8') as f:
            text = f.read()
    block = f'{BEGIN}\n{section}{END}'
    if BEGIN in text and END in text and text.index(BEGIN) < text.index(END):
        text = text[:text.index(BEGIN)] + block + text[text.index(END) + len(END):]
    else:
        text = text.rstrip('\n') + ('\n\n' if text else '') + block + '\n'
    tmp = doc + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        f.write(text)
    os.replace(tmp, doc)


# ====================================================================== main

def expiry_of(scenario_text):
    found = re.findall(r'expiry:\s*"?([^\s,}"]+)', scenario_text)
    return ', '.join(dict.fromkeys(found)) if found else ''


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('esmsim', nargs='?', help='the esmsim binary (.build/release/esmsim)')
    ap.add_argument('--corpus', default=os.environ.get('ESMSIM_CORPUS'),
                    help='folder with <study>/<raw file> (default: $ESMSIM_CORPUS)')
    ap.add_argument('--studies', help='comma-separated study names (default: every study present)')
    ap.add_argument('--studies-dir', default=STUDIES_DIR, help='folder of <study>/study.yaml')
    ap.add_argument('--study', action='append', default=[], metavar='STUDY_YAML',
                    help="a study of your own (repeatable): its study.yaml, its raw files beside it; "
                         "only these are checked, with the training studies' people as esmsim ships "
                         'them (their presets) as the leave-one-out people '
                         '(validation/real/README.md, "A study of your own")')
    ap.add_argument('--write', action='store_true', help='put the section into --doc between the markers')
    ap.add_argument('--doc', default=os.path.join('docs', 'validation.md'),
                    help='the Markdown file --write updates (default: docs/validation.md)')
    ap.add_argument('--report-only', action='store_true', help='exit 0 even when a check fails')
    ap.add_argument('--people', type=int, default=None,
                    help="calibrate --people (default: esmsim's own)")
    ap.add_argument('--bootstrap', type=int, default=None,
                    help="calibrate --bootstrap (default: esmsim's own)")
    ap.add_argument('--calibrate-arg', action='append', default=[], metavar='ARG',
                    help='one more argument for every calibrate, repeatable '
                         '(--calibrate-arg=--evaluations --calibrate-arg=200)')
    ap.add_argument('--seed', type=int, default=1, help='seed of calibrate and of the runs (default 1)')
    ap.add_argument('--replications', type=int, default=5,
                    help='replications of each default and leave-one-out run (default 5)')
    ap.add_argument('--no-calibrate', action='store_true',
                    help='observed figures and default predictions only (fast)')
    ap.add_argument('--allow-sha-mismatch', action='store_true',
                    help='go on (with a note) when a raw file is not the expected one')
    ap.add_argument('--json', help='also write every result to this JSON file')
    ap.add_argument('--from-json', metavar='JSON',
                    help="write the report of an earlier run's --json file again (its checks redone, the studies' "
                         "files read from --studies-dir), running nothing: no binary needed")
    ap.add_argument('--keep', help='keep the temporary files in this folder')
    ap.add_argument('--timeout', type=int, default=TIMEOUT,
                    help=f'seconds one esmsim command may take (default {TIMEOUT})')
    ap.add_argument('--no-snapshot', action='store_true',
                    help='run the binary in place (default: a copy taken at the start)')
    ap.add_argument('--check-scenarios', action='store_true',
                    help='only run `esmsim validate` on each study\'s scenario (needs no corpus)')
    args = ap.parse_args(argv)
    set_timeout(args.timeout)
    if args.from_json:
        try:
            return from_json(args)
        except (OSError, ValueError, KeyError) as e:
            ap.error(f'{args.from_json}: {e}')
    if not args.esmsim:
        ap.error('the esmsim binary is needed (only --from-json runs without one)')

    if args.study:
        try:
            studies = [own_study(path) for path in args.study]
        except (OSError, ValueError) as e:
            ap.error(str(e))
    else:
        studies = find_studies(args.studies_dir)
    # training studies first (their fits feed the leave-one-out defaults), then the checks
    studies.sort(key=lambda s: (s.get('role') != 'training', s['name']))
    if args.studies:
        wanted = set(args.studies.split(','))
        unknown = wanted - {s['name'] for s in studies}
        if unknown:
            ap.error(f"unknown studies: {', '.join(sorted(unknown))}")
        studies = [s for s in studies if s['name'] in wanted]

    work = args.keep or tempfile.mkdtemp(prefix='esmsim-real-')
    os.makedirs(work, exist_ok=True)
    try:
        if args.check_scenarios:
            bad = 0
            for s in studies:
                path = os.path.join(work, f"{s['name']}.yaml")
                with open(path, 'w', encoding='utf-8') as f:
                    f.write(s['scenario_text'])
                try:
                    run([args.esmsim, 'validate', path])
                    log(f"{s['name']}: scenario ok")
                except CommandFailed as e:
                    bad += 1
                    log(f"{s['name']}: {e}")
            return 1 if bad else 0
        if args.study:
            return validate(args, studies, work)
        if not args.corpus:
            print('validate_real: ESMSIM_CORPUS is not set: no real study checked '
                  '(see validation/real/README.md for how to get the files).')
            return 0
        if not os.path.isdir(args.corpus):
            print(f'validate_real: {args.corpus} (ESMSIM_CORPUS) is not a folder: no real study checked.')
            return 0
        return validate(args, studies, work)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def from_json(args):
    """The report of an earlier run (`--json`) written again: each result with its study read
    from --studies-dir and its checks redone, the run's own meta kept. So that a change of the
    report's text (not of a figure) needs no new run."""
    with open(args.from_json, encoding='utf-8') as f:
        saved = json.load(f)
    studies = {s['name']: s for s in find_studies(args.studies_dir)}
    results = []
    for r in saved['results']:
        if r['study'] not in studies:
            raise ValueError(f"study {r['study']} is not in {args.studies_dir}")
        res = dict(r, study=studies[r['study']])
        res.pop('role', None)
        if isinstance(res.get('inside'), list):
            res['inside'] = tuple(res['inside'])
        if isinstance(res.get('kept_min_share'), str):   # a Fraction, written as text ("143/213")
            res['kept_min_share'] = Fraction(res['kept_min_share'])
        for part in ('observed', 'default', 'loo'):       # JSON's keys are text: weeks are numbers again
            weeks = (res.get(part) or {}).get('by_week')
            if isinstance(weeks, dict):
                res[part]['by_week'] = {int(k): v for k, v in weeks.items()}
        if not res.get('skipped'):
            res['checks'] = evaluate(res)
        results.append(res)
    section, failures = markdown(results, saved['meta'])
    print(section, end='')
    if args.write:
        write_doc(args.doc, section)
        log(f'written between the markers in {args.doc}')
    if failures and not args.report_only:
        log(f'validate_real: {failures} check(s) failed')
        return 1
    return 0


def snapshot_binary(esmsim, work):
    """A private copy of the binary, so that a rebuild during the run (make release in
    another shell) cannot mix two versions of esmsim in one report."""
    path = shutil.which(esmsim) or esmsim
    copy = os.path.join(work, 'esmsim-under-test')
    shutil.copy2(path, copy)
    return copy, sha256(copy)


def validate(args, studies, work):
    t_start = time.time()
    binary_sha = None
    if not args.no_snapshot:
        args.esmsim, binary_sha = snapshot_binary(args.esmsim, work)
    proc, _ = run([args.esmsim, '--version'])
    version = proc.stdout.strip() or proc.stderr.strip()
    results = []
    for s in studies:
        res = {'study': s, 'notes': [], 'expiry': expiry_of(s['scenario_text'])}
        results.append(res)
        raws = s.get('raw_files') or []
        folder = s.get('corpus_dir') or os.path.join(args.corpus, s['name'])
        required = [f for f in raws if not f.get('optional')]
        missing = [f['name'] for f in required if not os.path.isfile(os.path.join(folder, f['name']))]
        if missing:
            res['skipped'] = f"not in the corpus ({', '.join(missing)})"
            log(f"{s['name']}: {res['skipped']}: skipped")
            continue
        t0 = time.time()
        inputs = []
        for f in raws:
            path = os.path.join(folder, f['name'])
            if not os.path.isfile(path):
                continue
            digest = sha256(path)
            if f.get('sha256') is None:
                # A study of your own may leave it out: the file is then taken as it is.
                res['notes'].append(f"{f['name']}: no sha256 in study.yaml: the file is not checked "
                                    f"against one (SHA-256 {digest})")
            elif digest != f.get('sha256'):
                msg = f"{f['name']}: SHA-256 {digest[:16]}… is not the expected {str(f.get('sha256'))[:16]}…"
                if not args.allow_sha_mismatch:
                    res['error'] = msg + ' (a different version of the file; --allow-sha-mismatch goes on)'
                    break
                res['notes'].append(msg + ' (checked anyway: --allow-sha-mismatch)')
            inputs.append(path)
        if res.get('error'):
            res['checks'] = evaluate(res)
            log(f"{s['name']}: {res['error']}")
            continue
        try:
            study_dir = os.path.join(work, s['name'])
            os.makedirs(study_dir, exist_ok=True)
            prompts = corpus_convert.read_study_file(s.get('reader'), inputs[0], s.get('time_zone'))
            has_openings = any(p['opened'] is not None for p in prompts)
            observed_rows = rows_from_prompts(prompts)
            res['observed'] = figures(observed_rows)
            if s.get('records_kept'):
                # The records hold only participants who reached a share: the simulated figures
                # are of the simulated participants the same rule keeps (records_kept).
                res['kept_min_share'] = lowest_share(observed_rows)
                if res['kept_min_share'] is None:
                    raise ValueError('records_kept: no participant of the records has 5 or more prompts, so '
                                     'their lowest share says nothing')
            if s['reader']['format'] == 'csv':
                csv_path = os.path.join(study_dir, 'prompts.csv')
                corpus_convert.write_csv(prompts, csv_path)
                cal_inputs = [csv_path]
            else:
                cal_inputs = inputs
            scenario_path = os.path.join(study_dir, 'scenario.yaml')
            with open(scenario_path, 'w', encoding='utf-8') as f:
                f.write(s['scenario_text'])
            log(f"{s['name']}: observed {res['observed']['answered']:.1f} % of "
                f"{res['observed']['prompts']} prompts; simulating the default")
            res['default'], _ = simulate(args.esmsim, s['scenario_text'], study_dir, 'default',
                                         args.replications, args.seed, has_openings,
                                         res.get('kept_min_share'))
            res['has_openings'] = has_openings
            res['cal_inputs'] = cal_inputs
            res['scenario_path'] = scenario_path
            days = (s.get('design') or {}).get('days')
            days = days if isinstance(days, int) else scenario_days(s['scenario_text'])
            if not args.no_calibrate:
                half = max(1, (days or 2) // 2)
                log(f"{s['name']}: calibrate --holdout days:{half}")
                try:
                    cal, secs, cmd = calibrate(args.esmsim, s, cal_inputs, scenario_path,
                                               os.path.join(study_dir, 'holdout.yaml'), args, half,
                                               res['notes'])
                    res['holdout_days'] = half
                    res['holdout_seconds'] = secs
                    check = cal.get('check') or {}
                    res['heldout'] = heldout_answered(check)
                    res['fitted_days_answered'] = fitted_days_answered(cal)
                    res['inside'] = inside_count(check)
                    res['heldout_figures'] = check.get('figures', [])
                    res['fitted_days_simulated'] = fitted_days_simulated(cal)
                    # the fit on the kept days, which the predictions draw from
                    res['holdout_estimates'] = ((check.get('fit') or {}).get('estimates')) or []
                    log(f"{s['name']}: held-out {fmt((res['heldout'] or {}).get('observed'))} vs "
                        f"{fmt((res['heldout'] or {}).get('predicted'))}, {res['inside'][0]} of "
                        f"{res['inside'][1]} inside ({secs:.0f} s)")
                except (CommandFailed, OSError, ValueError, json.JSONDecodeError) as e:
                    res['calibrate_error'] = str(e)
                    log(f"{s['name']}: calibrate failed: {e}")
                if s.get('role') == 'training':
                    log(f"{s['name']}: calibrate on all its data (training)")
                    try:
                        cal, secs, _ = calibrate(args.esmsim, s, cal_inputs, scenario_path,
                                                 os.path.join(study_dir, 'full.yaml'), args,
                                                 notes=res['notes'])
                        res['full_seconds'] = secs
                        res['full_estimates'] = cal.get('estimates', [])
                        res['full_block_text'] = cal.get('block', '')
                        res['full_block'] = block_values(cal.get('block', ''))
                        res['full_compliance'] = cal.get('compliance')
                        log(f"{s['name']}: fitted {', '.join(f'{k}={v[1]:.4g}' for k, v in res['full_block'].items())} ({secs:.0f} s)")
                    except (CommandFailed, OSError, ValueError, json.JSONDecodeError) as e:
                        res['full_error'] = str(e)
                        res['notes'].append(f'the full calibration failed: {_reason(e)}')
                        log(f"{s['name']}: full calibrate failed: {e}")
        except (CommandFailed, ValueError, OSError) as e:
            res['error'] = str(e)
            log(f"{s['name']}: {e}")
        res['seconds'] = time.time() - t0

    # leave-one-study-out defaults
    if not args.no_calibrate:
        fitted = {r['study']['name']: r['full_compliance'] for r in results if r.get('full_compliance')}
        loo_source = 'fits'
        if not fitted and any(r['study'].get('role') != 'training' and 'default' in r for r in results):
            # No training study's records in this run (a study of your own, checked alone): the
            # training studies' people as esmsim ships them, their presets.
            fitted = preset_people(args.esmsim, training_names(), work)
            loo_source = 'presets'
        for res in results:
            if res.get('skipped') or res.get('error') or 'default' not in res:
                continue
            name = res['study']['name']
            others = {k: v for k, v in fitted.items() if k != name}
            if not others:
                res['loo_error'] = 'no other training study fitted'
                continue
            t0 = time.time()
            block = median_compliance(list(others.values()))
            try:
                text = with_compliance(res['study']['scenario_text'], block)
                figs, _ = simulate(args.esmsim, text, os.path.join(work, name), 'loo',
                                   args.replications, args.seed, res['has_openings'],
                                   res.get('kept_min_share'))
                res['loo'] = figs
                res['loo_block'] = block
                res['loo_from'] = sorted(others)
                res['loo_source'] = loo_source
                # The spread between studies: the study under each other training study's people.
                each = {}
                for other in sorted(others):
                    text_o = with_compliance(res['study']['scenario_text'], median_compliance([others[other]]))
                    figs_o, _ = simulate(args.esmsim, text_o, os.path.join(work, name), f'loo-{other}',
                                         args.replications, args.seed, res['has_openings'],
                                         res.get('kept_min_share'))
                    if figs_o.get('answered') is None:
                        raise ValueError(f'{other}\'s people: no simulated participant to compare')
                    each[other] = figs_o['answered']
                res['loo_each'] = each
                res['loo_range'] = (min(each.values()), max(each.values()))
                log(f"{name}: leave-one-out default {figs['answered']:.1f} % "
                    f"(observed {res['observed']['answered']:.1f} %; from {', '.join(sorted(others))})")
            except (CommandFailed, ValueError) as e:
                res['loo_error'] = str(e)
                log(f'{name}: leave-one-out run failed: {e}')
            res['seconds'] = res.get('seconds', 0) + time.time() - t0

    for res in results:
        if res.get('full_block'):
            res['preset_differences'] = preset_differences(
                args.esmsim, res['study']['name'], res['full_block'], os.path.join(work, res['study']['name']),
                (res.get('full_compliance') or {}).get('classes'))
    for res in results:
        if not res.get('skipped'):
            res['checks'] = evaluate(res)
    flags = ' '.join([f'--people {args.people}'] * (args.people is not None)
                     + [f'--bootstrap {args.bootstrap}'] * (args.bootstrap is not None)
                     + [f'--seed {args.seed}'] + args.calibrate_arg)
    meta = dict(version=version, binary_sha256=binary_sha, calibrate_flags=flags,
                people=args.people, bootstrap=args.bootstrap, seed=args.seed,
                replications=args.replications, date=datetime.now().strftime('%Y-%m-%d'),
                seconds=time.time() - t_start)
    section, failures = markdown(results, meta)
    print(section, end='')
    if args.write:
        write_doc(args.doc, section)
        log(f'written between the markers in {args.doc}')
    if args.json:
        with open(args.json, 'w', encoding='utf-8') as f:
            json.dump(dict(meta=meta, results=[{k: v for k, v in r.items() if k != 'study'}
                                               | {'study': r['study']['name'],
                                                  'role': r['study'].get('role')}
                                               for r in results]),
                      f, indent=1, default=str)
    checked = [r for r in results if not r.get('skipped')]
    if not checked:
        log('validate_real: no study of validation/real/ found in the corpus: nothing checked')
        return 0
    if failures and not args.report_only:
        log(f'validate_real: {failures} check(s) failed')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
