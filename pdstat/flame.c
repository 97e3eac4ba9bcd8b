/* SPDX-License-Identifier: MIT */
/*
 * The flame graph as SVG: one box per frame, its width the share of the
 * samples whose stacks pass through it, the root ("all") at the bottom
 * and callees above their callers. Boxes come from one walk over the
 * stacks sorted frame by frame: where a stack leaves its predecessor's
 * path, the predecessor's frames end; where it goes on, its own begin.
 * Frames narrower than MIN_PX are left out (with their callees, which
 * are narrower still), so the file stays small for huge profiles, as
 * flamegraph.pl does. The script (hover details, click to zoom, search)
 * is ours and inline: the file needs nothing else to work.
 */
#include "pdstat/flame.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/sym/fold.h"
#include "libcommon/sym/offcpu.h"
#include "libcommon/cli/msg.h"
#include "libcommon/cli/output.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/sample.h"
#include "libcommon/sym/stacks.h"
#include "libcommon/sym/symbols.h"

#define WIDTH		1200	/* px, the image */
#define XPAD		10	/* px, left and right */
#define FRAME_H		16	/* px, one frame's row */
#define FONT_SIZE	12
#define FONT_W		0.59	/* a character's width, in font sizes */
#define TOP_PAD		(FONT_SIZE * 3 + 14)	/* title, subtitle */
#define BOTTOM_PAD	(FONT_SIZE * 2 + 10)	/* details line */
#define MIN_PX		0.1	/* narrower frames are left out */

struct walk {
	struct pd_stacks	*st;
	const struct flame_opts	*o;
	FILE			*f;
	uint64_t		 total;
	int64_t			*deltas;	/* diff: frame k's own change */
	uint64_t		 maxdelta;	/* diff: of any stack, >= 1 */
	double			 scale;		/* px per unit of weight */
	unsigned		 maxdepth;	/* of the frames drawn */
	unsigned		 height;
	int			 emit;
	char			*buf;		/* a name, made valid text */
	size_t			 buflen;
};

static uint64_t
weight(const struct walk *w, const struct pd_stack *s)
{
	return w->o->by_period && !w->o->diff ? s->period : s->count;
}

/* diff: how much a stack's own weight changed from the base's. */
static int64_t
delta(const struct walk *w, const struct pd_stack *s)
{
	return (int64_t)(s->count - flame_base(w->o, s->period));
}

/*
 * diff: a change's colour, as flamegraph.pl's color_scale: white for
 * none, deeper red the more it grew, deeper blue the more it shrank,
 * against the largest change.
 */
static void
diff_colour(int64_t d, uint64_t max, unsigned *r, unsigned *g, unsigned *b)
{
	uint64_t v = d < 0 ? -(uint64_t)d : (uint64_t)d;

	*r = *g = *b = 255;
	if (v > max)
		v = max;
	if (d > 0)
		*g = *b = 210 * (max - v) / max;
	else if (d < 0)
		*r = *g = 210 * (max - v) / max;
}

/* A name's colour: the same name, the same colour, in warm hues. */
static void
colour(const char *s, size_t n, unsigned *r, unsigned *g, unsigned *b)
{
	uint32_t h = 2166136261U;

	while (n-- > 0) {
		h ^= (unsigned char)*s++;
		h *= 16777619U;
	}
	h ^= h >> 15;
	h *= 0x2c1b3c6dU;
	h ^= h >> 12;
	*r = 205 + (h >> 16 & 0xff) * 50 / 255;
	*g = (h & 0xff) * 230 / 255;
	*b = (h >> 8 & 0xff) * 55 / 255;
}

/*
 * The name as text XML accepts: valid UTF-8 kept, other bytes and
 * control characters become '?'. Returns the length in w->buf (NUL
 * terminated), or -1 when out of memory.
 */
