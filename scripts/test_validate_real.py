"""Tests of validate_real.py and corpus_convert.py that need neither the corpus nor esmsim.

    python3 -m unittest discover -s scripts -p 'test_validate_real.py'
"""
import contextlib
import io
import json
import math
import os
import sys
import tempfile
import unittest
from datetime import datetime, timedelta

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus_convert as cc  # noqa: E402
import validate_real as vr  # noqa: E402
import corpus_stoppers  # noqa: E402


def row(pid, t, answered, wait=None, opened=True):
    end = None if wait is None else t + timedelta(minutes=wait)
    return dict(participant=pid, time=t, answered=answered,
                opened=end if (answered and opened) else None, submitted=end if answered else None)


class Figures(unittest.TestCase):
    def test_counts_and_transitions(self):
        t0 = datetime(2024, 1, 1, 9)
        rows = []
        # participant a: A A M A M (5 prompts a day 1), b: A A A A A, both on one day
        for i, a in enumerate([1, 1, 0, 1, 0]):
            rows.append(row('a', t0 + timedelta(hours=i), bool(a), wait=2))
        for i in range(5):
            rows.append(row('b', t0 + timedelta(hours=i), True, wait=4))
        f = vr.figures(rows)
        self.assertEqual(f['prompts'], 10)
        self.assertAlmostEqual(f['answered'], 80.0)
        # transitions: a: AA, AM, MA, AM ; b: AA x4 -> after answered 5 of 7 answered
        self.assertAlmostEqual(f['p_after_answered'], 100 * 5 / 7)
        self.assertAlmostEqual(f['p_after_missed'], 100.0)
        self.assertAlmostEqual(f['person_sd'], 100 * 0.2828427, places=3)
        self.assertEqual(f['wait_basis'], 'opened')
        self.assertAlmostEqual(f['wait_p50'], 4.0)
        self.assertEqual(list(f['by_week']), [1])
        # The share's standard error by participant: a 3 of 5 against the share 0.8 (-1), b 5
        # of 5 (+1): sqrt(2/1 * 2) / 10 = 0.2.
        self.assertAlmostEqual(f['answered_se'], 20.0)
        self.assertIsNone(vr.figures(rows[:5])['answered_se'])   # one participant: none
        # Equal shares from unequal counts (3 of 11, 12 of 44, 15 of 55): exactly 0, not a
        # rounding error (2e-15 in floating point, which made the miss 10^15 of them).
        even = [row(p, t0 + timedelta(minutes=i), i < a) for p, a, c in [('c', 3, 11), ('d', 12, 44), ('e', 15, 55)]
                for i in range(c)]
        self.assertEqual(vr.figures(even)['answered_se'], 0.0)
        self.assertIsNone(f['trend_per_week'])  # one day: no slope

    def test_simulated_prompts_after_dropout_left_out(self):
        # A participant answers 2 of 4 prompts, then drops out (3 prompts): the records would
        # hold the 4 only, so 50 %, not 2 of 7.
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'prompts.csv')
            with open(path, 'w') as f:
                f.write('variant,replication,participant,scheduled,delivered,opened,submitted,status,volunteered\n')
                statuses = ['answered', 'expired', 'answered', 'expired'] + ['dropped_out'] * 3
                for i, st in enumerate(statuses):
                    t = f'2024-01-0{1 + i // 4}T{9 + i % 4:02d}:00:00'
                    done = f'2024-01-0{1 + i // 4}T{9 + i % 4:02d}:02:00' if st == 'answered' else ''
                    f.write(f'v,1,p1,{t},{t},{done},{done},{st},0\n')
                f.write('v,1,p1,2024-01-01T15:00:00,2024-01-01T15:00:00,2024-01-01T15:01:00,2024-01-01T15:01:00,answered,1\n')
            f = vr.simulated_figures(path)
            self.assertEqual(f['prompts'], 4)
            self.assertAlmostEqual(f['answered'], 50.0)

    def test_trend_in_points_per_week(self):
        rows = []
        for d in range(14):  # share falls 1 point a day: 7 points a week
            for k in range(100):
                t = datetime(2024, 1, 1, 8) + timedelta(days=d, minutes=k)
                rows.append(row('p', t, k < 90 - d, wait=1))
        f = vr.figures(rows)
        self.assertAlmostEqual(f['trend_per_week'], -7.0, places=6)
        self.assertEqual(sorted(f['by_week']), [1, 2])

    def test_stoppers(self):
        # a answers on day 0 only, 2 days of prompts after it: stopped (1 day at risk); b misses
        # day 1 and answers day 2: not (3 days); d's last answer is followed by 1 day: not (3
        # days); c never answers: neither at risk nor stopped.
        t0 = datetime(2024, 1, 1, 9)
        answers = {'a': [1, 0, 0], 'b': [1, 0, 1], 'c': [0, 0, 0], 'd': [1, 1, 0]}
        rows = [row(p, t0 + timedelta(days=d, hours=h), bool(x))
                for p, days in answers.items() for d, x in enumerate(days) for h in (0, 4)]
        self.assertEqual(vr.stoppers(rows), (4, 3, 1, 7))
        # Days are the prompts' dates: without a's last day of prompts, 1 day follows its
        # answer, so not stopped (2 days at risk).
        gap = [r for r in rows if not (r['participant'] == 'a' and r['time'].day == 3)]
        self.assertEqual(vr.stoppers(gap), (4, 3, 0, 8))

    def test_poisson_interval(self):
        # Garwood's exact 95 % interval: 8 events, 3.4538-15.7632; none, 0-3.6889.
        lo, hi = corpus_stoppers.poisson_interval(8)
        self.assertAlmostEqual(lo, 3.4538, places=3)
        self.assertAlmostEqual(hi, 15.7632, places=3)
        self.assertEqual(corpus_stoppers.poisson_interval(0)[0], 0.0)
        self.assertAlmostEqual(corpus_stoppers.poisson_interval(0)[1], 3.6889, places=3)

    def test_days_lost_whole(self):
        # a: day 0 three prompts, none answered (lost whole); day 1 one of three answered; day 2
        # none of three (after a's last answer: dropout, not counted); b: day 0 all answered,
        # day 1 two prompts, none answered (too few to count, though before b's last answer),
        # day 2 all answered; c never answers (not counted). Counted: a0 (lost), a1, b0, b2.
        t0 = datetime(2024, 1, 1, 9)
        rows = []
        for day, answers in enumerate([[0, 0, 0], [0, 1, 0], [0, 0, 0]]):
            rows += [row('a', t0 + timedelta(days=day, hours=h), bool(x), wait=1) for h, x in enumerate(answers)]
        for day, answers in enumerate([[1, 1, 1], [0, 0], [1, 1, 1]]):
            rows += [row('b', t0 + timedelta(days=day, hours=h), bool(x), wait=1) for h, x in enumerate(answers)]
        rows += [row('c', t0 + timedelta(hours=h), False) for h in range(5)]
        f = vr.figures(rows)
        self.assertAlmostEqual(f['silent_days'], 25.0)
        # no day counted: none
        self.assertIsNone(vr.figures(rows[-5:])['silent_days'])

    def test_submission_when_no_opening(self):
        t = datetime(2024, 1, 1, 9)
        f = vr.figures([row('p', t, True, wait=30, opened=False)] * 5)
        self.assertEqual(f['wait_basis'], 'submitted')
        self.assertAlmostEqual(f['wait_p90'], 30.0)

    def test_average(self):
        a = {'prompts': 10, 'answered': 50.0, 'by_week': {1: 50.0}, 'wait_basis': 'opened'}
        b = {'prompts': 10, 'answered': 70.0, 'by_week': {1: 60.0, 2: 80.0}, 'wait_basis': 'opened'}
        m = vr.average_figures([a, b])
        self.assertAlmostEqual(m['answered'], 60.0)
        self.assertEqual(m['by_week'], {1: 55.0, 2: 80.0})
        self.assertEqual(m['replications'], 2)


