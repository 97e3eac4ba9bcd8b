#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The test oracle for pddump --folded: folds the text of `perf script`
(default fields, with callchains) into "comm;outer;...;inner count" lines
the way stackcollapse-perf.pl --all does, by its documented behaviour:

  - a sample is its header line ("comm tid [cpu] time: period event:"),
    its callchain lines ("addr name+0xoff (dso)", innermost first) and a
    blank line; only samples of the first event seen are folded;
  - the comm's spaces become '_'; "+0x..." offsets are cut; a name
    starting with '(' is no frame; "a->b" is two frames, the second
    suffixed _[i]; "[unknown]" becomes "[dso's file name]" unless the dso
    is unknown too;
  - ';' becomes ':', an argument list "(...)" is cut (not a Go method's
    ".(*T).", not "(anonymous namespace)"), quotes go; a "java" comm's
    "Lpkg/..." loses its 'L';
  - dsos starting with '[' or ending in "vmlinux" (but not "unknown") add
    _[k]; /tmp/perf-N.map and jitted-N-N.so add _[j];
  - lines are sorted bytewise; counts are samples, or periods (--period).

Written for pdtools' tests; none of stackcollapse-perf.pl's code.
usage: collapse.py [--period] < perf-script.txt
"""
import re
import sys

HEADER = re.compile(r'^(\S.+?)\s+(\d+)/*(\d+)*\s+', re.ASCII)
EVENT = re.compile(r'(\S+):\s*$', re.ASCII)
PERIOD = re.compile(r':\s*(\d+)\s+(\S+):\s*$', re.ASCII)
FRAME = re.compile(r'^\s*(\w+)\s*(.+) \((\S*)\)', re.ASCII)
OFFSET = re.compile(r'\+0x[\da-f]+$')
GO_METHOD = re.compile(r'\.\(.*\)\.', re.DOTALL)
ARGS = re.compile(r'\((?!anonymous namespace\)).*', re.DOTALL)
JIT = re.compile(r'/tmp/perf-\d+\.map|/jitted-\d+-\d+\.so', re.ASCII)


def frames(rawfunc, dso, comm):
    rawfunc = OFFSET.sub('', rawfunc)
    if rawfunc.startswith('('):
        return []
    parts = rawfunc.split('->')
    while parts and parts[-1] == '':	# as perl's split
        parts.pop()
    out = []
    for i, func in enumerate(parts):
        if func == '[unknown]':
            base = dso.rsplit('/', 1)[-1] if dso != '[unknown]' else 'unknown'
            func = '[' + base + ']'
        func = func.replace(';', ':')
        if not GO_METHOD.search(func):
            func = ARGS.sub('', func, count=1)
        func = func.replace('"', '').replace("'", '')
        if comm == 'java' and '/' in func and func.startswith('L'):
            func = func[1:]
        if i > 0:
            func += '_[i]'
        elif (dso.startswith('[') or dso.endswith('vmlinux')) and \
                'unknown' not in dso:
            func += '_[k]'
        elif JIT.search(dso):
            func += '_[j]'
        out.append(func)
    return out


def main():
    by_period = '--period' in sys.argv[1:]
    folded = {}
    first_event = None
    comm = None		# None: not in a sample (or a filtered one)
    weight = 1
    stack = []
    text = sys.stdin.buffer.read().decode('latin-1')
    for line in text.split('\n'):
        if line.startswith('#'):
            continue
        if line == '':
            if comm is not None:
                key = ';'.join([comm] + stack)
                folded[key] = folded.get(key, 0) + weight
            comm = None
            stack = []
            continue
        m = HEADER.match(line)
        if m:
            e = EVENT.search(line)
            if e:
                if first_event is None:
                    first_event = e.group(1)
                elif e.group(1) != first_event:
                    comm = None
                    continue
            comm = m.group(1).replace(' ', '_')
            weight = 1
            if by_period:
                p = PERIOD.search(line)
                if not p:
                    sys.exit('collapse.py: no period in: ' + line)
                weight = int(p.group(1))
            stack = []
            continue
        m = FRAME.match(line)
        if m:
            if comm is None:
                continue
            # Innermost first in the text: each line goes in front.
            stack[0:0] = frames(m.group(2), m.group(3), comm)
            continue
        sys.stderr.write('collapse.py: unrecognized line: ' + line + '\n')
    out = sys.stdout.buffer
    for key in sorted(folded, key=lambda k: k.encode('latin-1')):
        out.write(('%s %d\n' % (key, folded[key])).encode('latin-1'))


main()