static ssize_t
clean(struct walk *w, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, o = 0;

	if (n + 1 > w->buflen) {
		char *b = realloc(w->buf, n + 1);

		if (b == NULL)
			return -1;
		w->buf = b;
		w->buflen = n + 1;
	}
	while (i < n) {
		unsigned c = p[i], len = 0, k;
		uint32_t cp;

		if (c < 0x80) {
			w->buf[o++] = c < 0x20 || c == 0x7f ? '?' : c;
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			len = 2, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			len = 3, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			len = 4, cp = c & 0x07;
		else
			cp = 0;
		for (k = 1; len > 0 && k < len; k++) {
			if (i + k >= n || (p[i + k] & 0xc0) != 0x80) {
				len = 0;
				break;
			}
			cp = cp << 6 | (p[i + k] & 0x3f);
		}
		/* Overlong, surrogates, past U+10FFFF, U+FFFE/F. */
		if (len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff) ||
		    cp >= 0xfffe))
			len = 0;
		if (len == 4 && (cp < 0x10000 || cp > 0x10ffff))
			len = 0;
		if (len == 0) {
			w->buf[o++] = '?';
			i++;
			continue;
		}
		memcpy(w->buf + o, p + i, len);
		o += len;
		i += len;
	}
	w->buf[o] = '\0';
	return o;
}

/* At most n characters (not bytes) of UTF-8 text s, escaped for XML. */
static void
put_text(FILE *f, const char *s, size_t nchars)
{
	for (; *s != '\0'; s++) {
		if (((unsigned char)*s & 0xc0) != 0x80) {
			if (nchars == 0)
				break;
			nchars--;
		}
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		default:
			putc(*s, f);
		}
	}
}

