#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks a flame graph SVG written by pdstat --flamegraph:

  - it is well-formed XML, an <svg> in the SVG namespace;
  - it fetches nothing: the only http(s) URLs are the SVG and XLink
    namespace names, no element has an href leaving the file, no url()
    but to an id in it, no @import, no <script src>, no <image>;
  - frames are <g><title>NAME (N samples, P%)</title><rect/><text/></g>,
    every NAME given with --name has one, drawn with its name as text;
  - with --ratio A B LO HI, the samples of A over those of B are in
    [LO, HI];
  - the same name always has the same colour;
  - with --share NAME, prints "share NAME P": the percent of all samples
    in NAME's frames (frames of one name that do not nest);
  - with --diff FOLDED (difffolded.pl's "stack base new" lines, the
    ones the graph was drawn from), a differential graph: titles end
    "; +D%)" and each frame is coloured as flamegraph.pl colours it, by
    the change of the stack ending in it against the largest change of
    any stack (red grew, blue shrank, white none); each frame's stack
    found from the boxes' geometry. Prints how many frames are red,
    blue and white.

usage: svgcheck.py FILE [--name NAME]... [--ratio A B LO HI] [--share NAME]
                   [--diff FOLDED] [--unit samples|ns]
"""
import re
import sys
import xml.etree.ElementTree as ET

NS = '{http://www.w3.org/2000/svg}'
ALLOWED = {'http://www.w3.org/2000/svg', 'http://www.w3.org/1999/xlink'}


def die(msg):
    sys.exit('svgcheck: ' + msg)


def main():
    args = sys.argv[1:]
    path = args.pop(0)
    names, ratio, share, diff, unit = [], None, None, None, 'samples'
    while args:
        a = args.pop(0)
        if a == '--name':
            names.append(args.pop(0))
        elif a == '--share':
            share = args.pop(0)
        elif a == '--diff':
            diff = args.pop(0)
        elif a == '--unit':
            unit = args.pop(0)
        elif a == '--ratio':
            ratio = (args[0], args[1], float(args[2]), float(args[3]))
            del args[:4]
        else:
            die('bad argument ' + a)
    raw = open(path, 'rb').read().decode('utf-8')
    for url in re.findall(r'https?://[^\s"\'<>)]*', raw):
        if url not in ALLOWED:
            die('a network reference: ' + url)
    for m in re.findall(r'url\(([^)]*)\)', raw):
        if not m.strip('\'" ').startswith('#'):
            die('url() outside the file: ' + m)
    if '@import' in raw:
        die('@import')
    root = ET.fromstring(raw)
    if root.tag != NS + 'svg':
        die('root is ' + root.tag)
    for el in root.iter():
        for k, v in el.attrib.items():
            if k.endswith('href') and not v.startswith('#'):
                die('href to ' + v)
        if el.tag == NS + 'script' and any(k.endswith('src')
                                           for k in el.attrib):
            die('<script src>')
        if el.tag in (NS + 'image', NS + 'foreignObject', NS + 'use'):
            die('a <%s> element' % el.tag[len(NS):])
    frames = root.find(NS + 'g[@id="frames"]')
    if frames is None:
        die('no frames group')
    samples, colour, drawn = {}, {}, set()
    boxes = []
    n = 0
    tail = r'(; [+-]?[\d.]+%)?' if diff else ''
    for g in frames.findall(NS + 'g'):
        title = g.find(NS + 'title').text
        m = re.match(r'^(.*) \(([\d,]+) ' + unit + r', ([\d.]+)%' + tail +
                     r'\)$', title, re.DOTALL)
        if not m:
            die('frame title ' + title)
        name = m.group(1)
        samples[name] = samples.get(name, 0) + int(m.group(2).replace(',',
                                                                     ''))
        fill = g.find(NS + 'rect').get('fill')
        r = g.find(NS + 'rect')
        boxes.append((name, float(r.get('x')), float(r.get('width')),
                      float(r.get("y")), fill, m.group(4) if diff else None))
        if not diff and colour.setdefault(name, fill) != fill:
            die('%s has two colours' % name)
        if (g.find(NS + 'text').text or '') == name:
            drawn.add(name)
        n += 1
    if n == 0:
        die('no frames')
    for name in names:
        if name not in samples:
            die('no frame ' + name)
        if name not in drawn:
            die('%s is not written in its box' % name)
    if ratio:
        a, b = samples.get(ratio[0], 0), samples.get(ratio[1], 0)
        if b == 0 or not ratio[2] <= a / b <= ratio[3]:
            die('%s:%s = %d:%d, not in [%g, %g]' % (ratio[0], ratio[1], a,
                                                     b, ratio[2], ratio[3]))
    print('%d frames, %d names' % (n, len(samples)))
    if diff:
        check_diff(boxes, diff, samples['all'])
    if share:
        print('share %s %.1f' % (share, 100.0 * samples.get(share, 0) /
                                 samples['all']))


def check_diff(boxes, path, total):
    """Each box's colour from the change of its own stack."""
    change, maxd = {}, 1
    for line in open(path, encoding='utf-8', errors='replace'):
        stack, base, new = line.rstrip('\n').rsplit(' ', 2)
        d = int(new) - int(base)
        change[stack] = change.get(stack, 0) + d
        maxd = max(maxd, abs(d))
    # The stack of each box: its parent is the box one row below (y
    # greater) that holds it, the root "all" at the bottom.
    rows = {}
    for b in boxes:
        rows.setdefault(b[3], []).append(b)
    ys = sorted(rows, reverse=True)
    path_of = {}
    for b in rows[ys[0]]:
        path_of[id(b)] = []
    for lo, y in zip(ys, ys[1:]):
        for b in rows[y]:
            best, over = None, 0.0
            for p in rows[lo]:
                o = min(b[1] + b[2], p[1] + p[2]) - max(b[1], p[1])
                if o > over:
                    best, over = p, o
            if best is None or id(best) not in path_of:
                die('box %s has no caller below it' % b[0])
            path_of[id(b)] = path_of[id(best)] + [b[0]]
    counts = {'red': 0, 'blue': 0, 'white': 0}
    for b in boxes:
        stack = ';'.join(path_of[id(b)])
        d = change.get(stack, 0) if stack else 0
        v = min(abs(d), maxd)
        shade = 210 * (maxd - v) // maxd
        want = ('rgb(255,%d,%d)' % (shade, shade) if d > 0 else
                'rgb(%d,%d,255)' % (shade, shade) if d < 0 else
                'rgb(255,255,255)')
        if b[4] != want:
            die('%s: %s, not %s (change %d of at most %d)' % (stack or 'all',
                b[4], want, d, maxd))
        if stack and b[5] != '; %s%.2f%%' % ('+' if d > 0 else '',
                                             100.0 * d / total):
            die('%s: change shown as %r, not %d of %d' % (stack, b[5], d,
                                                          total))
        counts['red' if d > 0 else 'blue' if d < 0 else 'white'] += 1
    print('diff: %(red)d red, %(blue)d blue, %(white)d white' % counts)


main()
