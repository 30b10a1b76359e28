#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The GPU kernels checked without a GPU (make check-ptx; issue 45).

Against the PTX text in kernels/ptx/: every file's .version, .target and
.address_size; every entry the host looks up (kernels/include/mess_ptx.h)
exists with the parameter types it declares, and the host's argument
arrays (harness/curves/gpu/run.c) pass exactly those types in that order;
the generator's declared bytes per iteration equal the widths of the
ld/st in its loop body times its trip count, its store rule gives the CPU
generators' Bresenham order for every mix; the chase loads what it
declares; embed.S embeds every file.  usage: gpu-ptx.py [ROOT]
"""
import re
import sys

WIDTH = {'u8': 1, 'b8': 1, 's8': 1, 'u16': 2, 'b16': 2, 's16': 2,
         'u32': 4, 'b32': 4, 's32': 4, 'f32': 4,
         'u64': 8, 'b64': 8, 's64': 8, 'f64': 8}
fails = []


def check(ok, what):
    if not ok:
        fails.append(what)
    return ok


def read(root, path):
    with open(f'{root}/{path}') as f:
        return f.read()


def defines(text):
    d = {}
    for m in re.finditer(r'^#define\s+(MESS_\w+)\s+(.+?)\s*(?:/\*.*)?$', text, re.M):
        v = m.group(2).strip()
        if v.startswith('"'):
            d[m.group(1)] = v.strip('"')
        elif re.fullmatch(r'\d+', v):
            d[m.group(1)] = int(v)
    return d


def entries(ptx):
    """{name: [param types]} of every .entry."""
    out = {}
    for m in re.finditer(r'\.entry\s+(\w+)\s*\((.*?)\)', ptx, re.S):
        out[m.group(1)] = re.findall(r'\.param\s+\.(\w+)\s+\w+', m.group(2))
    return out


def width(insn):
    """Bytes one ld/st moves: vector count x element width."""
    parts = insn.split('.')
    n = 1
    for p in parts:
        if re.fullmatch(r'v[248]', p):
            n = int(p[1:])
    return n * WIDTH[parts[-1]]


def body(ptx, start, end):
    m = re.search(re.escape(start) + r'(.*?)' + re.escape(end), ptx, re.S)
    return m.group(1) if m else None


def memops(text, kind):
    # predicated or not: "@%p st.global..." counts as the instruction
    return [m.group(1) for m in re.finditer(
        r'^\s*(?:@!?%\w+\s+)?(' + kind + r'\.global[\w.]*)\s', text, re.M)]


def host_args(src, kernel_var):
    """Types of the argument array passed with LaunchKernel(g->kernel_var)."""
    for fn in re.finditer(r'\n(?:static )?\w[\w ]*\*?\s*\w+\([^)]*\)\n\{(.*?)\n\}', src, re.S):
        f = fn.group(1)
        if not re.search(r'LaunchKernel\(g->' + kernel_var + r'\b', f):
            continue
        m = re.search(r'void \*args\[\] = \{([^}]*)\}', f)
        if not m:
            return None
        types = []
        for var in re.findall(r'&(\w+)', m.group(1)):
            decl = re.search(r'\b(CUdeviceptr|uint64_t|uint32_t)\b[^;]*?\b' + var + r'\b', f)
            if not decl:
                # a parameter of the function
                decl = re.search(r'\b(CUdeviceptr|uint64_t|uint32_t)\s+' + var + r'\b', src)
            types.append({'CUdeviceptr': 'u64', 'uint64_t': 'u64',
                          'uint32_t': 'u32'}[decl.group(1)] if decl else '?')
        return types
    return None


def bresenham(s, ops, rule_acc):
    """Stores of one iteration by the kernel's accumulator rule, against
    mess_gen_table.h's floor((i+1)s/ops) > floor(is/ops)."""
    acc, mine, cpu = 0, [], []
    for i in range(ops):
        acc += s
        st = acc >= rule_acc
        if st:
            acc -= rule_acc
        mine.append(st)
        cpu.append((i + 1) * s // ops > i * s // ops)
    return mine, cpu


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else '.'
    hdr = read(root, 'kernels/include/mess_ptx.h')
    d = defines(hdr)
    kd = defines(read(root, 'kernels/include/mess_kernels.h'))
    embed = read(root, 'kernels/ptx/embed.S')
    run_c = read(root, 'harness/curves/gpu/run.c')
    gpu_c = read(root, 'harness/curves/gpu/gpu.c')
    files = {'chase': read(root, 'kernels/ptx/chase.ptx'),
             'gen': read(root, 'kernels/ptx/gen.ptx')}
    allent = {}
    for name, ptx in files.items():
        v = re.search(r'^\.version\s+(\d+)\.(\d+)\s*$', ptx, re.M)
        check(v and (int(v.group(1)), int(v.group(2))) >= (7, 0) and
              (int(v.group(1)), int(v.group(2))) <= (7, 8),
              f'{name}.ptx: .version 7.0..7.8 (sm_80 and drivers since CUDA 11.0 JIT it)')
        check(re.search(r'^\.target\s+sm_80\s*$', ptx, re.M), f'{name}.ptx: .target sm_80')
        check(re.search(r'^\.address_size\s+64\s*$', ptx, re.M), f'{name}.ptx: .address_size 64')
        check(f'.incbin\t"kernels/ptx/{name}.ptx"' in embed and
              f'mess_ptx_{name}[]' in hdr, f'{name}.ptx embedded (embed.S) and declared (mess_ptx.h)')
        allent.update(entries(ptx))
    # Every entry the host looks up, with the parameters it passes.
    for key, pkey, var in (('MESS_PTX_CHASE', 'MESS_PTX_CHASE_PARAMS', 'chase'),
                           ('MESS_PTX_CHASE_CLK', 'MESS_PTX_CHASE_PARAMS', 'chase'),
                           ('MESS_PTX_GEN', 'MESS_PTX_GEN_PARAMS', 'gen')):
        name, want = d.get(key), d.get(pkey, '').split()
        if not check(name in allent, f'{key} "{name}": an .entry of kernels/ptx/'):
            continue
        check(allent[name] == want, f'{name}: parameters {allent[name]}, declared {want}')
        check(key in gpu_c or key in run_c, f'{key}: looked up by the host')
        got = host_args(run_c, var)
        check(got == want, f'{name}: the host passes {got}, the kernel takes {want}')
    # The chase: one load of the declared width in its loop.
    for lbl, end in (('$C_loop:', '$C_end:'), ('$K_loop:', '$K_end:')):
        b = body(files['chase'], lbl, end)
        lds = memops(b or '', 'ld')
        check(len(lds) == 1 and lds[0].startswith('ld.global.cg') and
              width(lds[0]) == d.get('MESS_PTX_CHASE_LOAD_BYTES'),
              f'chase loop {lbl} one ld.global.cg of MESS_PTX_CHASE_LOAD_BYTES: {lds}')
    # The generator: the loop body's slots (a predicated load or store
    # each), their widths, the pass and the trip count.
    gen = files['gen']
    b = body(gen, '// loop body', '// end of loop body')
    if check(b is not None, 'gen.ptx: "// loop body" ... "// end of loop body"'):
        lds, sts = memops(b, 'ld'), memops(b, 'st')
        ops = d.get('MESS_PTX_GEN_OPS')
        slots = len(lds)
        check(ops == kd.get('MESS_GEN_OPS'), f'MESS_PTX_GEN_OPS {ops} = MESS_GEN_OPS {kd.get("MESS_GEN_OPS")}')
        check(slots > 0 and len(sts) == slots, f'generator: a load and a store in every slot: {lds} {sts}')
        check(all(width(x) == d.get('MESS_PTX_GEN_LD_BYTES') for x in lds),
              f'generator: every load of MESS_PTX_GEN_LD_BYTES {d.get("MESS_PTX_GEN_LD_BYTES")} B: {lds}')
        check(all(width(x) == d.get('MESS_PTX_GEN_ST_BYTES') for x in sts),
              f'generator: every store of MESS_PTX_GEN_ST_BYTES {d.get("MESS_PTX_GEN_ST_BYTES")} B: {sts}')
        check(len(re.findall(r'^\s*@%pst st\.global', b, re.M)) == slots and
              len(re.findall(r'^\s*@!%pst ld\.global', b, re.M)) == slots,
              'generator: each slot stores under %pst and loads under !%pst')
        inc = re.findall(r'add\.u32\s+%op,\s*%op,\s*(\d+);', b)
        check(inc == [str(slots)], f'generator: a pass counts its {slots} slots: {inc}')
        check(slots == d.get('MESS_PTX_GEN_SPIN_EVERY') and
              len(re.findall(r'mov\.u32\s+%k,\s*%spin;', b)) == 1,
              f'generator: one spin a pass of MESS_PTX_GEN_SPIN_EVERY ({d.get("MESS_PTX_GEN_SPIN_EVERY")}) slots')
        trip = re.search(r'setp\.lt\.u32\s+%\w+,\s*%op,\s*(\d+);\s*\n\s*@%\w+ bra\s+\$G_op;', b)
        check(trip and int(trip.group(1)) == ops and ops % max(slots, 1) == 0,
              f'generator: the loop runs MESS_PTX_GEN_OPS ({ops}) operations')
        rule = set(re.findall(r'setp\.ge\.u32\s+%pst,\s*%acc,\s*(\d+);', b))
        sub = set(re.findall(r'@%pst sub\.u32\s+%acc,\s*%acc,\s*(\d+);', b))
        acc = re.findall(r'add\.u32\s+%acc,\s*%acc,\s*%s;', b)
        if check(len(rule) == 1 and rule == sub and len(acc) == slots,
                 'generator: every slot\'s store rule acc += s; store iff acc >= K; acc -= K'):
            K = int(rule.pop())
            for s in range(0, ops + 1, kd.get('MESS_GEN_MIX_STEP', 2)):
                mine, cpu = bresenham(s, ops, K)
                check(mine == cpu, f'generator: s={s}: the store order is not the CPU generators\'')
                check(sum(mine) * d.get('MESS_PTX_GEN_ST_BYTES', 0) ==
                      s * d.get('MESS_PTX_GEN_ST_BYTES', 0) and
                      (ops - sum(mine)) * d.get('MESS_PTX_GEN_LD_BYTES', 0) ==
                      (ops - s) * d.get('MESS_PTX_GEN_LD_BYTES', 0),
                      f'generator: s={s}: bytes per iteration differ from MESS_PTX_GEN_RD/WR_BYTES')
    for f in fails:
        print(f'gpu-ptx: FAIL: {f}')
    if fails:
        return 1
    print(f'gpu-ptx: ok ({len(allent)} entries, {len(files)} files, '
          f'{d.get("MESS_PTX_GEN_OPS")} operations x {d.get("MESS_PTX_GEN_LD_BYTES")}/{d.get("MESS_PTX_GEN_ST_BYTES")} B per generator iteration)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