static size_t
nchars(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* 1234567 as "1,234,567". */
static void
put_count(FILE *f, uint64_t v)
{
	char t[32];
	int n = snprintf(t, sizeof(t), "%" PRIu64, v), i;

	for (i = 0; i < n; i++) {
		putc(t[i], f);
		if (i < n - 1 && (n - 1 - i) % 3 == 0)
			putc(',', f);
	}
}

/* One frame: depth 0 is the root, drawn at the bottom. */
static int
frame(struct walk *w, const char *name, size_t len, unsigned depth,
    uint64_t start, uint64_t end, int64_t d)
{
	double x, wd, y;
	unsigned r, g, b;
	size_t fit, n;
	FILE *f = w->f;

	wd = (end - start) * w->scale;
	if (wd < MIN_PX)
		return 0;
	if (!w->emit) {
		if (depth > w->maxdepth)
			w->maxdepth = depth;
		return 0;
	}
	if (clean(w, name, len) < 0)
		return -1;
	/*
	 * Both edges rounded the way they are printed, so that a callee
	 * never pokes out of its caller (the script's zoom relies on it).
	 */
	x = XPAD + round(start * w->scale * 10) / 10;
	wd = XPAD + round(end * w->scale * 10) / 10 - x;
	y = w->height - BOTTOM_PAD - (depth + 1) * FRAME_H;
	if (w->o->diff)
		diff_colour(d, w->maxdelta, &r, &g, &b);
	else
		colour(name, len, &r, &g, &b);
	fputs("<g><title>", f);
	put_text(f, w->buf, SIZE_MAX);
	fputs(" (", f);
	put_count(f, end - start);
	fprintf(f, " %s, %.2f%%", w->o->countname,
	    100.0 * (end - start) / w->total);
	/* The change as flamegraph.pl words it: "+1.25%" of the whole. */
	if (w->o->diff && depth > 0)
		fprintf(f, "; %s%.2f%%", d > 0 ? "+" : "",
		    100.0 * d / w->total);
	fprintf(f, ")</title><rect x=\"%.1f\" y=\"%.1f\" "
	    "width=\"%.1f\" height=\"%.1f\" fill=\"rgb(%u,%u,%u)\" rx=\"2\" "
	    "ry=\"2\"/><text x=\"%.1f\" y=\"%.1f\">", x, y, wd,
	    FRAME_H - 1.0, r, g, b, x + 3, y + FRAME_H - 5.5);
	/* The name where it fits, cut with ".." where it does not. */
	fit = (size_t)((wd - 6) / (FONT_SIZE * FONT_W));
	n = nchars(w->buf);
	if (fit >= 3 && n <= fit)
		put_text(f, w->buf, n);
	else if (fit >= 3) {
		put_text(f, w->buf, fit - 2);
		fputs("..", f);
	}
	fputs("</text></g>\n", f);
	return 0;
}

/*
 * The walk over the sorted stacks: calls frame() for every frame once,
 * when it ends. Returns 0, or -1 when out of memory.
 */
static int
walk(struct walk *w, uint64_t *starts, size_t maxn)
{
	struct pd_stack prev, s;
	size_t i, k, c, n = pd_stacks_count(w->st), len;
	uint64_t x = 0;
	const char *name;

	memset(&prev, 0, sizeof(prev));
	for (i = 0; i <= n; i++) {
		uint64_t wt = 0;

		if (i < n) {
			pd_stacks_get(w->st, i, &s);
			/*
			 * A stack gone from the new profile still marks
			 * its frame as shrunk, as in flamegraph.pl.
			 */
			if ((wt = weight(w, &s)) == 0 && !w->o->diff)
				continue;
		} else
			memset(&s, 0, sizeof(s));	/* the end: close all */
		for (c = 0; c < prev.n && c < s.n &&
		    prev.ids[c] == s.ids[c]; c++)
			;
		for (k = prev.n; k-- > c;) {
			name = pd_stacks_name(w->st, prev.ids[k], &len);
			if (frame(w, name, len, k + 1, starts[k], x,
			    k < maxn ? w->deltas[k] : 0) < 0)
				return -1;
		}
		for (k = c; k < s.n && k < maxn; k++) {
			starts[k] = x;
			w->deltas[k] = 0;
		}
		/* Each frame's colour is its own change: the leaf's. */
		if (w->o->diff && s.n > 0)
			w->deltas[s.n - 1] += delta(w, &s);
		x += wt;
		prev = s;
	}
	return frame(w, "all", 3, 0, 0, w->total, 0);
}

static const char style[] =
"<style type=\"text/css\">\n"
"text { font-family: Verdana, 'DejaVu Sans', sans-serif; font-size: 12px;"
" fill: rgb(0,0,0); }\n"
"#title { text-anchor: middle; font-size: 17px; }\n"
"#subtitle { text-anchor: middle; fill: rgb(80,80,80); }\n"
"#matched { text-anchor: end; }\n"
"#search, #unzoom, #clear { cursor: pointer; fill: rgb(60,60,160); }\n"
"#search:hover, #unzoom:hover, #clear:hover { text-decoration: underline; }\n"
"#frames > g { cursor: pointer; }\n"
"#frames > g:hover > rect { stroke: rgb(0,0,0); stroke-width: 0.5; }\n"
"#frames text { pointer-events: none; }\n"
".hide { display: none; }\n"
".parent { opacity: 0.55; }\n"
"</style>\n";

/*
 * The script. Frames keep their drawn geometry (ox, ow: the unzoomed
 * box) in a table; zooming maps the chosen frame's span onto the full
 * width, keeps its ancestors (full width, faded) and hides the rest.
 * Search takes a regular expression, colours the frames whose names
 * match and shows their share of the whole: nested matches count once.
 * Location "?s=RE" searches on load, "?z=NAME" zooms on the widest frame
 * of that name (links, and tests in a headless browser).
 */
static const char script[] =
"<script type=\"text/ecmascript\"><![CDATA[\n"
"'use strict';\n"
"var F = [], details, matched, unzoomBtn, clearBtn, zoomed = null;\n"
"function fitText(f, w) {\n"
"  var n = Math.floor((w - 6) / (C.fs * C.fw));\n"
"  var t = '';\n"
"  if (n >= 3) {\n"
"    var chars = Array.from(f.name);\n"
"    t = chars.length <= n ? f.name : chars.slice(0, n - 2).join('') + '..';\n"
"  }\n"
"  f.text.textContent = t;\n"
"}\n"
"function place(f, x, w) {\n"
"  f.rect.setAttribute('x', x.toFixed(1));\n"
"  f.rect.setAttribute('width', w.toFixed(1));\n"
"  f.text.setAttribute('x', (x + 3).toFixed(1));\n"
"  fitText(f, w);\n"
"}\n"
"function init() {\n"
"  details = document.getElementById('details').firstChild;\n"
"  matched = document.getElementById('matched').firstChild;\n"
"  unzoomBtn = document.getElementById('unzoom');\n"
"  clearBtn = document.getElementById('clear');\n"
"  var gs = document.getElementById('frames').children;\n"
"  for (var i = 0; i < gs.length; i++) {\n"
"    var g = gs[i], r = g.querySelector('rect');\n"
"    var info = g.querySelector('title').textContent;\n"
"    var f = { g: g, rect: r, text: g.querySelector('text'), info: info,\n"
"      name: info.substring(0, info.lastIndexOf(' (')),\n"
"      ox: parseFloat(r.getAttribute('x')),\n"
"      ow: parseFloat(r.getAttribute('width')),\n"
"      depth: Math.round((C.rooty - parseFloat(r.getAttribute('y'))) / C.fh),\n"
"      fill: r.getAttribute('fill') };\n"
"    F.push(f);\n"
"    g.addEventListener('mouseover', show.bind(null, f));\n"
"    g.addEventListener('mouseout', function () { details.nodeValue = ' '; });\n"
"    g.addEventListener('click', zoom.bind(null, f));\n"
"  }\n"
"  document.getElementById('search').addEventListener('click', ask);\n"
"  unzoomBtn.addEventListener('click', unzoom);\n"
"  clearBtn.addEventListener('click', clearSearch);\n"
"  window.addEventListener('keydown', function (e) {\n"
"    if (e.keyCode === 114 || ((e.ctrlKey || e.metaKey) && e.keyCode === 70)) {\n"
"      e.preventDefault();\n"
"      ask();\n"
"    } else if (e.keyCode === 27) {\n"
"      unzoom();\n"
"      clearSearch();\n"
"    }\n"
"  });\n"
"  var q = new URLSearchParams(document.location.search);\n"
"  if (q.get('z') !== null) {\n"
"    var best = null;\n"
"    F.forEach(function (f) {\n"
"      if (f.name === q.get('z') && (best === null || f.ow > best.ow))\n"
"        best = f;\n"
"    });\n"
"    if (best !== null)\n"
"      zoom(best);\n"
"  }\n"
"  if (q.get('s') !== null)\n"
"    search(q.get('s'));\n"
"}\n"
"function show(f) {\n"
"  details.nodeValue = 'Function: ' + f.info;\n"
"}\n"
"function zoom(f) {\n"
"  var x0 = f.ox, w0 = f.ow, full = C.width - 2 * C.xpad;\n"
"  var k = full / w0, eps = 0.01;\n"
"  zoomed = f;\n"
"  F.forEach(function (g) {\n"
"    g.g.classList.remove('hide', 'parent');\n"
"    if (g.depth >= f.depth && g.ox >= x0 - eps &&\n"
"        g.ox + g.ow <= x0 + w0 + eps) {\n"
"      place(g, C.xpad + (g.ox - x0) * k, g.ow * k);\n"
"    } else if (g.depth < f.depth && g.ox <= x0 + eps &&\n"
"        g.ox + g.ow >= x0 + w0 - eps) {\n"
"      g.g.classList.add('parent');\n"
"      place(g, C.xpad, full);\n"
"    } else {\n"
"      g.g.classList.add('hide');\n"
"    }\n"
"  });\n"
"  unzoomBtn.classList.remove('hide');\n"
"}\n"
"function unzoom() {\n"
"  zoomed = null;\n"
"  F.forEach(function (g) {\n"
"    g.g.classList.remove('hide', 'parent');\n"
"    place(g, g.ox, g.ow);\n"
"  });\n"
"  unzoomBtn.classList.add('hide');\n"
"}\n"
"function ask() {\n"
"  var t = window.prompt('Search for (a regular expression, e.g. ^ext4_)', '');\n"
"  if (t !== null && t !== '')\n"
"    search(t);\n"
"}\n"
"function search(term) {\n"
"  var re;\n"
"  try {\n"
"    re = new RegExp(term);\n"
"  } catch (e) {\n"
"    matched.nodeValue = 'Bad expression: ' + term;\n"
"    return;\n"
"  }\n"
"  var spans = [];\n"
"  F.forEach(function (f) {\n"
"    if (f.depth > 0 && re.test(f.name)) {\n"
"      f.rect.setAttribute('fill', 'rgb(230,0,230)');\n"
"      spans.push([f.ox, f.ox + f.ow]);\n"
"    } else {\n"
"      f.rect.setAttribute('fill', f.fill);\n"
"    }\n"
"  });\n"
"  spans.sort(function (a, b) { return a[0] - b[0]; });\n"
"  var sum = 0, end = -1;\n"
"  spans.forEach(function (s) {\n"
"    if (s[0] >= end) {\n"
"      sum += s[1] - s[0];\n"
"      end = s[1];\n"
"    } else if (s[1] > end) {\n"
"      sum += s[1] - end;\n"
"      end = s[1];\n"
"    }\n"
"  });\n"
"  var pct = 100 * sum / (C.width - 2 * C.xpad);\n"
"  matched.nodeValue = 'Matched: ' + pct.toFixed(1) + '% (' + spans.length +\n"
"    ' frames) for ' + term;\n"
"  clearBtn.classList.remove('hide');\n"
"}\n"
"function clearSearch() {\n"
"  F.forEach(function (f) { f.rect.setAttribute('fill', f.fill); });\n"
"  matched.nodeValue = ' ';\n"
"  clearBtn.classList.add('hide');\n"
"}\n"
"window.addEventListener('load', init);\n"
"]]></script>\n";

int
flame_svg(FILE *f, struct pd_stacks *st, const struct flame_opts *o)
{
	struct walk w;
	struct pd_stack s;
	uint64_t *starts = NULL;
	size_t i, maxn = 0;
	int r = -1;

	memset(&w, 0, sizeof(w));
	w.st = st;
	w.o = o;
	w.f = f;
	if (pd_stacks_sort(st, PD_STACKS_BY_FRAME) < 0)
		goto out;
	w.maxdelta = 1;
	for (i = 0; i < pd_stacks_count(st); i++) {
		int64_t d;

		pd_stacks_get(st, i, &s);
		w.total += weight(&w, &s);
		if (s.n > maxn)
			maxn = s.n;
		d = o->diff ? delta(&w, &s) : 0;
		if (d < 0 && -(uint64_t)d > w.maxdelta)
			w.maxdelta = -(uint64_t)d;
		else if (d > 0 && (uint64_t)d > w.maxdelta)
			w.maxdelta = d;
	}
	if ((starts = calloc(maxn + 1, sizeof(*starts))) == NULL ||
	    (w.deltas = calloc(maxn + 1, sizeof(*w.deltas))) == NULL)
		goto out;
	w.scale = w.total > 0 ? (double)(WIDTH - 2 * XPAD) / w.total : 0;
	/* First how deep the drawn frames go: that is the image's height. */
	if (w.total > 0 && walk(&w, starts, maxn) < 0)
		goto out;
	w.height = TOP_PAD + (w.maxdepth + 1) * FRAME_H + BOTTOM_PAD;
	w.emit = 1;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
	    "<svg version=\"1.1\" width=\"%d\" height=\"%u\" "
	    "viewBox=\"0 0 %d %u\" xmlns=\"http://www.w3.org/2000/svg\">\n"
	    "<!-- A flame graph made by pdstat(1) of pdtools. Hover "
	    "for details, click a frame to zoom, Search or Ctrl-F to "
	    "highlight. -->\n", WIDTH, w.height, WIDTH, w.height);
	fputs(style, f);
	fprintf(f, "<script type=\"text/ecmascript\">var C = { width: %d, "
	    "xpad: %d, fh: %d, fs: %d, fw: %.2f, rooty: %u };</script>\n",
	    WIDTH, XPAD, FRAME_H, FONT_SIZE, FONT_W,
	    w.height - BOTTOM_PAD - FRAME_H);
	fputs(script, f);
	fprintf(f, "<defs><linearGradient id=\"background\" x1=\"0\" y1=\"0\" "
	    "x2=\"0\" y2=\"1\"><stop stop-color=\"#eeeeee\" offset=\"5%%\"/>"
	    "<stop stop-color=\"#eeeeb0\" offset=\"95%%\"/></linearGradient>"
	    "</defs>\n<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%u\" "
	    "fill=\"url(#background)\"/>\n", WIDTH, w.height);
	fprintf(f, "<text id=\"title\" x=\"%d\" y=\"%d\">", WIDTH / 2,
	    FONT_SIZE * 2);
	if (clean(&w, o->title, strlen(o->title)) < 0)
		goto out;
	put_text(f, w.buf, SIZE_MAX);
	fputs("</text>\n", f);
	if (o->subtitle != NULL && o->subtitle[0] != '\0') {
		fprintf(f, "<text id=\"subtitle\" x=\"%d\" y=\"%d\">",
		    WIDTH / 2, FONT_SIZE * 2 + 18);
		if (clean(&w, o->subtitle, strlen(o->subtitle)) < 0)
			goto out;
		/* A long command line is cut to the width. */
		put_text(f, w.buf, (WIDTH - 2 * XPAD) / (FONT_SIZE * FONT_W));
		fputs("</text>\n", f);
	}
	fprintf(f, "<text id=\"unzoom\" class=\"hide\" x=\"%d\" y=\"%d\">"
	    "Reset Zoom</text>\n", XPAD, FONT_SIZE * 2);
	fprintf(f, "<text id=\"search\" x=\"%d\" y=\"%d\">Search</text>\n",
	    WIDTH - XPAD - 100, FONT_SIZE * 2);
	fprintf(f, "<text id=\"clear\" class=\"hide\" x=\"%d\" y=\"%d\">"
	    "Clear</text>\n", WIDTH - XPAD - 40, FONT_SIZE * 2);
	fprintf(f, "<text id=\"details\" x=\"%d\" y=\"%u\"> </text>\n", XPAD,
	    w.height - FONT_SIZE);
	fprintf(f, "<text id=\"matched\" x=\"%d\" y=\"%u\"> </text>\n",
	    WIDTH - XPAD, w.height - FONT_SIZE);
	fputs("<g id=\"frames\">\n", f);
	if (w.total > 0 && walk(&w, starts, maxn) < 0)
		goto out;
	fputs("</g>\n</svg>\n", f);
	if (fflush(f) == EOF || ferror(f)) {
		if (errno == 0)
			errno = EIO;
		goto out;
	}
	r = 0;
out:
	if (r < 0 && errno == 0)
		errno = ENOMEM;
	free(starts);
	free(w.deltas);
	free(w.buf);
	return r;
}

