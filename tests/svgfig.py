#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Read a gnuplot SVG figure's text, series and markers, and check what
tests/figures.sh asks of a figure that must stand alone (issue 34).

usage: svgfig.py CHECK SVG [ARG...]; prints one line per failure and
exits 1 when any, 0 when none.

  title SVG WORD...    the title (the largest text) holds every WORD
  curves SVG [INVALID_STORE]
                       end labels: none overlaps another (y apart by at
                       least its font size where their x ranges meet), the
                       key's series in bandwidth order (store % rising,
                       else read share falling); the "2x unloaded" label
                       covers no point; INVALID_STORE's series grey and
                       dashed, its end label grey, none of its points
                       ringed; each end label near its curve's end and
                       on no "unloaded" label
  set SVG              a published set's: end labels "N% read" and key
                       entries "N % read", none overlapping, no two
                       glued into one
  tails SVG            a key entry per mix ("N % stores"), every one drawn
                       inside the figure, and where p99 points are drawn
                       apart (hollow, grey) the key says why; the three
                       histograms' bandwidths in order, in hues no mix has
  absorb SVG           at least two y tick labels; each "MODE fit" line
                       never below all of MODE's points
  fits SVG             every line of the title lies inside the figure's
                       width (gnuplot centres a long title and cuts it)
  key SVG              the key's box inside the figure, holding each
                       entry at pngcairo's width (0.70 em a character);
                       a key without a box: each entry inside the figure
  keyout SVG           every key entry outside the plot's area (beside
                       it, not over the data)
  leaders SVG          curves.svg: each end label more than half its
                       height off its curve's end has a leader line from
                       that end to the label
  outliers SVG         fleet-curves.svg: the outliers' key entry in a
                       hue no outlier's line has (one hue, not one of
                       theirs)
  inplot SVG STRING    the text holding STRING lies within the plot's
                       width (not under a colour box beside it)
  ratio SVG            compare-ratio's end labels ("N%"): at least one,
                       none overlapping another; its key outside the plot
  text SVG STRING      some text of the figure holds STRING
  above SVG SERIES RE  every text matching RE (at least one) drawn after
                       the series whose title starts with SERIES, on a
                       box: that series' line cannot cross it
