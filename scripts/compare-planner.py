#!/usr/bin/env python3
"""The planner's JSON replies for a few requests, one SHA-256 each, with the timing field
(`milliseconds`) left out: run it with two builds and diff the output to show that a refactor
leaves `esmsim serve`'s figures and charts byte-identical.

    scripts/compare-planner.py ESMSIM > a.txt
"""
import hashlib
import http.client
import json
import subprocess
import sys

esmsim = sys.argv[1]
scenarios = {
    "quickstart": open("scenarios/quickstart.yaml").read(),
    "two protocols": "name: two\npopulation: {size: 150}\nduration: 10d\nprotocol: {schedule: {algorithm: mappiness, per_day: 4}}\n"
    "variants:\n  - {name: a}\n  - {name: b, protocol: {schedule: {algorithm: fixed-blocks, per_day: 6, min_gap: 30m}}}\n",
    "sensors": open("scenarios/aware-ios-case-study.yaml").read(),
}
proc = subprocess.Popen([esmsim, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
try:
    url = proc.stdout.readline().split()[2]
    host, port = url.split("//")[1].rstrip("/").split(":")
    for name, text in scenarios.items():
        for participant, truth in [(0, False), (3, True)]:
            c = http.client.HTTPConnection(host, int(port), timeout=300)
            body = json.dumps({"scenario": text, "participant": participant, "truth": truth})
            c.request("POST", "/api/run", body=body, headers={"Content-Type": "application/json"})
            reply = json.loads(c.getresponse().read())
            reply.pop("milliseconds", None)
            digest = hashlib.sha256(json.dumps(reply, sort_keys=True).encode()).hexdigest()
            print(f"{digest}  {name} participant {participant} truth {truth} ok={reply.get('ok')}")
finally:
    proc.terminate()