class Blocks(unittest.TestCase):
    BLOCK = """population:
  compliance:
    answer_probability: 0.9431
    classes:
      - {name: "engaged", share: 0.786, level: 0.97}
      - {name: "less engaged", share: 0.214, level: 0.55}
    miss_persistence: 0.05831
    open_delay: 2m
    hour_odds: [1.0, 1.1]
    label: "text"
"""

    def test_numeric_keys_only(self):
        v = vr.block_values(self.BLOCK)
        self.assertEqual(set(v), {'answer_probability', 'miss_persistence', 'open_delay'})
        self.assertEqual(v['open_delay'], ('duration', 120.0))

    def test_median_and_insert(self):
        cls = lambda share, level: [{'name': 'engaged', 'share': share, 'level': level, 'spread': 1,
                                     'weekly_change': 0, 'weekly_change_sd': 0.2},
                                    {'name': 'less engaged', 'share': 1 - share, 'level': 0.5, 'spread': 1.5,
                                     'weekly_change': -0.5, 'weekly_change_sd': 0.4}]
        fits = [{'answer_probability': 0.9, 'looks_per_hour': 2, 'classes': cls(0.8, 0.9), 'hour_odds': [1] * 24},
                {'answer_probability': 0.95, 'looks_per_hour': 6, 'classes': cls(0.9, 0.95)},
                {'answer_probability': 0.99, 'looks_per_hour': 100, 'classes': cls(0.7, 0.97)}]
        m = vr.median_compliance(fits)
        self.assertEqual(float(m['answer_probability']), 0.95)
        self.assertEqual(float(m['looks_per_hour']), 6)   # the median, not pulled by the 100
        self.assertNotIn('hour_odds', m)
        self.assertIn('name: "engaged", share: 0.8, level: 0.95', m['classes'])
        self.assertIn('name: "less engaged", share: 0.2,', m['classes'])
        scen = 'name: "x"\npopulation:\n  size: 5\nprotocol:\n  expiry: 5m\n'
        out = vr.with_compliance(scen, m)
        self.assertIn('population:\n  size: 5\n  compliance:\n    answer_probability:', out)
        self.assertTrue(out.endswith('protocol:\n  expiry: 5m\n'))
        with self.assertRaises(ValueError):
            vr.with_compliance('name: x\npopulation: {size: 5}\n', m)


class LeaveOneOut(unittest.TestCase):
    def test_the_observed_shares_own_error_is_said(self):
        res = {'loo': {'answered': 74.5}, 'observed': {'answered': 63.3, 'answered_se': 5.6, 'participants': 20}}
        name, ok, text = vr.evaluate(res)[0]
        self.assertEqual(name, 'leave-one-out default')
        self.assertFalse(ok)
        self.assertEqual(text, "+11.2 points (bound ±8); the observed share's own standard error 5.6 points "
                               "(20 participants), the miss 2.0 of them")
        res['observed'] = dict(res['observed'], answered_se=0.0)   # everyone alike: no ratio
        self.assertEqual(vr.evaluate(res)[0][2], "+11.2 points (bound ±8); the observed share's own standard error "
                                                 "0.0 points (20 participants)")
        res['observed'] = {'answered': 70.0}   # no error known (an older JSON): the bound alone
        self.assertEqual(vr.evaluate(res)[0][2], '+4.5 points (bound ±8)')