/* ----- the samples of a run, folded ----- */

/*
 * Samples are named at their own time (names.h), as pddump --folded
 * and perf script name them.
 */
struct flame {
	struct pd_fold		*fold;
	struct pd_offcpu	*offcpu;	/* --offcpu */
	uint64_t		 samples;
	int			 ev_idx;	/* evname's event, or -1 */
	int			 inl;		/* --inline */
	char			 evname[256];
};

struct flame *
flame_new(void)
{
	struct flame *fl = calloc(1, sizeof(*fl));

	if (fl == NULL)
		return NULL;
	if ((fl->fold = pd_fold_new()) == NULL) {
		free(fl);
		return NULL;
	}
	fl->ev_idx = -1;
	return fl;
}

void
flame_free(struct flame *fl)
{
	if (fl == NULL)
		return;
	pd_offcpu_free(fl->offcpu);
	pd_fold_free(fl->fold);
	free(fl);
}

int
flame_offcpu(struct flame *fl, uint64_t min_ns)
{
	if ((fl->offcpu = pd_offcpu_new(fl->fold, min_ns)) == NULL)
		return -1;
	return 0;
}

int
flame_is_offcpu(const struct flame *fl)
{
	return fl->offcpu != NULL;
}

struct pd_stacks *
flame_stacks(struct flame *fl)
{
	return pd_fold_stacks(fl->fold);
}