"""
import re
import sys

G_TEXT = re.compile(
    r'<g transform="translate\(([-\d.]+),([-\d.]+)\)" stroke="none" '
    r'fill="([^"]*)"[^>]*?font-size="([\d.]+)"\s+text-anchor="(\w+)"[^>]*>\s*'
    r'<text>(.*?)</text>', re.S)
USE = re.compile(r"<use xlink:href='#gpPt(\d+)' transform='translate\(([-\d.]+),([-\d.]+)\) "
                 r"scale\(([\d.]+)\)' color='([^']*)'/>")
GROUP = re.compile(r'<g id="gnuplot_plot_\d+[a-z]?" ><title>(.*?)</title>')
PATH = re.compile(r"<path[^>]*?d='([^']*)'")

GREY = (154, 154, 154)
RED = (214, 39, 40)


def rgb(s):
    m = re.match(r'rgb\(\s*(\d+),\s*(\d+),\s*(\d+)\)', s.strip())
    if m:
        return tuple(int(x) for x in m.groups())
    m = re.match(r'#([0-9a-fA-F]{6})', s.strip())
    if m:
        return tuple(int(m.group(1)[i:i + 2], 16) for i in (0, 2, 4))
    return None


def plain(s):
    s = re.sub(r'<[^>]*>', '', s)
    return (s.replace('&lt;', '<').replace('&gt;', '>').replace('&quot;', '"')
            .replace('&apos;', "'").replace('&amp;', '&')).strip()


def texts(svg):
    """Every text once (a boxed label is drawn twice): x, y, fill, size,
    anchor, string."""
    seen, out = set(), []
    for m in G_TEXT.finditer(svg):
        t = (float(m.group(1)), float(m.group(2)), rgb(m.group(3)),
             float(m.group(4)), m.group(5), plain(m.group(6)))
        if t not in seen:
            seen.add(t)
            out.append(t)
    return out


def box(t):
    """A text's box: x0, x1, y0, y1 (DejaVu Sans: about 0.6 em a
    character; the baseline at y, the ascent 0.8 em above it)."""
    x, y, _, size, anchor, s = t
    w = 0.6 * size * len(s)
    x0 = x if anchor == 'start' else x - w if anchor == 'end' else x - w / 2
    return x0, x0 + w, y - 0.8 * size, y + 0.2 * size


def groups(svg):
    """The named series: title, body (up to the next series, or the
    labels drawn after the last)."""
    ms = list(GROUP.finditer(svg))
    out = []
    for i, m in enumerate(ms):
        end = ms[i + 1].start() if i + 1 < len(ms) else len(svg)
        body = svg[m.end():end]
        cut = body.find('\n\t</g>\n<g fill="none"')
        out.append((plain(m.group(1)), body if cut < 0 else body[:cut]))
    return out


def markers(body):
    return [(float(m.group(2)), float(m.group(3)), float(m.group(4)), rgb(m.group(5)))
            for m in USE.finditer(body)]


def path_points(body):
    pts = []
    for d in PATH.findall(body):
        for x, y in re.findall(r'[ML]\s*([-\d.]+),([-\d.]+)', d):
            pts.append((float(x), float(y)))
    return pts


def title_of(svg):
    ts = texts(svg)
    if not ts:
        return ''
    big = max(t[3] for t in ts)
    out = ''
    for t in ts:
        if t[3] == big:
            # A line wrapped at a slash or hyphen (style.gp fit()) goes on
            # without a space.
            out += ('' if not out or out[-1] in '/-' else ' ') + t[5]
    return out


def overlaps(labels):
    bad = []
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            ax0, ax1, _, _ = box(a)
            bx0, bx1, _, _ = box(b)
            if ax0 < bx1 and bx0 < ax1 and abs(a[1] - b[1]) < min(a[3], b[3]):
                bad.append('end labels overlap: "%s" at y %.1f and "%s" at y %.1f (font %.0f)'
                           % (a[5], a[1], b[5], b[1], a[3]))
    return bad


END = re.compile(r'^(\d+)% (stores|read)$')


def end_labels(svg):
    return [t for t in texts(svg) if t[4] == 'start' and END.match(t[5])]


def check_title(svg, words):
    t = title_of(svg)
    return ['title "%s" lacks "%s"' % (t, w) for w in words if w not in t]


def check_fits(svg):
    m = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
    if not m:
        return ['no viewBox']
    w = float(m.group(1))
    ts = texts(svg)
    if not ts:
        return ['no text']
    big = max(t[3] for t in ts)
    bad = []
    for t in ts:
        x0, x1, _, _ = box(t)
        if t[3] == big and (x0 < 0 or x1 > w):
            bad.append('title line "%s" spans x %.0f to %.0f, past the figure (0 to %.0f)'
                       % (t[5], x0, x1, w))
    return bad


BOXPATH = re.compile(r"<path stroke='black'\s+d='(M[-\d., MLZ]*Z)\s*'/>")


def check_key(svg):
    """The key's box inside the figure and holding its entries at
    pngcairo's width (about 0.70 em a character for hyphenated names): a
    long set name drew an empty box cut at the figure's right edge."""
    m = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
    if not m:
        return ['no viewBox']
    w = float(m.group(1))
    bad, boxes = [], set()
    for m in BOXPATH.finditer(svg):
        pts = [tuple(float(v) for v in p.split(','))
               for p in re.findall(r'[-\d.]+,[-\d.]+', m.group(1))]
        xs, ys = {p[0] for p in pts}, {p[1] for p in pts}
        # A box: two x and two y (the plot's border has ticks besides).
        if len(xs) == 2 and len(ys) == 2:
            boxes.add((min(xs), max(xs), min(ys), max(ys)))
    if not boxes:
        entries = key_entries(svg)
        if not entries:
            return ['no key box and no key entry']
        for t in entries:
            x, _, _, size, anchor, txt = t
            w0 = 0.70 * size * len(txt)
            x0 = x - w0 if anchor == 'end' else x - w0 / 2 if anchor == 'middle' else x
            if x0 < 0 or x0 + w0 > w:
                bad.append('key entry "%s" needs x %.0f to %.0f, the figure is 0 to %.0f'
                           % (txt, x0, x0 + w0, w))
        return bad
    for b in sorted(boxes):
        if b[0] < 0.5 or b[1] > w - 0.5:
            bad.append('the key\'s box spans x %.0f to %.0f, cut at the figure (0 to %.0f)'
                       % (b[0], b[1], w))
        inside = [t for t in texts(svg) if b[0] < t[0] < b[1] and b[2] < t[1] < b[3]]
        if not inside:
            bad.append('the key\'s box (x %.0f to %.0f) holds no entry' % (b[0], b[1]))
        for t in inside:
            x, _, _, size, anchor, txt = t
            left = x - 0.70 * size * len(txt) if anchor == 'end' else x
            if left < b[0] - 1:
                bad.append('key entry "%s" (%d characters) needs x %.0f to %.0f, its box starts at %.0f'
                           % (txt, len(txt), left, x, b[0]))
    return bad


