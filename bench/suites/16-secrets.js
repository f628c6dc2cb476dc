// The secret check (docs/refs.md#secrets) against `--secrets=allow`, timed interleaved in the
// same run:
// 1. the glob bench's realistic tree (10,000 TypeScript files, no secrets): markdown of
//    '**/*.ts' to a file; byte-identical output; target at most 1.15x;
// 2. this repository's text files (sources, tests, docs): target at most 1.5x;
// 3. a fetched public repository (pallets/click, a git dir under /work/.mirror, or the one
//    REFCAT_BENCH_MIRROR names), checked out into a temporary folder: target at most 1.5x;
//    skipped with a note when there is none.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BIN, compareStats, ensureTmp, fmt, ROOT } from '../lib.js';
import { makeRealTree } from '../real-tree.js';

const tmp = ensureTmp();
const quote = (s) => `'${s.replaceAll("'", "'\\''")}'`;
const load = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const refcat = `${quote(process.execPath)} ${quote(BIN)}`;
const out = path.join(tmp, 'secrets-out');
fs.mkdirSync(out, { recursive: true });

function pair(name, cwd, glob, target, runs) {
  const a = path.join(out, `${name}-redact.md`);
  const b = path.join(out, `${name}-allow.md`);
  const checked = ['bash', '-c', `${refcat} ${quote(glob)} > ${quote(a)}`];
  const allowed = ['bash', '-c', `${refcat} ${quote(glob)} --secrets=allow > ${quote(b)}`];
  console.log(`load average ${load()}`);
  const [s, t] = compareStats([checked, allowed], runs, { cwd });
  const same = spawnSync('cmp', ['-s', a, b]).status === 0;
  const bytes = fs.statSync(a).size;
  console.log(`${name}: ${glob} (${(bytes / 1e6).toFixed(1)} MB of markdown)`);
  console.log(`  checked: min ${fmt(s.min)}, median ${fmt(s.median)}; --secrets=allow: min ${fmt(t.min)}, median ${fmt(t.median)}`);
  console.log(`  ratio ${(s.median / t.median).toFixed(2)}x median, ${(s.min / t.min).toFixed(2)}x min (target at most ${target}x); output ${same ? 'byte-identical' : 'DIFFERS'}`);
  console.log(`load average ${load()}`);
}

process.stdout.write('preparing the realistic tree (once) ... ');
const tree = makeRealTree();
console.log('done');
pair('real-tree', tree, '**/*.ts', 1.15, 9);
pair('this-repository', ROOT, '**/*.{ts,md,js,json,yml,yaml,mjs,scm}', 1.5, 9);

const mirror = process.env.REFCAT_BENCH_MIRROR ?? '/work/.mirror/pallets+click/repo';
if (fs.existsSync(mirror)) {
  const checkout = path.join(tmp, 'secrets-mirror');
  fs.rmSync(checkout, { recursive: true, force: true });
  fs.mkdirSync(checkout, { recursive: true });
  const archive = spawnSync('bash', ['-c', `git --git-dir=${quote(mirror)} archive HEAD | tar -x -C ${quote(checkout)}`], { stdio: 'inherit' });
  if (archive.status === 0) pair('fetched-repository', checkout, '**/*.{py,rst,md,toml,txt,yml,yaml,cfg,json}', 1.5, 9);
  else console.log(`fetched-repository: skipped (could not check out ${mirror})`);
} else {
  console.log(`fetched-repository: skipped (no mirror at ${mirror}; set REFCAT_BENCH_MIRROR to a git dir)`);
}
