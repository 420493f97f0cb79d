"""Converters from public per-prompt ESM files to esmsim's generic per-prompt CSV.

One function per study in validation/real/: each takes the path of a user's own copy of the
study's raw file (see validation/real/<study>/study.yaml for its name, source and SHA-256)
and returns a list of prompts, one dict each:

    participant    the participant's id (text)
    questionnaire  the questionnaire the prompt opened (text)
    scheduled      when the schedule wanted it (datetime, or None where the file does not say)
    delivered      when it was sent or reached the phone (datetime, or None)
    opened         when the participant started it (datetime, or None)
    submitted      when it was submitted (datetime, or None: not answered)
    status         'answered', 'partial' (opened, not submitted) or 'missed'

Every time is a naive datetime on the participants' local clock (no zone); the study's zone
is in its study.yaml (`time_zone`) and is given to esmsim with --time-zone.
`write_csv(prompts, path)` writes them in the layout esmsim's reader takes (`--format csv`).

Standard library only (Python 3.9+). These are esmsim's own converters, written from our
reading of the files; they are not the openESM project's code.

How the openESM "cleaned" files store times (checked against the data, see
validation/real/README.md): every time is written as "...Z", but the Z is not UTC.
* Files whose cleaning parsed character times on a machine set to Europe/Berlin (the Fisher
  lab files and Johannes et al.): the Z value converted to Berlin time gives back the local
  clock label of the original data. `_berlin_label` does that with the EU summer-time rule
  (last Sunday of March to last Sunday of October, 01:00 UTC), which holds for every date
  since 1996, so no time zone database is needed.
* Files whose times were read as datetimes (van Halem et al., Hoebeke et al.): the digits of
  the Z value are the local clock already (`_z_digits`).
"""
import csv
import re
from datetime import date, datetime, time, timedelta, timezone

__all__ = [
    'CONVERTERS', 'write_csv', 'convert',
    'fisher2017_mood', 'soyster2022_alcohol', 'bosley2020_gad', 'fisher2019_smoking',
    'reeves2020_ptsd', 'johannes2021_vigilance', 'vanhalem2020_eda',
    'hoebeke2022_rumination', 'mpathr_example', 'generic_csv', 'read_study_file',
]

_MISSING = ('', 'NA', 'NaN', 'NULL')


def _missing(value):
    return value is None or value.strip() in _MISSING


def _read_tsv(path):
    with open(path, newline='', encoding='utf-8') as f:
        return list(csv.DictReader(f, delimiter='\t'))


def _parse_z(value):
    """'2018-03-16T19:55:00Z' (or without seconds / with fraction) -> naive datetime."""
    text = value.strip()
    if text.endswith('Z'):
        text = text[:-1]
    text = text.replace(' ', 'T')
    return datetime.fromisoformat(text)


def _z_digits(value):
    """A Z value whose digits are the local clock."""
    return None if _missing(value) else _parse_z(value)


def _last_sunday(year, month):
    # the last day of the month, then back to its Sunday (weekday 6)
    first_next = date(year + (month == 12), month % 12 + 1, 1)
    last = first_next - timedelta(days=1)
    return last - timedelta(days=(last.weekday() - 6) % 7)


def _berlin_offset(utc):
    """Berlin's offset from UTC at a UTC instant (EU rule, valid from 1996)."""
    start = datetime.combine(_last_sunday(utc.year, 3), time(1, 0))
    end = datetime.combine(_last_sunday(utc.year, 10), time(1, 0))
    return timedelta(hours=2) if start <= utc < end else timedelta(hours=1)


def _berlin_label(value):
    """A Z value that is a Berlin-clock parse of the original label: the label back."""
    if _missing(value):
        return None
    utc = _parse_z(value)
    return utc + _berlin_offset(utc)


def _prompt(participant, questionnaire, scheduled=None, delivered=None, opened=None,
            submitted=None, status=None):
    if status is None:
        status = 'answered' if submitted else ('partial' if opened else 'missed')
    return dict(participant=str(participant), questionnaire=questionnaire, scheduled=scheduled,
                delivered=delivered, opened=opened, submitted=submitted, status=status)