def key_entries(svg):
    """The key's entries: the texts that are a series' own title."""
    names = {name for name, _ in groups(svg) if not name.startswith('gnuplot_plot_')}
    return [t for t in texts(svg) if t[5] in names]


def plot_area(svg):
    """The plot's area from its border (set border 3: left and bottom
    axes): x0, x1, y0, y1."""
    m = re.search(r"d='M([\d.]+),([\d.]+) L\1,([\d.]+) L([\d.]+),\3", svg)
    return (float(m.group(1)), float(m.group(4)), float(m.group(2)),
            float(m.group(3))) if m else None


def check_keyout(svg):
    area = plot_area(svg)
    if not area:
        return ['no plot border found']
    entries = key_entries(svg)
    if not entries:
        return ['no key entry']
    bad = []
    for t in entries:
        x0, x1, y0, y1 = box(t)
        if x0 < area[1] and area[0] < x1 and y0 < area[3] and area[2] < y1:
            bad.append('key entry "%s" at x %.0f, y %.0f lies over the plot (x %.0f to %.0f, y %.0f to %.0f)'
                       % (t[5], t[0], t[1], area[0], area[1], area[2], area[3]))
    return bad


def curve_ends(svg):
    """Each labelled series' highest-bandwidth point, by its end label's
    text ("30% stores")."""
    ends = {}
    for name, body in groups(svg):
        m = re.match(r'^(\d+) % (stores|read)', name)
        # Not the key's sample: the row of the series' own name.
        keys = [t[1] for t in texts(body)]
        ms = [k for k in markers(body) if all(abs(k[1] - y) > 10 for y in keys)]
        if m and ms:
            x, y, _, _ = max(ms)
            ends['%s%% %s' % (m.group(1), m.group(2))] = (x, y)
    return ends


LEADER = re.compile(r"d='M([-\d.]+),([-\d.]+) L([-\d.]+),([-\d.]+)\s*'")


def check_leaders(svg):
    ends = curve_ends(svg)
    segs = [tuple(float(v) for v in m.groups()) for m in LEADER.finditer(svg)]
    labels = [t for t in end_labels(svg) if t[5] in ends]
    if not labels:
        return ['no end label']
    bad = []
    for t in labels:
        ex, ey = ends[t[5]]
        mid = t[1] - 0.3 * t[3]     # the text's middle, above its baseline
        if abs(mid - ey) <= 0.5 * t[3]:
            continue
        if not any(abs(a - ex) < 3 and abs(b - ey) < 3 and t[0] - 15 < c <= t[0] + 2 and
                   abs(d - mid) < t[3] for a, b, c, d in segs):
            bad.append('end label "%s" at y %.0f is %.0f px off its curve\'s end (%.0f, %.0f), with no leader line'
                       % (t[5], t[1], abs(mid - ey), ex, ey))
    return bad


def check_outliers(svg):
    keyed, lines = set(), set()
    for name, body in groups(svg):
        cols = {m[3] for m in markers(body)}
        if name.startswith('outliers'):
            keyed |= cols
        elif name.startswith('gnuplot_plot_'):
            lines |= cols
    if not keyed:
        return ['no "outliers" key entry with a marker']
    bad = []
    if len(keyed) > 1:
        bad.append('the "outliers" entry holds %d hues (%s): the outliers\' lines are drawn as the key\'s'
                   % (len(keyed), sorted(keyed)))
    if keyed & lines:
        bad.append('the "outliers" key entry\'s hue %s is an outlier\'s line\'s' % sorted(keyed & lines))
    return bad


def check_inplot(svg, string):
    area = plot_area(svg)
    if not area:
        return ['no plot border found']
    hits = [t for t in texts(svg) if string in t[5]]
    if not hits:
        return ['no text holds "%s"' % string]
    bad = []
    for t in hits:
        x0, x1, _, _ = box(t)
        if x0 < area[0] or x1 > area[1]:
            bad.append('"%s" spans x %.0f to %.0f, the plot x %.0f to %.0f'
                       % (t[5], x0, x1, area[0], area[1]))
    return bad


def check_ratio(svg):
    labels = [t for t in texts(svg) if re.match(r'^\d+%$', t[5])]
    if not labels:
        return ['no end label "N%"']
    return overlaps(labels) + check_keyout(svg)


def key_order(svg):
    """The key's mixes in drawing order: the series' own titles."""
    out = []
    for name, _ in groups(svg):
        m = re.match(r'^(\d+) % (stores|read)', name)
        if m:
            out.append((int(m.group(1)), m.group(2)))
    return out