def write_prompts(path, people):
    """A simulated prompts.csv: per (replication, participant, answered), 4 prompts on one
    day at 09-12 h, the first `answered` of them answered 2 minutes after."""
    with open(path, 'w') as f:
        f.write('variant,replication,participant,scheduled,delivered,opened,submitted,status,volunteered\n')
        for rep, p, answered in people:
            for i in range(4):
                t = f'2024-01-01T{9 + i:02d}:00:00'
                st = 'answered' if i < answered else 'expired'
                done = f'2024-01-01T{9 + i:02d}:02:00' if st == 'answered' else ''
                f.write(f'v,{rep},{p},{t},{t},{done},{done},{st},0\n')


class RecordsKept(unittest.TestCase):
    """Records that hold only the participants who answered enough (`records_kept`)."""

    def rows(self, counts):
        t0 = datetime(2024, 1, 1, 9)
        return [row(p, t0 + timedelta(hours=i), i < a) for p, a, c in counts for i in range(c)]

    def test_lowest_share_and_the_rule(self):
        rows = self.rows([('a', 4, 6), ('b', 3, 5), ('c', 1, 4), ('d', 8, 8)])
        # c has fewer than 5 prompts: not counted for the threshold; b's 3 of 5 is the lowest.
        self.assertEqual(vr.lowest_share(rows), vr.Fraction(3, 5))
        self.assertIsNone(vr.lowest_share(rows[:4]))  # four of a's prompts: under 5, no threshold
        # The rule compares exactly: 4 of 6 reaches 2/3, 3 of 5 does not, nor c.
        kept, k, n = vr.kept_by_share(rows, vr.Fraction(2, 3))
        self.assertEqual((k, n), (2, 4))
        self.assertEqual(sorted({r['participant'] for r in kept}), ['a', 'd'])
        self.assertEqual(len(kept), 14)

    def test_simulated_figures_of_the_kept(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'prompts.csv')
            write_prompts(path, [(1, 'p1', 4), (1, 'p2', 1)])
            every = vr.simulated_figures(path)
            self.assertAlmostEqual(every['answered'], 62.5)
            self.assertNotIn('kept', every)
            kept = vr.simulated_figures(path, min_share=vr.Fraction(1, 2))
            self.assertAlmostEqual(kept['answered'], 100.0)
            self.assertAlmostEqual(kept['answered_all'], 62.5)
            self.assertAlmostEqual(kept['kept'], 50.0)
            self.assertEqual(kept['participants'], 1)

    def test_the_block_is_checked(self):
        good = {'by': 'answered_share', 'evidence': 'the metadata counts 70', 'enrolled': 70}
        vr.check_records_kept(good, 'x/study.yaml: records_kept')
        vr.check_records_kept(None, 'x')
        for bad, says in [({'by': 'answers', 'evidence': 'e'}, '.by'),
                          ({'by': 'answered_share'}, '.evidence'),
                          ({'by': 'answered_share', 'evidence': 'e', 'enrolled': 0}, '.enrolled'),
                          ({'by': 'answered_share', 'evidence': 'e', 'enrolled': True}, '.enrolled'),
                          ({'by': 'answered_share', 'evidence': 'e', 'threshold': 0.6}, 'threshold'),
                          ('answered_share', 'a mapping')]:
            with self.assertRaises(ValueError) as cm:
                vr.check_records_kept(bad, 'x/study.yaml: records_kept')
            self.assertIn('x/study.yaml: records_kept', str(cm.exception))
            self.assertIn(says, str(cm.exception))

    def test_the_report_says_it(self):
        study = {'name': 's', 'role': 'check', 'records_kept': {
            'by': 'answered_share', 'evidence': 'the source counts 10', 'enrolled': 10}}
        res = {'study': study, 'kept_min_share': vr.Fraction(2, 3),
               'observed': {'answered': 85.0, 'participants': 8, 'answered_se': 2.0},
               'default': {'answered': 86.0, 'answered_all': 75.0, 'kept': 80.0},
               'loo': {'answered': 88.0, 'answered_all': 78.0}}
        text = '\n'.join(vr.records_kept_text([res]))
        self.assertIn('at least 66.7 % answered', text)
        self.assertIn('the source counts 10', text)
        self.assertIn('keeps 80 % of the participants', text)
        self.assertIn('the records 8 of the 10 the source counts, 80 %', text)
        self.assertIn(f'8 participants of the default people would all reach it with probability {0.8 ** 8:.2g}.', text)
        self.assertIn('Of all simulated participants the default answers 75.0 %, the LOO 78.0 %.', text)
        loo = [c for c in vr.evaluate(res) if c[0] == 'leave-one-out default'][0]
        self.assertTrue(loo[1])
        self.assertIn("+3.0 points (bound ±8) of the simulated participants the records' rule keeps "
                      "(all simulated participants: -7.0)", loo[2])
        self.assertEqual(vr.records_kept_text([dict(res, kept_min_share=None)]), [])
        # Without a source's count nor a leave-one-out run; a probability too small to print.
        bare = dict(res, study=dict(study, records_kept={'by': 'answered_share', 'evidence': 'e'}), loo=None,
                    observed=dict(res['observed'], participants=40))
        text = '\n'.join(vr.records_kept_text([bare]))
        self.assertNotIn('the source counts', text)
        self.assertNotIn('the LOO', text)
        self.assertIn('would all reach it with probability under 0.001.', text)
        self.assertIn('the default answers 75.0 %.', text)

    def test_every_replication_counts_toward_the_share_kept(self):
        # At a half, replication 1 keeps one of two participants (3 of 4), replication 2 nobody
        # (1 of 4 each): kept 25 %, the share of all (37.5 + 25) / 2, the kept figures those of
        # replication 1 alone; at four fifths nobody anywhere.
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'prompts.csv')
            write_prompts(path, [(1, 'p1', 3), (1, 'p2', 0), (2, 'p1', 1), (2, 'p2', 1)])
            f = vr.simulated_figures(path, min_share=vr.Fraction(1, 2))
            self.assertAlmostEqual(f['kept'], 25.0)
            self.assertAlmostEqual(f['answered_all'], 31.25)
            self.assertAlmostEqual(f['answered'], 75.0)
            self.assertEqual(f['replications'], 1)
            none = vr.simulated_figures(path, min_share=vr.Fraction(4, 5))
            self.assertIsNone(none.get('answered'))
            self.assertAlmostEqual(none['kept'], 0.0)

    def test_a_malformed_block_names_the_file(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'study.yaml')
            with open(path, 'w') as f:
                f.write('name: x\nrecords_kept:\n  by: count\n  evidence: "e"\nscenario:\n  name: "x"\n')
            with self.assertRaises(ValueError) as cm:
                vr.load_study(path)
            self.assertIn(f'{path}: records_kept.by', str(cm.exception))

    def test_the_table_marks_a_kept_study(self):
        study = {'name': 'k', 'role': 'check', 'design': {'days': 3}, 'platform': 'p',
                 'records_kept': {'by': 'answered_share', 'evidence': 'e'}}
        res = {'study': study, 'kept_min_share': vr.Fraction(2, 3), 'expiry': '30m', 'notes': [],
               'observed': {'answered': 85.0, 'participants': 8, 'prompts': 100},
               'default': {'answered': 86.0, 'answered_all': 75.0, 'kept': 80.0}}
        plain = dict(res, study=dict(study, name='u', records_kept=None), kept_min_share=None)
        doc, _ = vr.markdown([res, plain], dict(version='v', calibrate_flags='', replications=1, date='d', seconds=1))
        rows = [line for line in doc.splitlines() if line.startswith('| k') or line.startswith('| u')]
        self.assertTrue(rows[0].startswith('| k (kept) | check |'))
        self.assertTrue(rows[1].startswith('| u | check |'))