# ------------------------------------------------------------------ the Fisher lab

def _fisher_lab(path, sent_column, done_column):
    """The Fisher lab's surveys (a link sent to the phone): one row per survey sent, its send
    time and, if submitted, its completion time (minute resolution, Berlin reading). No
    opening time is recorded. Rows without a send time cannot be placed and are left out
    (none of them was completed)."""
    prompts = []
    for row in _read_tsv(path):
        sent = _berlin_label(row[sent_column])
        if sent is None:
            continue
        prompts.append(_prompt(row['id'], 'ema', delivered=sent,
                               submitted=_berlin_label(row[done_column])))
    return prompts


def fisher2017_mood(path):
    """Fisher et al. 2017, openESM 0033 (0033_fisher_ts.tsv): columns start, finish."""
    return _fisher_lab(path, 'start', 'finish')


def reeves2020_ptsd(path):
    """Reeves & Fisher 2020, openESM 0034 (0034_reeves_ts.tsv): creation_date, completion_date."""
    return _fisher_lab(path, 'creation_date', 'completion_date')


def soyster2022_alcohol(path):
    """Soyster et al. 2022, openESM 0035 (0035_soyster_ts.tsv): creation_time, completion_time."""
    return _fisher_lab(path, 'creation_time', 'completion_time')


def bosley2020_gad(path):
    """Bosley et al. 2020, openESM 0036 (0036_bosley_ts.tsv): creation_time, completion_time."""
    return _fisher_lab(path, 'creation_time', 'completion_time')


def fisher2019_smoking(path):
    """Fisher & Soyster 2019, openESM 0037 (0037_fisher_ts.tsv): start_time, finish_time."""
    return _fisher_lab(path, 'start_time', 'finish_time')


# ------------------------------------------------------------------ Johannes et al. 2021

def johannes2021_vigilance(path):
    """Johannes et al. 2021, openESM 0051 (0051_johannes_ts.tsv).

    The prompt is `time_prompt` (a whole minute, Berlin reading); `survey_taken` = 1 means
    answered. The file's own measures give the opening and submission: opened = prompt +
    `reactibility_survey` seconds (a negative value, down to -80 s in 17 rows, is clamped to
    the prompt), submitted = opened + `prompt_duration` seconds. `time_survey` holds only a
    date and is not used."""
    prompts = []
    for row in _read_tsv(path):
        sent = _berlin_label(row['time_prompt'])
        scheduled = _berlin_label(row['scheduled_time'])
        opened = submitted = None
        answered = row['survey_taken'].strip() == '1'
        if answered and not _missing(row['reactibility_survey']):
            opened = sent + timedelta(seconds=max(0.0, float(row['reactibility_survey'])))
            if not _missing(row['prompt_duration']):
                submitted = opened + timedelta(seconds=float(row['prompt_duration']))
        prompts.append(_prompt(row['id'], 'ema', scheduled=scheduled if scheduled != sent else None,
                               delivered=sent, opened=opened, submitted=submitted,
                               status='answered' if answered else 'missed'))
    return prompts


# ------------------------------------------------------------------ van Halem et al. 2020

