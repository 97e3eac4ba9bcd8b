# SPDX-License-Identifier: MIT
# tpcmp.py PDDUMP_JSON PERF_SCRIPT: a tracepoint sample's text in
# pddump --json ("text") against what perf script printed for it. The
# perf side is `perf script -F event,trace` ("event: text") or its
# default form ("comm pid [cpu] time: event: text"). The multisets of
# (event, text) must be equal; sample order is perf's time order on one
# side and the stream's on the other.
import collections
import json
import sys

ours = collections.Counter()
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o.get("type") == "SAMPLE" and isinstance(o.get("raw"), dict):
        ours[(o["event"], o.get("text", "<no text>").rstrip())] += 1

perf = collections.Counter()
for line in open(sys.argv[2], errors="surrogateescape"):
    head, sep, rest = line.rstrip("\n").partition(": ")
    if not sep:
        continue
    if "[" in head:			# comm pid [cpu] time: event: text
        head, sep, rest = rest.partition(": ")
    perf[(head.strip(), rest.rstrip())] += 1

if ours != perf:
    for k, n in list((ours - perf).items())[:3]:
        print("pddump only (%d): %s: %s" % (n, k[0], k[1]))
    for k, n in list((perf - ours).items())[:3]:
        print("perf only (%d): %s: %s" % (n, k[0], k[1]))
    sys.exit(1)
print("%d samples of %d events: the same text" %
      (sum(ours.values()), len({k[0] for k in ours})))
