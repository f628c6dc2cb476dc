// Refs at a version (docs/refs.md#refs-at-a-version): a read at a lockfile pin against a read of
// the same file on disk (--worktree), timed interleaved in the same run, and 200 pinned refs into
// one repository against the same 200 refs read from disk. A pinned read starts git (its config
// read and one cat-file --batch), so it costs a fixed few milliseconds, not one process per ref.
// Target: 200 pinned refs within 2x of 200 disk reads; the git processes a run starts, counted.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { compareStats, ensureTmp, fmt, refcatCmd } from '../lib.js';

const ws = path.join(ensureTmp(), 'versions');
const ext = path.join(ws, 'externals', 'ext');
const git = (...args) => {
  const r = spawnSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], { cwd: ext, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};
const FILES = 200;
const lines = (tag, n) => Array.from({ length: n }, (_, i) => `${tag} line ${i + 1}: const value${i} = compute(${i});`).join('\n') + '\n';

fs.rmSync(ws, { recursive: true, force: true });
fs.mkdirSync(ext, { recursive: true });
git('init', '-q');
for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(ext, `f${i}.ts`), lines(`pinned ${i}`, 200));
git('add', '-A');
git('commit', '-qm', 'pinned');
const pin = git('rev-parse', 'HEAD');
for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(ext, `f${i}.ts`), lines(`moved ${i}`, 210));
git('add', '-A');
git('commit', '-qm', 'moved on');
fs.writeFileSync(path.join(ws, 'workspace.lock.json'), JSON.stringify({ repos: [{ alias: 'ext', name: 'ext', ref: pin }] }));

// The git processes of one run, counted by a shim first on PATH.
const bin = path.join(ws, 'bin');
fs.mkdirSync(bin);
const real = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho x >> "${path.join(bin, 'log')}"\nexec "${real}" "$@"\n`, { mode: 0o755 });
const refs = Array.from({ length: FILES }, (_, i) => `ext:f${i}.ts#L10-L40`);
spawnSync(process.execPath, refcatCmd(...refs).slice(1), { cwd: ws, env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, stdio: 'ignore' });
const processes = fs.readFileSync(path.join(bin, 'log'), 'utf8').trim().split('\n').length;

const opts = { cwd: ws };
console.log(`load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
const stats = (s) => `min ${fmt(s.min)}, median ${fmt(s.median)}`;
const [one, oneDisk] = compareStats([refcatCmd('ext:f7.ts'), refcatCmd('--worktree', 'ext:f7.ts')], 11, opts);
console.log(`one file at the pin (cat-file):   ${stats(one)}`);
console.log(`the same file on disk (--worktree): ${stats(oneDisk)}`);
console.log(`ratio: ${(one.median / oneDisk.median).toFixed(2)}x median`);
const [many, manyDisk] = compareStats([refcatCmd(...refs), refcatCmd('--worktree', ...refs)], 7, opts);
console.log(`${FILES} pinned refs into one repository: ${stats(many)} (${processes} git processes)`);
console.log(`the same ${FILES} refs on disk (--worktree): ${stats(manyDisk)}`);
console.log(`ratio: ${(many.median / manyDisk.median).toFixed(2)}x median (target <= 2x)`);