def vanhalem2020_eda(path, questionnaires=('random', 'evening')):
    """van Halem et al. 2020, openESM 0070 (0070_vanhalem_ts.tsv), movisensXS.

    Three kinds of prompt, from `trigger`: 'Random Time: HH:MM' (random), 'Fixed Time ...'
    (the evening form) and 'Immediately (EdaScl...)' (triggered by skin conductance:
    event-contingent). Only the scheduled ones, random and evening, are kept by default:
    the EDA-triggered prompts are not a schedule esmsim draws, so they are left out
    (pass questionnaires=None to keep every kind as 'eda_triggered').
    `missing` empty: answered (form start and finish are the opening and submission);
    'Incomplete': opened, not submitted; 'Ignored' (the alarm timed out after 5 minutes) and
    'Dismissed': missed (their form times are the timeout or dismissal, not an opening);
    'Canceled_by_new_alarm' rows repeat another row's trigger and are left out."""
    prompts = []
    for row in _read_tsv(path):
        trigger = row['trigger']
        if trigger.startswith('Random Time'):
            kind = 'random'
        elif trigger.startswith('Fixed Time'):
            kind = 'evening'
        else:
            kind = 'eda_triggered'
        if questionnaires is not None and kind not in questionnaires:
            continue
        reason = row['missing'].strip()
        if reason == 'Canceled_by_new_alarm':
            continue
        sent = _z_digits(row['trigger_time'])
        if _missing(reason):
            prompts.append(_prompt(row['id'], kind, delivered=sent,
                                   opened=_z_digits(row['form_start_time']),
                                   submitted=_z_digits(row['form_finish_time']), status='answered'))
        elif reason == 'Incomplete':
            prompts.append(_prompt(row['id'], kind, delivered=sent,
                                   opened=_z_digits(row['form_start_time']), status='partial'))
        else:
            prompts.append(_prompt(row['id'], kind, delivered=sent, status='missed'))
    return prompts


# ------------------------------------------------------------------ Hoebeke et al. 2022

HOEBEKE_TIMES = ('09:00', '13:00', '17:00', '21:00')
HOEBEKE_DAYS = 14


def hoebeke2022_rumination(path, times=HOEBEKE_TIMES, days=HOEBEKE_DAYS):
    """Hoebeke et al. 2022, openESM 0013 (0013_hoebeke_ts.tsv), formr.

    The file holds one row per survey opened (`created`: opened, `ended`: submitted, empty
    when it expired unfinished), numbered by `counter` = (day - 1) * 4 + slot, with `day`
    counted from enrolment. The study's schedule (4 a day at fixed times for 14 days from the
    day after enrolment) gives every prompt; a slot with no row is a prompt never opened
    (reconstructed: dropouts count as missed)."""
    rows = _read_tsv(path)
    per_day = len(times)
    enrolment = {}
    opened_rows = {}
    for row in rows:
        created = _z_digits(row['created'])
        start = created.date() - timedelta(days=int(row['day']))
        if enrolment.setdefault(row['id'], start) != start:
            raise ValueError(f"participant {row['id']}: rows disagree on the enrolment date")
        opened_rows[(row['id'], int(row['counter']))] = row
    clock = [time(*map(int, t.split(':'))) for t in times]
    prompts = []
    for participant, start in enrolment.items():
        for counter in range(1, days * per_day + 1):
            day, slot = divmod(counter - 1, per_day)
            scheduled = datetime.combine(start + timedelta(days=day + 1), clock[slot])
            row = opened_rows.get((participant, counter))
            if row is None:
                prompts.append(_prompt(participant, 'ema', scheduled=scheduled, status='missed'))
            else:
                prompts.append(_prompt(participant, 'ema', scheduled=scheduled,
                                       opened=_z_digits(row['created']),
                                       submitted=_z_digits(row['ended'])))
    return prompts


# ------------------------------------------------------------------ m-Path (mpathr's example)

def mpathr_example(path):
    """mpathr's example study (inst/extdata/example_basic.csv), m-Path's per-beep export:
    semicolon-separated, times in seconds on the participant's local clock. Beeps not
    scheduled (scheduledBeepId -1: the intake) and exact repeats (same participant,
    questionnaire and send time) are left out. esmsim reads this file itself
    (--format mpath); this converter is for the observed figures."""
    with open(path, newline='', encoding='utf-8-sig') as f:
        rows = list(csv.DictReader(f, delimiter=';'))
    if any(r.get('reminderForOriginalSentBeepId', '') not in ('', '0', '-1') for r in rows):
        raise ValueError('reminder rows present: this converter expects none')

    def clock(value):
        if _missing(value) or value.strip() == '0':
            return None
        return datetime(1970, 1, 1) + timedelta(seconds=int(value))

    prompts, seen = [], set()
    for row in rows:
        if row['scheduledBeepId'].strip() == '-1':
            continue
        key = (row['connectionId'], row['questionListName'], row['timeStampSent'])
        if key in seen:
            continue
        seen.add(key)
        prompts.append(_prompt(row['connectionId'], row['questionListName'],
                               scheduled=clock(row['timeStampScheduled']),
                               delivered=clock(row['timeStampSent']),
                               opened=clock(row['timeStampStart']),
                               submitted=clock(row['timeStampStop'])))
    return prompts


