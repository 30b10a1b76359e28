#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Each consumer's reading rules, written here from their formats (issue 35
item 4; tests/roundtrip.sh runs them):

  bwlat DIR JSON     the Mess simulator (Standalone MessMemCtrl and
                     BwLatMemCtrl): bwlat_0.txt .. bwlat_100.txt opened by
                     name, each read as `file >> bw >> lat` until the first
                     token that is not a number; a file missing shifts every
                     later share (it skips it), so all 51 must be there;
                     highest bandwidth first.  Compared with the curves of
                     our --format json export (JSON) within the 3 decimals.
  profet DIR JSON    PROFET's Curves(DIR): more than one .json is an error,
                     one is read as {"<R>": [[MBps, cycles], ...]} with R
                     through int() and points sorted by bandwidth, none
                     means bwlat*.txt read as cycles.  Cycles over
                     info.txt's CPU_FREQ compared with JSON's ns.
  not-profet DIR     PROFET's Curves(DIR) must raise on DIR (a mess folder).
  csv CSV SOURCE     memory_curves.csv as Mess's scripts read it (a header
                     row, columns by name): rows keyed (read_pct_rounded,
                     pause), bandwidth_mean GB/s and latency_mean ns, equal
                     to SOURCE's rows (a Mess-Results memory_curves.csv, or
                     a run's curves.csv: round(read_pct), nop, bw_gbs,
                     lat_ns) within the 6 decimals written.
Prints one line of what it compared; exit 1 with the first difference."""
import csv
import json
import math
import os
import sys


def fail(msg):
    print(msg)
    sys.exit(1)


def shares_of(path):
    doc = json.load(open(path))
    return {int(k): v['points'] for k, v in doc['curves'].items()}


def simulator_file(path):
    """`while (f >> bw >> lat)`: pairs until a token is not a number."""
    toks = open(path).read().split()
    pts = []
    for i in range(0, len(toks) - 1, 2):
        try:
            pts.append((float(toks[i]), float(toks[i + 1])))
        except ValueError:
            break
    return pts


def bwlat(d, ref):
    want = shares_of(ref)
    worst, n = 0.0, 0
    for r in range(0, 101, 2):
        p = os.path.join(d, 'bwlat_%d.txt' % r)
        if not os.path.isfile(p):
            fail('%s: missing: the simulator skips it and takes the next file for share %d' % (p, r))
        pts = simulator_file(p)
        if len(pts) != len(open(p).read().split()) // 2:
            fail('%s: a line the simulator stops at' % p)
        if any(pts[i][0] < pts[i + 1][0] for i in range(len(pts) - 1)):
            fail('%s: not highest bandwidth first' % p)
        exp = list(reversed(want[r]))
        if len(pts) != len(exp):
            fail('%s: %d points, the export has %d' % (p, len(pts), len(exp)))
        for (b, l), (eb, el) in zip(pts, exp):
            e = max(abs(b - eb), abs(l - el))
            if e > 5e-4 + 1e-9:
                fail('%s: %.3f MB/s %.3f ns, exported %.6f %.6f' % (p, b, l, eb, el))
            worst = max(worst, e)
        n += len(pts)
    print('mess: 51 files, %d points, within %.4f of the export' % (n, worst))


class ProfetError(Exception):
    pass


def profet_curves(d):
    """PROFET's Curves(d) on a directory; raises what it would raise."""
    js = [f for f in os.listdir(d) if f.endswith('.json')]
    if len(js) > 1:
        raise ProfetError('Only one JSON file is allowed in the curves directory')
    curves = {}
    if len(js) == 1:
        for k, curve in json.load(open(os.path.join(d, js[0]))).items():
            rr = round(int(k) / 100, 2)
            bws, lats = zip(*curve)
            pts = sorted(zip(bws, lats))
            curves[rr] = pts
        return curves, 'json'
    for f in os.listdir(d):
        if 'bwlat' in f and f.endswith('.txt'):
            pts = []
            for line in open(os.path.join(d, f)):
                t = line.split()
                if len(t) >= 2 and t[0][0] != '#':
                    pts.append((float(t[0]), float(t[1])))
            curves[round(int(f.split('_')[1].replace('.txt', '')) / 100, 2)] = sorted(pts)
    return curves, 'cycles'