class HeldOut(unittest.TestCase):
    def test_fitted_days_and_the_reason_of_a_miss(self):
        cal = {'pilot': {'prompts': 400, 'answered': 0.8},
               'check': {'fit_prompts': 100, 'check_prompts': 300,
                         'figures': [{'figure': 'answered', 'unit': 'share', 'observed': 0.75,
                                      'predicted': 0.9, 'low': 0.8, 'high': 0.95, 'inside': False}]}}
        fitted = vr.fitted_days_answered(cal)
        self.assertAlmostEqual(fitted, 95.0)   # (320 - 225) of 100
        res = {'heldout': vr.heldout_answered(cal['check']), 'fitted_days_answered': fitted,
               'observed': {'answered': 80.0}}
        name, ok, text = vr.evaluate(res)[0]
        self.assertFalse(ok)
        self.assertIn('the fitted days answered 95.0 %, the held-out days 75.0 % (-20.0 after the split; predicted -5.0)', text)
        cal['check']['fit'] = {'moments': [{'moment': 'answered share', 'pilot': 0.95, 'simulated': 0.931}]}
        res['fitted_days_simulated'] = vr.fitted_days_simulated(cal)
        self.assertIn('the fitted days answered 95.0 % (the fit simulates them at 93.1 %), the held-out days 75.0 %',
                      vr.evaluate(res)[0][2])
        self.assertIsNone(vr.fitted_days_simulated({'check': {}}))
        res['heldout'] = dict(res['heldout'], predicted=77.0)   # within 5 points: no reason given
        self.assertEqual(vr.evaluate(res)[0][2], '+2.0 points (bound ±5)')
        self.assertIsNone(vr.fitted_days_answered({'pilot': {}, 'check': {}}))
        cal['pilot']['prompts'] = 401   # not the pilot split in two
        self.assertIsNone(vr.fitted_days_answered(cal))


class Presets(unittest.TestCase):
    SHOWN = """name: preset
population:
  size: 100
  compliance:
    preset: fisher2017_mood
    classes:
      - name: engaged
        share: 0.9767
      - name: less engaged
        share: 0.02326
        spread: 0.8539
    answer_probability: 0.969
    looks_per_hour: 8.415
    reaction_seconds: 15
    break_off_per_minute: 0.045
protocol:
  window: 08:00-22:00
"""

    def fake_esmsim(self, folder, shown, fails=False):
        path = os.path.join(folder, 'esmsim')
        with open(path, 'w', encoding='utf-8') as f:
            f.write('#!/bin/sh\n' + ('echo "unknown preset" >&2; exit 1\n' if fails
                                     else f"cat <<'EOF'\n{shown}EOF\n"))
        os.chmod(path, 0o755)
        return path

    def test_match_differ_unknown(self):
        with tempfile.TemporaryDirectory() as d:
            esmsim = self.fake_esmsim(d, self.SHOWN)
            # A whole number as esmsim shows it (15, not 15.0) is a number too.
            fit = {'answer_probability': ('number', 0.969), 'looks_per_hour': ('number', 8.415),
                   'reaction_seconds': ('number', 15.0),
                   'break_off_per_minute': ('number', 0.01)}  # not carried by a preset
            self.assertEqual(vr.preset_differences(esmsim, 'fisher2017_mood', fit, d), [])
            fit['looks_per_hour'] = ('number', 9.1)
            fit['at_once'] = ('number', 0.5)
            self.assertEqual(vr.preset_differences(esmsim, 'fisher2017_mood', fit, d),
                             ['looks_per_hour 8.415 vs 9.1', 'at_once – vs 0.5'])
            self.assertIsNone(vr.preset_differences(self.fake_esmsim(d, '', fails=True), 'x', fit, d))
            self.assertEqual(vr.shown_compliance(self.SHOWN)['classes'],
                             [{'name': 'engaged', 'share': 0.9767},
                              {'name': 'less engaged', 'share': 0.02326, 'spread': 0.8539}])
            esmsim = self.fake_esmsim(d, self.SHOWN)
            fit = {'answer_probability': ('number', 0.969)}
            classes = [{'name': 'engaged', 'share': 0.97672}, {'name': 'less engaged', 'share': 0.02326, 'spread': 0.9}]
            self.assertEqual(vr.preset_differences(esmsim, 'fisher2017_mood', fit, d, classes),
                             ['classes[less engaged].spread 0.8539 vs 0.9'])