CONVERTERS = {
    'fisher2017_mood': fisher2017_mood,
    'soyster2022_alcohol': soyster2022_alcohol,
    'bosley2020_gad': bosley2020_gad,
    'fisher2019_smoking': fisher2019_smoking,
    'reeves2020_ptsd': reeves2020_ptsd,
    'johannes2021_vigilance': johannes2021_vigilance,
    'vanhalem2020_eda': vanhalem2020_eda,
    'hoebeke2022_rumination': hoebeke2022_rumination,
    'mpathr_example': mpathr_example,
}


def convert(study, path):
    """The prompts of `study` (a key of CONVERTERS) from its raw file at `path`."""
    return CONVERTERS[study](path)


# ------------------------------------------------------------------ a study of your own

ROLES = ('participant', 'questionnaire', 'scheduled', 'delivered', 'opened', 'submitted')
_NUMBER = re.compile(r'^[+-]?\d+(\.\d+)?$')


def _generic_time(text, zone):
    """A time as esmsim's csv reader takes it: seconds or milliseconds since 1970 (UTC; told
    apart by size), or ISO 8601 with `Z`, an offset or none (then the participants' clock).
    Returns a naive datetime on the participants' clock (`zone`, a ZoneInfo, or None: UTC)."""
    if _NUMBER.match(text):
        x = float(text)
        utc = datetime.fromtimestamp(x if abs(x) < 1e11 else x / 1000, tz=timezone.utc)
    else:
        iso = text.replace(' ', 'T', 1)
        if iso.endswith(('Z', 'z')):
            iso = iso[:-1] + '+00:00'
        utc = datetime.fromisoformat(iso)
        if utc.tzinfo is None:
            return utc
    return (utc.astimezone(zone) if zone else utc.astimezone(timezone.utc)).replace(tzinfo=None)