def check_order(svg):
    keys = key_order(svg)
    stores = [v for v, k in keys if k == 'stores']
    reads = [v for v, k in keys if k == 'read']
    bad = []
    if stores != sorted(stores):
        bad.append('key not in bandwidth order (store %% rising): %s' % stores)
    if reads != sorted(reads, reverse=True):
        bad.append('key not in bandwidth order (read share falling): %s' % reads)
    return bad


def near_ends(svg, labels):
    """Each end label beside its curve's highest-bandwidth point (within
    four label heights: pushed apart, never floated away), and none on a
    "unloaded" label (issue 46: one sat on "2x unloaded", others floated
    1000 ns from their curves)."""
    bad = []
    ends = curve_ends(svg)
    lines = [t for t in texts(svg)
             if t[5].startswith('2× unloaded') or t[5].startswith('unloaded ')]
    for t in labels:
        if t[5] in ends and abs(t[1] - ends[t[5]][1]) > 4 * 1.7 * t[3]:
            bad.append('end label "%s" at y %.0f, %.0f px from its curve\'s end'
                       % (t[5], t[1], abs(t[1] - ends[t[5]][1])))
        ax0, ax1, ay0, ay1 = box(t)
        for u in lines:
            bx0, bx1, by0, by1 = box(u)
            if ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1:
                bad.append('end label "%s" sits on "%s"' % (t[5], u[5]))
    return bad


def check_curves(svg, invalid):
    bad = check_order(svg)
    labels = end_labels(svg)
    if not labels:
        bad.append('no end labels')
    bad += overlaps(labels)
    bad += near_ends(svg, labels)
    pts = []
    for _, body in groups(svg):
        pts += [(x, y) for x, y, _, _ in markers(body)]
    for t in texts(svg):
        if t[5].startswith('2× unloaded') or t[5].startswith('unloaded '):
            x0, x1, y0, y1 = box(t)
            for x, y in pts:
                if x0 - 3 <= x <= x1 + 3 and y0 - 3 <= y <= y1 + 3:
                    bad.append('"%s" covers the point at %.1f,%.1f' % (t[5], x, y))
                    break
    if invalid is not None:
        name = '%s %% stores (INVALID)' % invalid
        g = [body for n, body in groups(svg) if n == name]
        if not g:
            bad.append('no series "%s"' % name)
        else:
            body = g[0]
            if "stroke='rgb(154, 154, 154)'" not in body.replace('stroke="', "stroke='") and \
               'rgb(154, 154, 154)' not in body:
                bad.append('"%s" is not drawn grey' % name)
            if 'stroke-dasharray' not in body:
                bad.append('"%s" is not dashed' % name)
            mine = markers(body)
            rings = []
            for n, b in groups(svg):
                if n.startswith('flagged'):
                    rings += markers(b)
            for x, y, _, _ in mine:
                if any(abs(x - rx) < 0.5 and abs(y - ry) < 0.5 for rx, ry, _, _ in rings):
                    bad.append('a point of "%s" is ringed' % name)
                    break
        lab = [t for t in labels if t[5] == '%s%% stores' % invalid]
        if not lab or lab[0][2] != GREY:
            bad.append('the end label of %s %% stores is not grey' % invalid)
    return bad


def check_set(svg):
    bad = check_order(svg)
    labels = end_labels(svg)
    if not labels:
        bad.append('no end labels')
    for t in labels:
        if not t[5].endswith('% read'):
            bad.append('a published set\'s curve labelled "%s", not by read share' % t[5])
    # The key says what the labels say: one name per curve (issue 46 item 6).
    for name, _ in groups(svg):
        if re.search(r'\d\s?%', name) and not re.search(r'\d % read( \(INVALID\))?$', name):
            bad.append('a published set\'s key entry "%s", not by read share' % name)
    for t in texts(svg):
        if re.search(r'\d%\s*\d', t[5]):
            bad.append('labels glued into one: "%s"' % t[5])
    bad += overlaps(labels)
    bad += near_ends(svg, labels)
    return bad


