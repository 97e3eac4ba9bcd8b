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
    in NAME's frames (frames of one name that do not nest).

usage: svgcheck.py FILE [--name NAME]... [--ratio A B LO HI] [--share NAME]
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
    names, ratio, share = [], None, None
    while args:
        a = args.pop(0)
        if a == '--name':
            names.append(args.pop(0))
        elif a == '--share':
            share = args.pop(0)
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
    n = 0
    for g in frames.findall(NS + 'g'):
        title = g.find(NS + 'title').text
        m = re.match(r'^(.*) \(([\d,]+) samples, ([\d.]+)%\)$', title,
                     re.DOTALL)
        if not m:
            die('frame title ' + title)
        name = m.group(1)
        samples[name] = samples.get(name, 0) + int(m.group(2).replace(',',
                                                                     ''))
        fill = g.find(NS + 'rect').get('fill')
        if colour.setdefault(name, fill) != fill:
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
    if share:
        print('share %s %.1f' % (share, 100.0 * samples.get(share, 0) /
                                 samples['all']))


main()