class Studies(unittest.TestCase):
    def test_every_study_file_reads(self):
        studies = vr.find_studies(vr.STUDIES_DIR)
        self.assertEqual(len(studies), 9)
        roles = {s['name']: s['role'] for s in studies}
        # The records that hold only the participants who answered enough (validation/real/README.md).
        self.assertEqual(sorted(s['name'] for s in studies if s.get('records_kept')),
                         ['fisher2017_mood', 'fisher2019_smoking', 'johannes2021_vigilance', 'reeves2020_ptsd'])
        self.assertEqual(sorted(k for k, v in roles.items() if v == 'training'),
                         ['bosley2020_gad', 'fisher2017_mood', 'johannes2021_vigilance',
                          'mpathr_example', 'soyster2022_alcohol'])
        for s in studies:
            self.assertIn(s['reader']['converter'], cc.CONVERTERS)
            self.assertEqual(len(s['raw_files'][0]['sha256']), 64)
            self.assertTrue(s['scenario_text'].startswith('name: '))
            self.assertIn('outputs: {prompts: true', s['scenario_text'])
            self.assertIsInstance(s['design']['days'], int)
            # The scenario lasts the design's days, or the calendar days they span (a week of
            # 5 weekdays for a participant who joins mid-week: span_days).
            self.assertEqual(vr.scenario_days(s['scenario_text']), s['design'].get('span_days', s['design']['days']))

    def test_yaml_subset(self):
        d = vr.parse_yaml_subset('a: 1\nb:\n  - name: x  # c\n    sha: "q#1"\n  - name: y\n'
                                 'c: {k: [1, 2]}\nd: "he said \\"hi\\""\n')
        self.assertEqual(d, {'a': 1, 'b': [{'name': 'x', 'sha': 'q#1'}, {'name': 'y'}],
                             'c': {'k': [1, 2]}, 'd': 'he said "hi"'})


class Converters(unittest.TestCase):
    def tsv(self, header, rows):
        f = tempfile.NamedTemporaryFile('w', suffix='.tsv', delete=False)
        f.write('\t'.join(header) + '\n')
        for r in rows:
            f.write('\t'.join(r) + '\n')
        f.close()
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_berlin_label(self):
        # winter: +1 h; summer: +2 h; the change on 2018-03-25 at 01:00 UTC
        self.assertEqual(cc._berlin_label('2018-03-16T17:42:00Z'), datetime(2018, 3, 16, 18, 42))
        self.assertEqual(cc._berlin_label('2018-03-25T00:59:00Z'), datetime(2018, 3, 25, 1, 59))
        self.assertEqual(cc._berlin_label('2018-03-25T01:00:00Z'), datetime(2018, 3, 25, 3, 0))
        self.assertEqual(cc._berlin_label('2017-10-29T00:59:00Z'), datetime(2017, 10, 29, 2, 59))
        self.assertEqual(cc._berlin_label('2017-10-29T01:00:00Z'), datetime(2017, 10, 29, 2, 0))
        self.assertIsNone(cc._berlin_label('NA'))

    def test_fisher_lab(self):
        path = self.tsv(['id', 'start', 'finish'], [['1', '2015-01-10T16:00:00Z', '2015-01-10T16:30:00Z'],
                                                   ['1', '2015-01-10T20:00:00Z', 'NA'],
                                                   ['2', 'NA', 'NA']])
        p = cc.fisher2017_mood(path)
        self.assertEqual([x['status'] for x in p], ['answered', 'missed'])
        self.assertEqual(p[0]['delivered'], datetime(2015, 1, 10, 17, 0))
        out = path + '.csv'
        self.addCleanup(os.unlink, out)
        self.assertEqual(cc.write_csv(p, out), ['participant', 'questionnaire', 'delivered', 'submitted'])

    def test_vanhalem_keeps_scheduled_prompts(self):
        h = ['id', 'trigger', 'trigger_time', 'form_start_time', 'form_finish_time', 'missing']
        t = '2019-02-25T10:05:47Z'
        path = self.tsv(h, [['1', 'Random Time: 10:05', t, t, t, 'NA'],
                            ['1', 'Immediately (EdaSclStepsAlgorithm x)', t, t, t, 'NA'],
                            ['1', 'Fixed Time 16:55', t, t, t, 'Ignored'],
                            ['1', 'Random Time: 11:00', t, t, t, 'Canceled_by_new_alarm']])
        p = cc.vanhalem2020_eda(path)
        self.assertEqual([(x['questionnaire'], x['status']) for x in p],
                         [('random', 'answered'), ('evening', 'missed')])
        self.assertIsNone(p[1]['opened'])
        self.assertEqual(len(cc.vanhalem2020_eda(path, questionnaires=None)), 3)

    def test_hoebeke_reconstructs(self):
        h = ['id', 'created', 'ended', 'day', 'counter']
        path = self.tsv(h, [['x', '2021-03-03T09:25:50Z', '2021-03-03T09:32:54Z', '1', '1'],
                            ['x', '2021-03-03T13:58:02Z', 'NA', '1', '2']])
        p = cc.hoebeke2022_rumination(path)
        self.assertEqual(len(p), 56)
        self.assertEqual(p[0]['scheduled'], datetime(2021, 3, 3, 9, 0))
        self.assertEqual([x['status'] for x in p[:3]], ['answered', 'partial', 'missed'])


