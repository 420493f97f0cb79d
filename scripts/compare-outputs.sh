#!/usr/bin/env bash
# Runs every scenario of scenarios/ with its own settings, and two fixtures with every output
# format on (AWARE rows, Beiwe files, prompts, coverage), into DIR, and prints one SHA-256 per
# output file (the manifest, which records the build, left out). Two builds compared:
#   scripts/compare-outputs.sh ESMSIM_A /tmp/a > a.txt; scripts/compare-outputs.sh ESMSIM_B /tmp/b > b.txt
#   diff a.txt b.txt      # empty: byte-identical outputs
set -euo pipefail
esmsim=$(realpath "$1")
out=$2
cd "$(dirname "$0")/.."
rm -rf "$out"
mkdir -p "$out"
for s in scenarios/*.yaml; do
  name=$(basename "$s" .yaml)
  case "$name" in sweep-schedulers) continue ;; esac  # a sweep file, not a scenario
  "$esmsim" run "$s" --output "$out/$name" --threads 2 >/dev/null
done
# Every output format, on each OS and channel: short, so that the comparison stays quick.
for channel in ios_local push esmira aware_ios; do
  cat > "$out/formats-$channel.yaml" <<YAML
name: every output ($channel)
duration: 10d
seed: 11
population: {size: 120, os: {ios: 0.5, android: 0.5}, devices: {non_controlled: 0.5, heavy: 0.25, low_power: 0.25}}
protocol:
  window: "08:00-22:00"
  schedule: {algorithm: mappiness, per_day: 5}
  channel: $channel
  expiry: 30m
  reminders: {count: 1, interval: 5m}
  silent_push: 30m
  sensors: {location: {}, accelerometer: {}, battery: {}, screen: {}, weather: {}, pedometer: {}}
outputs: {prompts: true, participants: true, coverage: true, aware_esm: true, beiwe: true}
YAML
  (cd "$out" && "$esmsim" run "formats-$channel.yaml" --output "formats-$channel" --threads 2 >/dev/null)
done
# Beiwe's passive sensor files: small, so that they stay quick.
cat > "$out/formats-sensors.yaml" <<YAML
name: beiwe sensor files
duration: 2d
seed: 12
population: {size: 8, os: {ios: 0.5, android: 0.5}, devices: {non_controlled: 0.5, heavy: 0.5}}
protocol:
  window: "08:00-22:00"
  schedule: {algorithm: mappiness, per_day: 5}
  sensors: {location: {every: 5m}, accelerometer: {hz: 1}, gyroscope: {hz: 1}}
outputs: {beiwe: true, beiwe_sensors: true}
YAML
(cd "$out" && "$esmsim" run formats-sensors.yaml --output formats-sensors --threads 2 >/dev/null)
# Answers behind the prompts in every export that carries them (answers, ESMira, m-Path, AWARE,
# Beiwe): items, careless responding, a state-linked variable.
cat > "$out/formats-answers.yaml" <<YAML
name: answers in every export
duration: 4d
seed: 13
population:
  size: 40
  os: {ios: 0.5, android: 0.5}
  careless: {people: 0.3, prompts: 0.5, seconds_per_item: 2}
  person_predictors: [{name: age, mean: 30, sd: 8}]
  variables:
    - {name: stress, mean: 3, person_sd: 1, sd: 1, reversion: 90m}
    - {name: mood, mean: 50, person_sd: 10, sd: 12, reversion: 95m, effects: {stress: -2, state: 1}}
protocol:
  window: "08:00-22:00"
  expiry: 30m
  schedule: {algorithm: fixed-times, times: ["09:00", "13:00", "17:00", "21:00"]}
  items:
    - {name: happy, measures: mood, scale: slider, reliability: 0.7}
    - {name: tense, measures: stress, scale: likert 1-7, error_sd: 0.5, shown: 0.6}
outputs: {prompts: true, answers: true, days: true, esmira: true, esmira_missed: true, mpath: true, aware_esm: true, beiwe: true}
YAML
(cd "$out" && "$esmsim" run formats-answers.yaml --output formats-answers --threads 2 >/dev/null)
cd "$out"
find . -type f ! -name manifest.json ! -name '*.yaml' ! -name 'results.sqlite' -print0 | sort -z | xargs -0 sha256sum
