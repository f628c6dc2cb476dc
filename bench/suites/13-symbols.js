// A symbol ref into a ~50 KB file against a line ref of the same file, per language, in the same
// run (target: at most the line ref + 200 ms). The files repeat fixtures/symbols/<sample> until
// they pass 50 KB; the symbol ref names the last copy of a declaration (`~N`), so the whole file
// is parsed and searched. Minimums are compared, medians printed beside them. Each symbol ref twice:
// cold, with no table kept between runs (REFCAT_SYMBOL_CACHE=0: tree-sitter loads, parses and
// matches), and warm, its table kept by an earlier run (docs/symbols.md#the-table-cache), in a
// home of the bench's own so that a user's cache is not touched.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN, compareStats, ensureTmp, fmt } from '../lib.js';

const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const samples = path.join(repo, 'fixtures', 'symbols');
const dir = path.join(ensureTmp(), 'symbols-50k');
fs.mkdirSync(dir, { recursive: true });
const home = path.join(ensureTmp(), 'symbols-home');
// The same wrapper for each command, so that none pays for it alone.
const run = (cache, ...args) => ['/usr/bin/env', `SDQCTL_HOME=${home}`, `REFCAT_SYMBOL_CACHE=${cache}`, process.execPath, BIN, ...args];

// [sample file, a declaration path in it]
const CASES = [
  ['store.ts', 'arrow'],
  ['store.tsx', 'arrow'],
  ['store.js', 'free'],
  ['store.py', 'run'],
  ['store.swift', 'free'],
  ['store.kt', 'free'],
  ['Store.java', 'Store.save'],
  ['store.go', 'free'],
  ['store.rs', 'free'],
  ['store.c', 'name_of'],
  ['store.cpp', 'app.ident'],
  ['store.cs', 'App.Store.Save'],
  ['store.rb', 'free'],
];
const RUNS = 5;
let overCold = 0;
let overWarm = 0;
for (const [sample, name] of CASES) {
  const text = fs.readFileSync(path.join(samples, sample), 'utf8');
  const copies = Math.ceil((50 * 1024) / text.length);
  const file = path.join(dir, `big-${sample}`);
  fs.writeFileSync(file, text.repeat(copies));
  // Each copy of the sample declares `name` once (Java's twice: an overload).
  const per = sample === 'Store.java' ? 2 : 1;
  const rel = path.relative(process.cwd(), file);
  const symbolRef = `@${rel}#${name}~${copies * per}`;
  const [line, cold, warm] = compareStats([run('1', `@${rel}#L5`, '--spec'), run('0', symbolRef, '--spec'), run('1', symbolRef, '--spec')], RUNS);
  // Fastest runs against fastest runs: on a shared machine the minimum is the least disturbed.
  const extraCold = cold.min - line.min;
  const extraWarm = warm.min - line.min;
  if (extraCold > 200) overCold++;
  if (extraWarm > 200) overWarm++;
  console.log(
    `${sample.padEnd(12)} ${String(fs.statSync(file).size).padStart(6)} B   line ${fmt(line.min)} (median ${fmt(line.median)})   cold +${extraCold.toFixed(0)} ms (median +${(cold.median - line.median).toFixed(0)})   kept +${extraWarm.toFixed(0)} ms (median +${(warm.median - line.median).toFixed(0)})   (target <= +200 ms)`,
  );
}
const verdict = (n) => (n === 0 ? 'every language within +200 ms' : `${n} language(s) over +200 ms`);
console.log(`cold: ${verdict(overCold)}; table kept: ${verdict(overWarm)}`);