def generic_csv(path, columns=None, time_zone=None):
    """esmsim's generic per-prompt CSV, read as `esmsim calibrate --format csv` reads it (a study
    of your own, or one whose records are already in this layout): a row per prompt sent, the
    columns named by role (participant, questionnaire, scheduled, delivered, opened, submitted)
    or mapped by `columns` (role -> the file's column, like `--column ROLE=NAME`); comma,
    semicolon or tab, the header's commonest. `participant` and `scheduled` or `delivered` are
    needed. `time_zone` (an IANA name) is the participants' clock, to which times with a zone
    or in seconds since 1970 are converted. ValueError naming the file, line and column."""
    columns = dict(columns or {})
    unknown = set(columns) - set(ROLES)
    if unknown:
        raise ValueError(f"{path}: reader.columns: unknown role(s) {', '.join(sorted(unknown))} "
                         f"(roles: {', '.join(ROLES)})")
    zone = None
    if time_zone:
        from zoneinfo import ZoneInfo
        zone = ZoneInfo(time_zone)
    with open(path, newline='', encoding='utf-8-sig') as f:
        text = f.read()
    header = text.split('\n', 1)[0]
    separator = max((',', ';', '\t'), key=header.count)
    rows = list(csv.reader(text.splitlines(), delimiter=separator))
    if not rows:
        raise ValueError(f'{path}: the file is empty')
    head = [h.strip() for h in rows[0]]
    where = {}
    for role in ROLES:
        name = columns.get(role, role)
        if name in head:
            where[role] = head.index(name)
        elif role in columns:
            raise ValueError(f'{path}: reader.columns.{role}: the header has no column {name!r}')
    if 'participant' not in where:
        raise ValueError(f"{path}: the header has no {columns.get('participant', 'participant')!r} column "
                         f"(the participant; map it with reader.columns.participant)")
    if 'scheduled' not in where and 'delivered' not in where:
        raise ValueError(f'{path}: the header has neither {columns.get("scheduled", "scheduled")!r} nor '
                         f'{columns.get("delivered", "delivered")!r}: a prompt needs its time')
    prompts = []
    for line, r in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in r):
            continue

        def cell(role):
            i = where.get(role)
            return r[i].strip() if i is not None and i < len(r) else ''

        def when(role):
            value = cell(role)
            if value in _MISSING:
                return None
            try:
                return _generic_time(value, zone)
            except (ValueError, OverflowError, OSError):
                raise ValueError(f'{path}: line {line}, column {columns.get(role, role)}: expected a time '
                                 f'(seconds or milliseconds since 1970, or ISO 8601), found {value[:40]!r}') from None

        who = cell('participant')
        if who in _MISSING:
            raise ValueError(f"{path}: line {line}, column {columns.get('participant', 'participant')}: "
                             f'a prompt without its participant')
        scheduled, delivered = when('scheduled'), when('delivered')
        if scheduled is None and delivered is None:
            raise ValueError(f'{path}: line {line}: a prompt without its time')
        prompts.append(_prompt(who, cell('questionnaire'), scheduled=scheduled, delivered=delivered,
                               opened=when('opened'), submitted=when('submitted')))
    return prompts


def read_study_file(reader, path, time_zone=None):
    """The prompts of a study's raw file as its study.yaml's `reader` says: its `converter`
    (one of CONVERTERS), or with none, esmsim's generic CSV (`format: csv`, with `columns`)."""
    name = (reader or {}).get('converter')
    if name:
        if name not in CONVERTERS:
            raise ValueError(f"reader.converter: no converter {name!r} "
                             f"(known: {', '.join(sorted(CONVERTERS))}; or none, for esmsim's generic CSV)")
        return convert(name, path)
    if (reader or {}).get('format') != 'csv':
        raise ValueError("reader: a study without a converter is read as esmsim's generic CSV: "
                         "give `format: csv` (or a converter)")
    return generic_csv(path, (reader or {}).get('columns'), time_zone)


def _fmt(value):
    return '' if value is None else value.strftime('%Y-%m-%dT%H:%M:%S')


def write_csv(prompts, path):
    """esmsim's generic per-prompt CSV (`--format csv`), sorted by participant and time.

    A time column is written only when the file records that time for some prompt: an
    `opened` column, even with empty cells, tells esmsim that openings were recorded, so it
    is left out where none were. `scheduled` is written where the file gives a schedule
    apart from the sending (Hoebeke's reconstructed slots, m-Path), `delivered` where it
    gives a sending time. Returns the columns written."""
    def when(p):
        return p['delivered'] or p['scheduled']
    ordered = sorted(prompts, key=lambda p: (p['participant'], when(p)))
    columns = ['participant', 'questionnaire']
    for role in ('scheduled', 'delivered', 'opened'):
        if any(p[role] is not None for p in ordered):
            columns.append(role)
    columns.append('submitted')
    with open(path, 'w', newline='', encoding='utf-8') as f:
        out = csv.writer(f, lineterminator='\r\n')
        out.writerow(columns)
        for p in ordered:
            out.writerow([p[c] if c in ('participant', 'questionnaire') else _fmt(p[c])
                          for c in columns])
    return columns


if __name__ == '__main__':
    import sys
    if len(sys.argv) != 4:
        sys.exit('usage: corpus_convert.py STUDY RAW_FILE OUT.csv')
    cols = write_csv(convert(sys.argv[1], sys.argv[2]), sys.argv[3])
    print(f"{sys.argv[3]}: {', '.join(cols)}")