void
flame_input(struct flame *fl, const struct pd_evlist *el)
{
	fl->ev_idx = -1;
	if (fl->offcpu != NULL)
		(void)pd_offcpu_input(fl->offcpu, el);
}

void
flame_set_inline(struct flame *fl, int on)
{
	fl->inl = on;
}

void
flame_forget(struct flame *fl)
{
	pd_fold_forget(fl->fold);
}

int
flame_settle(struct flame *fl)
{
	return pd_fold_settle(fl->fold);
}

int
flame_sample(struct flame *fl, struct pd_syms *sy, const struct pd_evsel *ev,
    const struct pd_sample *s, const struct pd_frame *fr, size_t n)
{
	if (fl->inl)
		pd_fold_set_inline(fl->fold, sy);	/* this input's */
	if (fl->offcpu != NULL)
		return pd_offcpu_sample(fl->offcpu, sy, ev, s, fr, n) < 0 ?
		    -1 : 0;
	if (ev->idx != fl->ev_idx) {
		if (ev->name != NULL)
			snprintf(fl->evname, sizeof(fl->evname), "%s",
			    ev->name);
		else
			pd_attr_default_name(&ev->attr, fl->evname,
			    sizeof(fl->evname));
		fl->ev_idx = ev->idx;
	}
	switch (pd_fold_add_frames(fl->fold, sy, fl->evname, s->pid,
	    s->tid, fr, n, s->type & PERF_SAMPLE_PERIOD ? s->period :
	    ev->attr.sample_period)) {
	case -1:
		return -1;
	case 1:
		fl->samples++;
	}
	return 0;
}