class Doc(unittest.TestCase):
    def test_markers(self):
        with tempfile.TemporaryDirectory() as d:
            doc = os.path.join(d, 'v.md')
            with open(doc, 'w') as f:
                f.write('# Title\n\ntext\n')
            vr.write_doc(doc, 'first\n')
            vr.write_doc(doc, 'second\n')
            with open(doc) as f:
                text = f.read()
            self.assertEqual(text, f'# Title\n\ntext\n\n{vr.BEGIN}\nsecond\n{vr.END}\n')


class Benchmark(unittest.TestCase):
    def test_design_free_leave_one_out(self):
        def res(name, role, observed, loo):
            return {'study': {'name': name, 'role': role}, 'observed': {'answered': observed},
                    'loo': {'answered': loo}}
        results = [res('a', 'training', 60.0, 62.0), res('b', 'training', 80.0, 70.0),
                   res('c', 'training', 90.0, 89.0), res('d', 'check', 70.0, 71.0)]
        rows, spread = vr.design_free_benchmark(results)
        bench = {n: b for n, _, b, _ in rows}
        self.assertAlmostEqual(bench['a'], 85.0)   # the other training studies: b and c
        self.assertAlmostEqual(bench['b'], 75.0)
        self.assertAlmostEqual(bench['d'], 230 / 3)  # a check study: every training study
        self.assertAlmostEqual(spread, 15.0)
        text = ' '.join(vr.benchmark_text(results))
        self.assertIn('within 8 points for 3 of 4 studies', text)   # esmsim: a, c, d within 8; b misses by 10
        self.assertIn('the benchmark for 2', text)                  # b (5) and d (6.7) within 8


class DesignGap(unittest.TestCase):
    def test_the_two_misses_and_the_design_difference_the_same_people_give(self):
        def res(name, observed, loo, each):
            return {'study': {'name': name}, 'observed': {'answered': observed}, 'loo': {'answered': loo},
                    'loo_each': each}
        results = [res('high', 90.0, 78.0, {'a': 80.0, 'b': 76.0, 'own': 70.0}),
                   res('low', 60.0, 72.0, {'a': 75.0, 'b': 72.0}),
                   res('lower', 58.0, 67.0, {'a': 66.0, 'b': 68.0}),   # misses less (+9): not the pair's
                   res('fine', 80.0, 81.0, {'a': 80.0, 'b': 82.0})]
        high, low, observed, gaps = vr.design_gap(results)
        self.assertEqual((high['study']['name'], low['study']['name'], observed), ('high', 'low', 30.0))
        self.assertEqual(gaps, [('a', 5.0), ('b', 4.0)])   # 'own' ran on one of the two only
        text = ' '.join(vr.design_gap_text(results))
        self.assertIn("high's protocol answers +4.0 to +5.0 points against low's", text)
        self.assertIn('would need at least +14.0', text)   # 30 - 2 x 8
        self.assertIn('lies in who took part', text)
        # A protocol difference that already covers what is needed: not blamed on who took part.
        results[0]['loo_each']['a'] = 80.0 + 12.0
        text = ' '.join(vr.design_gap_text(results))
        self.assertNotIn('who took part', text)
        self.assertIn('enough for some of these people', text)
        # Misses on one side only: nothing to say.
        self.assertIsNone(vr.design_gap(results[1:]))
        self.assertEqual(vr.design_gap_text(results[1:]), [])


class BetweenStudies(unittest.TestCase):
    def test_t_quantiles(self):
        # The tables' 0.975 quantiles.
        for df, t in ((4, 2.776), (8, 2.306), (9, 2.262), (30, 2.042), (1000, 1.962)):
            self.assertAlmostEqual(vr.t_quantile_975(df), t, delta=0.01)

    def test_spread_interval_and_the_nested_check(self):
        def res(name, observed, loo, se):
            return {'study': {'name': name}, 'observed': {'answered': observed, 'answered_se': se},
                    'loo': {'answered': loo}}
        # Misses +3, -4, +12, 0 (root mean square 6.5), standard errors 2, 2, 2, 2.
        results = [res('a', 80.0, 83.0, 2.0), res('b', 70.0, 66.0, 2.0), res('c', 60.0, 72.0, 2.0),
                   res('d', 90.0, 90.0, 2.0), {'study': {'name': 'e'}, 'observed': {'answered': 50.0}}]
        for r, d in zip(results, (81.0, 73.0, 63.0, 90.0)):   # the default people's misses: +1, +3, +3, 0
            r['default'] = {'answered': d}
        b = vr.between_studies(results)
        self.assertEqual(b['n'], 4)                       # e has no LOO: left out
        self.assertAlmostEqual(b['rms'], 6.5)             # sqrt((9 + 16 + 144 + 0) / 4)
        self.assertAlmostEqual(b['half'], vr.t_quantile_975(4) * 6.5)
        self.assertAlmostEqual(b['beyond_sampling'], math.sqrt(6.5 ** 2 - 4))
        self.assertAlmostEqual(b['within_bound'], math.erf(8 / (6.5 * math.sqrt(2))))
        self.assertAlmostEqual(b['default_rms'], math.sqrt(19 / 4))
        nested = {n: (half, ok) for n, _, half, ok in b['nested']}
        # c against the others' misses (3, -4, 0): rms sqrt(25/3), t(0.975, 3) about 3.18: ±9.2, so +12 is outside.
        self.assertAlmostEqual(nested['c'][0], vr.t_quantile_975(3) * math.sqrt(25 / 3))
        self.assertFalse(nested['c'][1])
        self.assertTrue(nested['a'][1])
        text = '\n'.join(vr.between_studies_text(results, (round(b['half'], 1), 4)))
        self.assertIn('3 of 4 inside', text)
        self.assertIn('| c | +12.0 |', text)
        self.assertIn('it matches this run', text)
        # A figure esmsim carries that this run does not give is said, with the run's.
        text = '\n'.join(vr.between_studies_text(results, (14.6, 9)))
        self.assertIn('**it differs**', text)
        self.assertIsNone(vr.between_studies(results[:3]))   # too few studies to say a spread

    def test_a_saved_run_is_written_again(self):
        # --from-json: the report of a run's JSON, its checks redone, nothing run.
        saved = {'meta': {'version': 'esmsim test', 'binary_sha256': 'ab' * 32, 'calibrate_flags': '--seed 1',
                          'replications': 5, 'date': '2026-12-02', 'seconds': 60.0},
                 'results': [{'study': 'vanhalem2020_eda', 'role': 'check', 'notes': [],
                              'observed': {'answered': 88.0, 'participants': 82, 'prompts': 1800,
                                           'by_week': {'2': 80.0, '10': 70.0}},
                              'loo': {'answered': 78.0}, 'inside': [18, 21], 'kept_min_share': '143/213'}]}
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'run.json')
            with open(path, 'w', encoding='utf-8') as f:
                json.dump(saved, f)
            out = io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                code = vr.main(['--from-json', path])
        text = out.getvalue()
        self.assertEqual(code, 1)   # a failed check (-10 points) fails the report, as a run does
        # The saved share kept (a Fraction written as text) read back: the study is marked kept.
        self.assertIn('| vanhalem2020_eda (kept) | check | movisensXS with an EDA sensor |', text)
        self.assertIn('leave-one-out default: **fail**, -10.0 points', text)
        self.assertIn('- vanhalem2020_eda: w2 80.0 / –, w10 70.0 / –', text)   # weeks in order, not as text ('10' < '2')
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            vr.main([])   # no binary and no saved run: a usage error

    def test_the_swift_figure_is_read(self):
        half, n = vr.swift_between_studies()
        self.assertGreater(half, 0)
        self.assertGreater(n, 3)


