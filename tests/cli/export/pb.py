# SPDX-License-Identifier: MIT
"""A reader of protobuf's wire format for the tests' checks of pprof
files: its own, not ours (pdstat/pb.c) and not the consumer's."""
import gzip
import sys


def varint(b, i):
    """The varint at b[i]: its value and the offset after it."""
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7f) << s
        s += 7
        if c < 0x80:
            return v, i


def fields(b):
    """Each field of message b: (number, int) for varints, (number,
    bytes) for length-delimited ones; any other wire type fails."""
    i = 0
    while i < len(b):
        key, i = varint(b, i)
        if key & 7 == 0:
            v, i = varint(b, i)
            yield key >> 3, v
        elif key & 7 == 2:
            n, i = varint(b, i)
            yield key >> 3, b[i:i + n]
            i += n
        else:
            sys.exit("FAIL: wire type %d at %d" % (key & 7, i))


def profile(path):
    """The profile.proto message of a gzipped pprof file."""
    with gzip.open(path) as f:
        return f.read()


def packed(b):
    """A packed repeated varint field's values."""
    out, i = [], 0
    while i < len(b):
        v, i = varint(b, i)
        out.append(v)
    return out


def decode(path):
    """The parts of a pprof file the checks look at, by profile.proto's
    names: strings, sample_type [(type, unit)], samples [(location ids,
    values, {label: str or num})], functions {id: name} and func_files
    {id: filename}, locations {id: [function id per line]}, loc_lines
    {id: [line number per line]}, loc_mapping {id: mapping id}, mappings
    [{field number: value}], and the scalar
    fields (time_nanos, duration_nanos, period_type, period,
    default_sample_type)."""
    raw = list(fields(profile(path)))
    s = [v.decode() for f, v in raw if f == 6]
    p = {"strings": s, "sample_type": [], "samples": [], "functions": {},
         "func_files": {}, "locations": {}, "loc_lines": {},
         "loc_mapping": {}, "mappings": []}
    for f, v in raw:
        if f == 1:
            d = dict(fields(v))
            p["sample_type"].append((s[d.get(1, 0)], s[d.get(2, 0)]))
        elif f == 2:
            locs, vals, labs = [], [], {}
            for g, w in fields(v):
                if g == 1:
                    locs += packed(w) if isinstance(w, bytes) else [w]
                elif g == 2:
                    vals += packed(w) if isinstance(w, bytes) else [w]
                elif g == 3:
                    d = dict(fields(w))
                    labs[s[d[1]]] = s[d[2]] if d.get(2) else d.get(3, 0)
            p["samples"].append((locs, vals, labs))
        elif f == 3:
            p["mappings"].append(dict(fields(v)))
        elif f == 4:
            d = list(fields(v))
            lid = dict(d).get(1, 0)
            lines = [dict(fields(w)) for g, w in d if g == 4]
            p["locations"][lid] = [l.get(1, 0) for l in lines]
            p["loc_lines"][lid] = [l.get(2, 0) for l in lines]
            p["loc_mapping"][lid] = dict(d).get(2, 0)
        elif f == 5:
            d = dict(fields(v))
            p["functions"][d.get(1, 0)] = s[d.get(2, 0)]
            p["func_files"][d.get(1, 0)] = s[d.get(4, 0)]
        elif f == 11:
            d = dict(fields(v))
            p["period_type"] = (s[d.get(1, 0)], s[d.get(2, 0)])
        elif f in (9, 10, 12, 14):
            p[{9: "time_nanos", 10: "duration_nanos", 12: "period",
               14: "default_sample_type"}[f]] = v
    return p