def info_ghz(d):
    for line in open(os.path.join(d, 'info.txt')):
        if line.startswith('CPU_FREQ='):
            return float(line.split('=', 1)[1])
    fail('%s/info.txt: no CPU_FREQ' % d)


def profet(d, ref):
    want = shares_of(ref)
    curves, how = profet_curves(d)
    if how != 'json':
        fail('%s: read as bwlat files' % d)
    ghz = info_ghz(d)
    if sorted(curves) != sorted(round(r / 100, 2) for r in want):
        fail('%s: read shares %s' % (d, sorted(curves)))
    worst, n = 0.0, 0
    for r, exp in want.items():
        got = curves[round(r / 100, 2)]
        if len(got) != len(exp):
            fail('%s: share %d: %d points, the export has %d' % (d, r, len(got), len(exp)))
        for (b, c), (eb, el) in zip(got, exp):
            e = max(abs(b - eb) / max(eb, 1), abs(c / ghz - el) / el)
            # info.txt's CPU_FREQ has 6 decimals: that is the rounding
            # a PROFET user converting with it sees.
            if e > 0.5e-6 / ghz + 1e-12:
                fail('%s: share %d: %r MB/s %r cycles, exported %r %r ns at %r GHz' % (d, r, b, c, eb, el, ghz))
            worst = max(worst, e)
        n += len(got)
    print('profet: 51 shares, %d points at %.6f GHz, within %.1e (relative)' % (n, ghz, worst))


def not_profet(d):
    try:
        curves, how = profet_curves(d)
    except (ProfetError, ValueError) as e:
        print('profet refuses the mess folder: %s' % str(e)[:100])
        return
    fail('%s: PROFET reads it (%s, %d shares): the ns taken for cycles' % (d, how, len(curves)))


def rows(path):
    """{key: sorted [(GB/s, ns)]}, and the rounding of the file's numbers."""
    out = {}
    with open(path) as f:
        rd = csv.DictReader(f)
        run = 'bandwidth_mean' not in rd.fieldnames
        for row in rd:
            if run:
                if not row['bw_gbs'] or not row['lat_ns']:
                    continue
                key = (math.floor(float(row['read_pct']) + 0.5), int(float(row['nop'])))
                v = (float(row['bw_gbs']), float(row['lat_ns']))
            else:
                key = (math.floor(float(row['read_pct_rounded']) + 0.5), int(float(row['pause'])))
                v = (float(row['bandwidth_mean']), float(row['latency_mean']))
            out.setdefault(key, []).append(v)
    for k in out:
        out[k].sort()
    # A run's curves.csv has latency in 4 decimals; the rest in 6.
    return out, 5e-5 if run else 5e-7


def csv_rows(path, src):
    (got, tg), (want, tw) = rows(path), rows(src)
    if sorted(got) != sorted(want):
        miss = sorted(set(want) - set(got))[:3]
        more = sorted(set(got) - set(want))[:3]
        fail('%s: rows (read %%, pause) not as the source: missing %s, added %s' % (path, miss, more))
    worst, n = 0.0, 0
    for k, vs in want.items():
        if len(got[k]) != len(vs):
            fail('%s: %s: %d rows, the source has %d' % (path, k, len(got[k]), len(vs)))
        for (b, l), (eb, el) in zip(got[k], vs):
            e = max(abs(b - eb), abs(l - el))
            if e > tg + tw + 1e-12 * max(eb, el):
                fail('%s: %s: %r GB/s %r ns, the source %r %r' % (path, k, b, l, eb, el))
            worst = max(worst, e)
            n += 1
    print('csv: %d rows, within %.1e of the source' % (n, worst))


if __name__ == '__main__':
    a = sys.argv[1:]
    if a[:1] == ['bwlat'] and len(a) == 3:
        bwlat(a[1], a[2])
    elif a[:1] == ['profet'] and len(a) == 3:
        profet(a[1], a[2])
    elif a[:1] == ['not-profet'] and len(a) == 2:
        not_profet(a[1])
    elif a[:1] == ['csv'] and len(a) == 3:
        csv_rows(a[1], a[2])
    else:
        fail(__doc__)