class CrossPrediction(unittest.TestCase):
    def test_differences_and_closest(self):
        results = [{'study': {'name': 'x'}, 'observed': {'answered': 80.0},
                    'loo_each': {'a': 70.0, 'b': 83.0}},
                   {'study': {'name': 'a'}, 'observed': {'answered': 60.0}, 'loo_each': {'b': 75.5}},
                   {'study': {'name': 'y'}, 'observed': {'answered': 50.0}}]   # no runs: no row
        text = vr.cross_prediction_text(results)
        self.assertIn('| study | observed | a | b |', text)
        self.assertIn('| x | 80.0 | -10.0 | **+3.0** |', text)   # b is the closer
        self.assertIn('| a | 60.0 | – | **+15.5** |', text)      # its own column is empty
        self.assertFalse(any(line.startswith('| y ') for line in text))
        self.assertEqual(vr.cross_prediction_text([results[2]]), [])


class OwnStudy(unittest.TestCase):
    """A study of your own (`--study`): esmsim's generic CSV without a converter, its study.yaml,
    and the training studies' presets as its leave-one-out people."""

    def write(self, folder, name, text):
        path = os.path.join(folder, name)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        return path

    def test_generic_csv_as_esmsims_reader(self):
        with tempfile.TemporaryDirectory() as d:
            # Semicolons (the header's commonest), a mapped participant column, each kind of time.
            path = self.write(d, 'r.csv', 'pid;delivered;opened;submitted\n'
                              'a;2024-04-16T09:30:00;2024-04-16T09:31:00;2024-04-16T09:32:00\n'
                              'a;2024-04-16T07:30:00Z;NA;\n'
                              'b;1713259800;1713259860000;\n'
                              '\n'
                              'b;2024-04-16 11:30:00+00:00;;\n')
            p = cc.generic_csv(path, {'participant': 'pid'}, 'Europe/Brussels')
            self.assertEqual([x['status'] for x in p], ['answered', 'missed', 'partial', 'missed'])
            self.assertEqual(p[0]['delivered'], datetime(2024, 4, 16, 9, 30))   # no zone: the clock
            self.assertEqual(p[1]['delivered'], datetime(2024, 4, 16, 9, 30))   # UTC -> Brussels (+2)
            self.assertEqual(p[2]['delivered'], datetime(2024, 4, 16, 11, 30))  # seconds since 1970
            self.assertEqual(p[2]['opened'], datetime(2024, 4, 16, 11, 31))     # milliseconds
            self.assertEqual(p[3]['delivered'], datetime(2024, 4, 16, 13, 30))
            self.assertIsNone(p[0]['scheduled'])

    def test_generic_csv_refusals_name_the_file_line_and_column(self):
        with tempfile.TemporaryDirectory() as d:
            cases = [('participant,delivered\n,2024-04-16T09:30:00\n', None, 'line 2, column participant'),
                     ('participant,delivered\na,half past nine\n', None, 'line 2, column delivered'),
                     ('participant,opened\na,2024-04-16T09:30:00\n', None, 'a prompt needs its time'),
                     ('who,delivered\na,2024-04-16T09:30:00\n', None, "no 'participant' column"),
                     ('who,delivered\na,2024-04-16T09:30:00\n', {'participant': 'pid'}, 'reader.columns.participant'),
                     ('who,delivered\na,2024-04-16T09:30:00\n', {'person': 'who'}, 'unknown role(s) person')]
            for text, columns, said in cases:
                path = self.write(d, 'bad.csv', text)
                with self.assertRaises(ValueError) as e:
                    cc.generic_csv(path, columns, 'UTC')
                self.assertIn(said, str(e.exception))
                self.assertIn('bad.csv', str(e.exception))

    def test_reader_picks_a_converter_or_the_generic_csv(self):
        with tempfile.TemporaryDirectory() as d:
            path = self.write(d, 'r.csv', 'participant,scheduled,submitted\na,2024-04-16T09:30:00,\n')
            self.assertEqual(len(cc.read_study_file({'format': 'csv'}, path, 'UTC')), 1)
            with self.assertRaises(ValueError) as e:
                cc.read_study_file({'format': 'csv', 'converter': 'nope'}, path)
            self.assertIn("no converter 'nope'", str(e.exception))
            with self.assertRaises(ValueError) as e:
                cc.read_study_file({'format': 'mpath'}, path)
            self.assertIn('format: csv', str(e.exception))

    STUDY = ('name: mine\ntime_zone: Europe/London\nraw_files:\n  - name: records.csv\n'
             'reader:\n  format: csv\n  columns: {participant: pid}\n'
             'scenario:\n  name: mine\n  duration: 10d\n  population:\n    size: 24\n')

    def test_own_study_yaml(self):
        with tempfile.TemporaryDirectory() as d:
            s = vr.own_study(self.write(d, 'study.yaml', self.STUDY))
            self.assertEqual((s['role'], s['corpus_dir'], s['reader']['columns']),
                             ('check', d, {'participant': 'pid'}))
            for text, said in [(self.STUDY.replace('time_zone: Europe/London\n', ''), 'time_zone'),
                               (self.STUDY.replace('raw_files:\n  - name: records.csv\n', ''), 'raw_files'),
                               ('role: held out\n' + self.STUDY, "role: check or training, not 'held out'")]:
                with self.assertRaises(ValueError) as e:
                    vr.own_study(self.write(d, 'study.yaml', text))
                self.assertIn(said, str(e.exception))

    def test_the_readmes_example_reads(self):
        here = os.path.dirname(os.path.abspath(__file__))
        with open(os.path.join(here, '..', 'validation', 'real', 'README.md'), encoding='utf-8') as f:
            readme = f.read()
        import re
        block = re.search(r'## A study of your own.*?```yaml\n(.*?)```', readme, re.S).group(1)
        with tempfile.TemporaryDirectory() as d:
            # Its comments too (one after `scenario:`, which the scenario's search once missed).
            self.assertIn('scenario:  ', block)
            s = vr.own_study(self.write(d, 'study.yaml', block))
            self.assertEqual((s['role'], s['reader']['columns']), ('check', {'participant': 'pid', 'delivered': 'sent_at'}))
            self.assertIn('expiry: 60m', s['scenario_text'])
            self.assertFalse(s['scenario_text'].startswith(' '))

    def test_preset_people_in_calibrates_form(self):
        with tempfile.TemporaryDirectory() as d:
            shown = Presets.SHOWN.replace('    classes:\n      - name: engaged\n        share: 0.9767\n',
                                          '    classes:\n      - name: engaged\n        share: 0.9767\n'
                                          '        weekly_change: "-0.1283"\n')
            esmsim = Presets().fake_esmsim(d, shown)
            people = vr.preset_people(esmsim, ['fisher2017_mood'], d)
            # Only the keys a fit carries, as numbers (a quoted negative one too); not break-offs.
            self.assertEqual(people, {'fisher2017_mood': {
                'answer_probability': 0.969, 'looks_per_hour': 8.415, 'reaction_seconds': 15.0,
                'classes': [{'name': 'engaged', 'share': 0.9767, 'weekly_change': -0.1283},
                            {'name': 'less engaged', 'share': 0.02326, 'spread': 0.8539}]}})
            with contextlib.redirect_stderr(io.StringIO()) as said:
                self.assertEqual(vr.preset_people(Presets().fake_esmsim(d, '', fails=True), ['x'], d), {})
            self.assertIn('x: this esmsim has no such people preset', said.getvalue())
            self.assertEqual(vr.training_names(), sorted(
                s['name'] for s in vr.find_studies(vr.STUDIES_DIR) if s.get('role') == 'training'))
            self.assertEqual(len(vr.training_names()), 5)


