// Two builds of refcat, the same symbol refs, interleaved: `node bench/pair-builds.js
// <other>/bin/refcat.js [swift cpp ...]` (the other build: a checkout of another commit, built).
// For each language of bench 13 (suites/13-symbols.js, whose 50 KB files it reuses or makes), a
// line ref with this build, then the symbol ref with the other build and with this one; the extra
// time of each symbol ref over the line ref, fastest and median of RUNS (default 7). CPU=1 takes
// the CPU time of the process (user + system, from /usr/bin/time, in steps of 10 ms), which a
// machine busy with other work disturbs less than wall time.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BIN, ensureTmp, median, ROOT } from './lib.js';

// [sample in fixtures/symbols, a declaration path in it], as bench 13 reads them.
const CASES = [
  ['store.ts', 'arrow'], ['store.tsx', 'arrow'], ['store.js', 'free'], ['store.py', 'run'], ['store.swift', 'free'],
  ['store.kt', 'free'], ['Store.java', 'Store.save'], ['store.go', 'free'], ['store.rs', 'free'], ['store.c', 'name_of'],
  ['store.cpp', 'app.ident'], ['store.cs', 'App.Store.Save'], ['store.rb', 'free'],
];
const [other, ...only] = process.argv.slice(2);
if (!other || !fs.existsSync(other)) {
  console.error('usage: node bench/pair-builds.js <other build>/bin/refcat.js [language ...]');
  process.exit(2);
}
const RUNS = Number(process.env.RUNS ?? 7);
const cpu = Boolean(process.env.CPU);
const cold = Boolean(process.env.COLD);
const dir = path.join(ensureTmp(), 'symbols-50k');
fs.mkdirSync(dir, { recursive: true });

function time(bin, ref) {
  const t0 = process.hrtime.bigint();
  const argv = cpu ? ['/usr/bin/time', '-f', 'refcat-cpu %U %S', process.execPath, bin, ref, '--spec'] : [process.execPath, bin, ref, '--spec'];
  // COLD=1: a new home each run, so no declaration table is kept from an earlier one (docs/symbols.md#the-table-cache).
  // Otherwise a home of the bench's own, where this build keeps tables between runs (a user's is not touched).
  const env = { ...process.env, SDQCTL_HOME: cold ? fs.mkdtempSync(path.join(ensureTmp(), 'cold-home-')) : path.join(ensureTmp(), 'pair-home') };
  const r = spawnSync(argv[0], argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', env });
  if (cold) fs.rmSync(env.SDQCTL_HOME, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`${bin} ${ref} failed: ${r.stderr}`);
  if (!cpu) return Number(process.hrtime.bigint() - t0) / 1e6;
  const m = /refcat-cpu ([\d.]+) ([\d.]+)/.exec(r.stderr);
  return (Number(m[1]) + Number(m[2])) * 1000;
}

const load = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`load average ${load()}; ${cpu ? 'CPU' : 'wall'} time, ${RUNS} runs each${cold ? ', each with an empty table cache' : ''}; other build ${other}`);
for (const [sample, name] of CASES) {
  if (only.length > 0 && !only.some((o) => sample.toLowerCase().includes(o.toLowerCase()))) continue;
  const text = fs.readFileSync(path.join(ROOT, 'fixtures', 'symbols', sample), 'utf8');
  const copies = Math.ceil((50 * 1024) / text.length);
  const file = path.join(dir, `big-${sample}`);
  if (!fs.existsSync(file) || fs.statSync(file).size !== Buffer.byteLength(text) * copies) fs.writeFileSync(file, text.repeat(copies));
  const symbol = `@${file}#${name}~${copies * (sample === 'Store.java' ? 2 : 1)}`;
  const runs = [[BIN, `@${file}#L5`], [other, symbol], [BIN, symbol]];
  const times = runs.map(() => []);
  runs.forEach(([bin, ref]) => time(bin, ref));
  for (let i = 0; i < RUNS; i++) runs.forEach(([bin, ref], j) => times[j].push(time(bin, ref)));
  const min = times.map((t) => Math.min(...t));
  const med = times.map(median);
  const extra = (v, k) => `+${(v[k] - v[0]).toFixed(0)}`;
  console.log(`${sample.padEnd(12)} line ${min[0].toFixed(0)} ms   other ${extra(min, 1)}   this ${extra(min, 2)}   (medians: other ${extra(med, 1)}, this ${extra(med, 2)})`);
}
console.log(`load average ${load()}`);
