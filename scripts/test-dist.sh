#!/usr/bin/env bash
# make test-dist: the dist tarball in a bare Debian root (debootstrap --variant=minbase: no
# Swift, no GSL, no SQLite): esmsim run of the quickstart and one sweep shard inside it, their
# outputs byte-identical (SHA-256 of every file but the manifest, which names the build) to
# the ordinary build's. The root is cached as a tarball in ESMSIM_ROOT_CACHE
# (/var/cache/esmsim). Skips, saying why, where it cannot run: not root, no debootstrap, no
# network to the Debian mirror.
set -euo pipefail
cd "$(dirname "$0")/.."
skip() { echo "test-dist: SKIPPED: $*"; exit 0; }
[ "$(id -u)" -eq 0 ] || skip "needs root for debootstrap and chroot"
if ! command -v debootstrap >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  echo "test-dist: installing debootstrap with apt-get…" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap) >/dev/null 2>&1 || true
fi
command -v debootstrap >/dev/null 2>&1 || skip "debootstrap is not installed and could not be (apt-get install debootstrap)"
tarball=$(ls dist/esmsim-*-linux-x86_64.tar.gz 2>/dev/null | head -1)
[ -n "$tarball" ] || { echo "test-dist: no tarball in dist/ (make dist)" >&2; exit 1; }
(cd dist && sha256sum -c "$(basename "$tarball").sha256" >/dev/null) || { echo "test-dist: checksum mismatch" >&2; exit 1; }
cache=${ESMSIM_ROOT_CACHE:-/var/cache/esmsim}
mkdir -p "$cache"
base="$cache/bookworm-minbase.tgz"
work=$(mktemp -d /tmp/esmsim-root.XXXXXX)
cleanup() { umount "$work/root/proc" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
root="$work/root"
if [ ! -f "$base" ]; then
  mirror=$(grep -m1 '^URIs:' /etc/apt/sources.list.d/debian.sources 2>/dev/null | awk '{print $2}')
  mirror=${mirror:-http://deb.debian.org/debian}
  echo "test-dist: making a bare Debian root (debootstrap, a few minutes; cached in $base)…" >&2
  debootstrap --variant=minbase --make-tarball="$base.partial" bookworm "$work/tarball" "$mirror" >"$work/db.log" 2>&1 \
    || { tail -5 "$work/db.log" >&2; rm -f "$base.partial"; skip "debootstrap could not fetch Debian from $mirror"; }
  mv "$base.partial" "$base"
fi
debootstrap --variant=minbase --unpack-tarball="$base" bookworm "$root" >"$work/db.log" 2>&1 \
  || { tail -5 "$work/db.log" >&2; echo "test-dist: debootstrap could not unpack $base" >&2; exit 1; }
# The bare root has no Swift, GSL or SQLite: say so, then use it.
for lib in libswiftCore.so libgsl.so libsqlite3.so; do
  if chroot "$root" /bin/sh -c "ls /usr/lib/*/$lib* /lib/*/$lib* 2>/dev/null" | grep -q .; then
    echo "test-dist: the root has $lib" >&2; exit 1
  fi
done
# Swift's Foundation reads the command line from /proc/self/cmdline.
mount -t proc proc "$root/proc" 2>/dev/null || skip "cannot mount /proc in the root (a container without that privilege)"
mkdir -p "$root/esmsim"
tar -C "$root/esmsim" -xzf "$tarball"
# The tarball's own scenarios (the dist README runs its quickstart.yaml), as the repository has them.
release=/esmsim/$(basename "$tarball" .tar.gz)
for f in scenarios/*.yaml scenarios/pilot-example.csv; do
  cmp -s "$f" "$root$release/$f" || { echo "test-dist: the tarball's $f differs from the repository's or is missing" >&2; exit 1; }
done
ln -s "$release/scenarios" "$root/esmsim/scenarios"
binary=$release/esmsim
chroot "$root" "$binary" --version
chroot "$root" /bin/sh -c "cd /esmsim && $binary run scenarios/quickstart.yaml --output /esmsim/quickstart >/dev/null \
  && $binary sweep run scenarios/sweep-schedulers.yaml --output /esmsim/sweep --shard 0 --num-shards 4 >/dev/null"
# The ordinary build, the same two runs.
ordinary=.build/release/esmsim
[ -x "$ordinary" ] || { echo "test-dist: no ordinary build (make release)" >&2; exit 1; }
mkdir -p "$work/ordinary"
"$ordinary" run scenarios/quickstart.yaml --output "$work/ordinary/quickstart" >/dev/null
"$ordinary" sweep run scenarios/sweep-schedulers.yaml --output "$work/ordinary/sweep" --shard 0 --num-shards 4 >/dev/null
hashes() { (cd "$1" && find quickstart sweep -type f ! -name manifest.json -print0 | sort -z | xargs -0 sha256sum); }
if diff <(hashes "$root/esmsim") <(hashes "$work/ordinary") >"$work/diff"; then
  echo "test-dist: ok: $(hashes "$work/ordinary" | wc -l) output files byte-identical to the ordinary build's (quickstart and sweep shard 0 of 4, in a bare Debian root)"
else
  echo "test-dist: outputs differ from the ordinary build's:" >&2
  cat "$work/diff" >&2
  exit 1
fi
# The planner from the bare root: `esmsim serve` answers the quickstart with the figure of summary.csv.
chroot "$root" "$binary" serve --port 0 >"$work/serve.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; cleanup' EXIT
for _ in $(seq 100); do grep -q "^esmsim planner: " "$work/serve.log" && break; sleep 0.1; done
url=$(sed -n 's/^esmsim planner: \([^ ]*\).*/\1/p' "$work/serve.log")
[ -n "$url" ] || { echo "test-dist: esmsim serve printed no URL:" >&2; cat "$work/serve.log" >&2; exit 1; }
python3 - "$url" "$work/ordinary/quickstart/summary.csv" <<'PY'
import csv, json, sys, urllib.request
url, summary = sys.argv[1], sys.argv[2]
body = json.dumps({"scenario": open("scenarios/quickstart.yaml").read()}).encode()
reply = json.load(urllib.request.urlopen(urllib.request.Request(url + "api/run", body, {"Content-Type": "application/json"})))
want = next(float(r["mean"]) for r in csv.DictReader(open(summary)) if r["metric"] == "answers_per_participant_median")
got = reply["variants"][0]["answers_median"]
assert reply["ok"] and got == want, (got, want)
print(f"test-dist: ok: esmsim serve in the bare root answers the quickstart: median {got} answers per participant, as summary.csv")
PY
kill $server
