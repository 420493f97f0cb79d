#!/usr/bin/env bash
# make fuzz: builds one libFuzzer harness per reader of outside input (scenario files, AWARE
# schedule files, ESMira study files, PACO experiments, Beiwe study exports, sweep files, pilot
# records, widened and lengthened by their recipes; the design search's arguments; the planner's requests), and past them into a one-participant-day simulation (study:
# a scenario; imported: an AWARE, ESMira, PACO or Beiwe file), with the address sanitizer, runs each for
# FUZZ_SECONDS (default 120) from the seed corpus in Tests/Fuzz/corpus/<reader>/, and prints
# the executions. A crash leaves its input in .build/fuzz/artifacts/ and fails the target:
# turn it into a regression test (Tests/ScenariosTests/FuzzRegressionTests.swift).
#
# SwiftPM cannot link an executable with -sanitize=fuzzer (it renames main), so the library
# targets are built instrumented by SwiftPM and each harness is linked by swiftc.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${FUZZ_SECONDS:-120}
BUILD=.build/fuzz
READERS=${FUZZ_READERS:-scenario aware esmira paco beiwe sweep pilot planner study imported design}

echo "fuzz: building the readers with -sanitize=fuzzer,address…" >&2
# `-Xswiftc -O` last: the simulation's modules, built -Ounchecked for release (Package.swift),
# keep Swift's run-time checks here, so that an overflow or a bad index traps for the fuzzer.
swift build --build-path "$BUILD" -c release --target Planner \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -O -Xcc -fsanitize=fuzzer-no-link,address 2>&1 | grep -E "error" >&2 || true
OBJECTS=$(find "$BUILD/release/" \( -path '*/Scenarios.build/*' -o -path '*/Schedules.build/*' -o -path '*/SimKernel.build/*' \
  -o -path '*/Planner.build/*' -o -path '*/Calibration.build/*' -o -path '*/Study.build/*' -o -path '*/Presentation.build/*' -o -path '*/Measures.build/*' \
  -o -path '*/StudyModel.build/*' -o -path '*/Yams.build/*' -o -path '*/CYaml.build/*' -o -path '*/CPhilox.build/*' \) -name '*.o' | sort)
mkdir -p "$BUILD/artifacts"
status=0
for reader in $READERS; do
  swiftc -O -sanitize=fuzzer,address -parse-as-library -I "$BUILD/release/Modules" -I Sources/CGSL \
    -I Sources/CPhilox/include -Xcc -fmodule-map-file="$BUILD/release/CPhilox.build/module.modulemap" \
    -I .build/checkouts/Yams/Sources/CYaml/include -Xcc -I.build/checkouts/Yams/Sources/CYaml/include \
    "Tests/Fuzz/harness/$reader.swift" $OBJECTS -lgsl -lgslcblas -lm -o "$BUILD/fuzz-$reader" 2>&1 \
    | grep -v "warning: Cannot export local symbol" >&2 || true
  work="$BUILD/corpus-$reader"
  mkdir -p "$work"
  log="$BUILD/fuzz-$reader.log"
  if "$BUILD/fuzz-$reader" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix="$BUILD/artifacts/$reader-" -print_final_stats=1 "$work" "Tests/Fuzz/corpus/$reader" >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")
    echo "fuzz $reader: $runs executions in ${SECONDS_EACH} s, no crash, no hang; peak memory ${rss} MB; corpus $(ls "$work" | wc -l) inputs"
  else
    echo "fuzz $reader: FAILED — see $log; the input is in $BUILD/artifacts/" >&2
    tail -30 "$log" >&2
    status=1
  fi
done
exit $status