def check_tails(svg):
    bad = []
    names = [n for n, _ in groups(svg)]
    if not any(re.match(r'^\d+ % stores$', n) for n in names):
        bad.append('no mix in the key (N %% stores): %s' % names)
    grey = [b for n, b in groups(svg) if n.startswith('p99 not trusted')]
    hollow = []
    for n, b in groups(svg):
        hollow += [m for m in markers(b) if m[3] == GREY]
    if hollow and not grey:
        bad.append('p99 points drawn apart without a key entry saying why')
    # Every named series' key entry drawn, inside the figure (issue 46:
    # the key stopped at "60 % stores", its not-trusted entry unseen).
    h = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
    height = float(h.group(2)) if h else 1e9
    drawn = {t[5] for t in texts(svg) if 0 < t[1] <= height}
    for n in names:
        if (re.match(r'^\d+ % stores$', n) or n.startswith('p99 not trusted')) and n not in drawn:
            bad.append('the key leaves out "%s"' % n)
    # No hue meaning two things: the histograms' colours none of a mix's.
    mixc, histc = set(), set()
    for n, b in groups(svg):
        cs = {m[3] for m in markers(b)}
        if re.match(r'^\d+ % stores$', n):
            mixc |= cs
        elif re.match(r'^(lowest bandwidth|mid|highest bandwidth)', n):
            histc |= cs
    if mixc & histc:
        bad.append('a hue means a mix on the left and a bandwidth on the right: %s'
                   % sorted(mixc & histc))
    bw = []
    for n in names:
        m = re.match(r'^(lowest bandwidth|mid|highest bandwidth): nop \d+, ([\d.]+) GB/s$', n)
        if m:
            bw.append(float(m.group(2)))
    if len(bw) != 3:
        bad.append('not three histograms named with their bandwidth: %s' % names)
    elif bw != sorted(bw):
        bad.append('the histograms\' bandwidths out of order: %s' % bw)
    return bad


def check_absorb(svg):
    bad = []
    ts = texts(svg)
    # y tick labels: numbers right-aligned left of the plot.
    ylab = [t for t in ts if t[4] == 'end' and re.match(r'^-?[\d.]+(e[-+]?\d+)?$', t[5])
            and t[0] < 150]
    if len(ylab) < 2:
        bad.append('%d y tick label(s): %s' % (len(ylab), [t[5] for t in ylab]))
    gs = groups(svg)
    for name, body in gs:
        if not name.endswith(' fit'):
            continue
        mode = name[:-4]
        data = [b for n, b in gs if n == mode]
        if not data:
            continue
        # Not the key's samples: the row of the series' own names.
        keys = [t[1] for t in texts(body) + texts(data[0])]

        def off_key(y):
            return all(abs(y - k) > 10 for k in keys)
        ys = [y for _, y, _, _ in markers(data[0]) if off_key(y)]
        line = [y for x, y in path_points(body) if off_key(y)]
        if ys and line and max(line) > max(ys) + 3:
            bad.append('"%s" dips below every point of %s (svg y %.1f > %.1f)'
                       % (name, mode, max(line), max(ys)))
    return bad



def check_text(svg, want):
    return [] if any(want in t[5] for t in texts(svg)) else \
        ['no text holds "%s"' % want]


def check_above(svg, series, pattern):
    start = [m.start() for m in GROUP.finditer(svg)
             if plain(m.group(1)).startswith(series)]
    if not start:
        return ['no series "%s"' % series]
    rx = re.compile(pattern)
    hits = [(m.start(), plain(m.group(6))) for m in G_TEXT.finditer(svg)
            if rx.search(plain(m.group(6)))]
    if not hits:
        return ['no text matches %s' % pattern]
    bad = ['"%s" drawn before the series "%s": its line runs over it'
           % (t, series) for at, t in hits if at < start[0]]
    # A boxed label is drawn twice (gnuplot: the box, then the text).
    if len(hits) < 2 * len({t for _, t in hits}):
        bad.append('the labels matching %s are not boxed' % pattern)
    return bad


# One row a check: its name on the command line, and how it takes the
# words after the file.
CHECKS = {
    'title': lambda svg, a: check_title(svg, a),
    'curves': lambda svg, a: check_curves(svg, a[0] if a else None),
    'set': lambda svg, a: check_set(svg),
    'tails': lambda svg, a: check_tails(svg),
    'absorb': lambda svg, a: check_absorb(svg),
    'fits': lambda svg, a: check_fits(svg),
    'keyout': lambda svg, a: check_keyout(svg),
    'leaders': lambda svg, a: check_leaders(svg),
    'outliers': lambda svg, a: check_outliers(svg),
    'inplot': lambda svg, a: check_inplot(svg, a[0]),
    'ratio': lambda svg, a: check_ratio(svg),
    'key': lambda svg, a: check_key(svg),
    'text': lambda svg, a: check_text(svg, a[0]),
    'above': lambda svg, a: check_above(svg, a[0], a[1]),
}


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    check, path = argv[1], argv[2]
    svg = open(path, encoding='utf-8').read()
    args = argv[3:]
    fn = CHECKS.get(check)
    if not fn:
        print('svgfig.py: unknown check %s' % check)
        return 2
    bad = fn(svg, args)
    for b in bad:
        print('%s: %s' % (path, b))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