ESMSIM = os.environ.get('ESMSIM') or os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '.build',
                                                  'release', 'esmsim')


@unittest.skipUnless(os.path.isfile(ESMSIM), 'needs esmsim built (make release) or ESMSIM=path')
class OwnStudyRun(unittest.TestCase):
    def test_a_study_of_your_own_is_checked(self):
        """The example pilot (esmsim's own simulated records) as a study of your own: read without
        a converter, fitted on its first days and checked on the rest, and predicted by the
        training studies' presets."""
        here = os.path.dirname(os.path.abspath(__file__))
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(here, '..', 'scenarios', 'pilot-example.csv'), encoding='utf-8') as f:
                records = f.read().replace('participant,', 'pid,', 1)
            OwnStudy().write(d, 'records.csv', records)
            study = OwnStudy.STUDY + ('    devices: {non_controlled: 1}\n  protocol:\n    window: "09:00-21:00"\n'
                                      '    schedule: {algorithm: fixed-blocks, per_day: 6}\n    expiry: 45m\n'
                                      '  outputs: {participants: false, coverage: false, sqlite: false, report: false}\n')
            path = OwnStudy().write(d, 'study.yaml', study)
            out = os.path.join(d, 'out.json')
            with contextlib.redirect_stdout(io.StringIO()) as page, contextlib.redirect_stderr(io.StringIO()):
                rc = vr.main([ESMSIM, '--study', path, '--json', out, '--report-only', '--replications', '2'])
            self.assertEqual(rc, 0)
            with open(out, encoding='utf-8') as f:
                r = json.load(f)['results'][0]
            self.assertEqual((r['study'], r['role'], r['observed']['prompts']), ('mine', 'check', 1440))
            self.assertAlmostEqual(r['observed']['answered'], 69.93, places=1)
            self.assertEqual(r['heldout']['observed'] is not None, True)
            self.assertGreater(r['inside'][1], 0)
            self.assertEqual(sorted(r['loo_each']), vr.training_names())
            self.assertIn("as esmsim's presets", page.getvalue())
            self.assertIn('no sha256 in study.yaml', page.getvalue())


if __name__ == '__main__':
    unittest.main()