uint64_t
flame_samples(const struct flame *fl)
{
	return fl->offcpu != NULL ? pd_offcpu_waits(fl->offcpu) :
	    fl->samples;
}

uint64_t
flame_offcpu_seen(const struct flame *fl, uint64_t *bad, const char **why)
{
	*bad = pd_offcpu_bad(fl->offcpu, why);
	return pd_offcpu_seen(fl->offcpu);
}

uint64_t
flame_left_out(const struct flame *fl)
{
	return pd_fold_left_out(fl->fold);
}

const char *
flame_event(const struct flame *fl)
{
	return pd_fold_event(fl->fold);
}

struct stacks_job {
	int			(*put)(FILE *, struct pd_stacks *,
				    const struct flame_opts *);
	struct pd_stacks	*st;
	const struct flame_opts	*o;
};

static int
put_stacks(FILE *f, void *arg)
{
	struct stacks_job *j = arg;

	return j->put(f, j->st, j->o);
}

int
flame_output(const char *path, int (*put)(FILE *, struct pd_stacks *,
    const struct flame_opts *), struct pd_stacks *st,
    const struct flame_opts *o)
{
	struct stacks_job j = { put, st, o };

	return pd_output_stdio(path, put_stacks, &j);
}

int
flame_write_stacks(struct pd_stacks *st, const char *path,
    const struct flame_opts *o)
{
	return flame_output(path, flame_svg, st, o);
}

int
flame_write(struct flame *fl, const char *path, const char *title,
    const char *subtitle)
{
	struct flame_opts o;

	memset(&o, 0, sizeof(o));
	o.title = title;
	o.subtitle = subtitle;
	o.countname = fl->offcpu != NULL ? "ns" : "samples";
	o.by_period = fl->offcpu != NULL;
	return flame_write_stacks(pd_fold_stacks(fl->fold), path, &o);
}
