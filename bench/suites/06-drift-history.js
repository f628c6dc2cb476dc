// Real-history check for `verify refs --drift` (docs/reference.md#drift-verdicts): a few hundred line
// refs written against an old commit of a real JavaScript project, judged by refcat against today's
// working tree, and compared with the verdict the text itself proves:
//   - the old block occurs exactly once in the current file (or the file git says it was renamed to)
//     => moved there (or unchanged, when at the same lines of the same path);
//   - no copy => changed, or deleted when the file is gone;
//   - several copies => refcat may pick one of them (git's mapping) or say changed: counted apart.
// Target: at least 98% agreement. Point BENCH_HISTORY_REPO at a clone with full history
// (e.g. expressjs/express); BENCH_HISTORY_SINCE picks the old commit (default: 5 years back).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureTmp, ROOT } from '../lib.js';

const source = process.env.BENCH_HISTORY_REPO;
const REFS = Number(process.env.BENCH_HISTORY_REFS ?? 400);
if (!source) {
  console.log('skipped: set BENCH_HISTORY_REPO to a git repository of a JavaScript project with years of history');
  process.exit(0);
}
const { detectDrift, parseRef } = await import(path.join(ROOT, 'dist', 'index.js'));

const work = path.join(ensureTmp(), 'drift-history');
const git = (cwd, ...args) => execFileSync('git', ['-c', 'core.quotepath=off', ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
if (!fs.existsSync(path.join(work, '.git'))) {
  fs.rmSync(work, { recursive: true, force: true });
  git(ROOT, 'clone', '-q', source, work);
}
const since = process.env.BENCH_HISTORY_SINCE ?? git(work, 'rev-list', '-1', `--before=${new Date(Date.now() - 5 * 365 * 86_400_000).toISOString()}`, 'HEAD').trim();
const years = ((Number(git(work, 'log', '-1', '--format=%ct', 'HEAD').trim()) - Number(git(work, 'log', '-1', '--format=%ct', since).trim())) / (365.25 * 86400)).toFixed(1);

// Deterministic choice of refs: JS files at the old commit, blocks of 2-8 lines.
let seed = 42;
const rand = (n) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
const files = git(work, 'ls-tree', '-r', '--name-only', since).split('\n').filter((f) => /\.js$/.test(f) && !f.includes('node_modules'));
const linesOf = (text) => {
  const l = text.split('\n');
  if (l[l.length - 1] === '') l.pop();
  return l.map((x) => (x.endsWith('\r') ? x.slice(0, -1) : x));
};
const oldText = new Map(files.map((f) => [f, linesOf(git(work, 'show', `${since}:${f}`))]));
const usable = files.filter((f) => oldText.get(f).length >= 10);
const refs = [];
while (refs.length < REFS) {
  const f = usable[rand(usable.length)];
  const n = oldText.get(f).length;
  const len = 2 + rand(7);
  const start = 1 + rand(n - len);
  const block = oldText.get(f).slice(start - 1, start - 1 + len);
  if (block.every((l) => l.trim() === '' || /^[\s{}();,\]\[]*$/.test(l))) continue; // only braces: not code a doc would cite
  refs.push({ file: f, start, end: start + len - 1, block });
}

const doc = path.join(work, 'drift-history-refs.md');
const inputs = refs.map((r, i) => {
  const text = `@${r.file}#L${r.start}-L${r.end}`;
  return { file: doc, line: i + 1, ref: text, spec: parseRef(text), alias: null, searchDirs: [work] };
});
const ctx = { cwd: work, env: { PATH: process.env.PATH, HOME: work }, home: work };
const t0 = Date.now();
const report = detectDrift(inputs, ctx, { since });
const ms = Date.now() - t0;

// The text-proven verdict, computed without refcat: renames from git's name-status, the rest by text.
const renames = new Map();
const deleted = new Set();
for (const line of git(work, 'diff', '--no-color', '-M', '--name-status', since, '--').split('\n')) {
  const parts = line.split('\t');
  if (parts[0]?.startsWith('R')) renames.set(parts[1], parts[2]);
  if (parts[0] === 'D') deleted.add(parts[1]);
}
const current = new Map();
const currentLines = (f) => {
  if (!current.has(f)) current.set(f, fs.existsSync(path.join(work, f)) ? linesOf(fs.readFileSync(path.join(work, f), 'utf8')) : null);
  return current.get(f);
};
let agree = 0;
let ambiguous = 0;
const disagreements = [];
const tally = {};
refs.forEach((r, i) => {
  const got = report.entries[i];
  tally[got.status] = (tally[got.status] ?? 0) + 1;
  const now = renames.get(r.file) ?? r.file;
  const lines = deleted.has(r.file) ? null : currentLines(now);
  let proven;
  let where = [];
  if (!lines) proven = 'deleted';
  else {
    for (let k = 0; k + r.block.length <= lines.length; k++) if (r.block.every((l, j) => lines[k + j] === l)) where.push(k + 1);
    if (where.length === 0) proven = 'changed';
    else if (where.length > 1) proven = 'ambiguous';
    else proven = now === r.file && where[0] === r.start ? 'unchanged' : 'moved';
  }
  const gotStart = got.newRef ? Number(/#L(\d+)/.exec(got.newRef)[1]) : r.start;
  const gotPath = got.newRef ? got.newRef.slice(1, got.newRef.indexOf('#')) : r.file;
  let ok;
  if (proven === 'ambiguous') {
    ambiguous++;
    ok = got.status === 'changed' || ((got.status === 'moved' || got.status === 'unchanged') && gotPath === now && where.includes(gotStart));
  } else if (proven === 'moved') ok = got.status === 'moved' && gotPath === now && gotStart === where[0];
  else ok = got.status === proven;
  if (ok) agree++;
  else disagreements.push(`${got.ref}: refcat ${got.status}${got.newRef ? ` ${got.newRef}` : ''}, text proves ${proven}${where.length ? ` at ${where.join(',')}` : ''}`);
});

const pct = (100 * agree) / refs.length;
console.log(`history: ${path.basename(source.replace(/\/repo$/, ''))}, ${refs.length} refs written at ${since.slice(0, 10)} (${years} years before HEAD), ${files.length} JS files then`);
console.log(`refcat verdicts: ${Object.entries(tally).map(([k, v]) => `${v} ${k}`).join(', ')} in ${ms} ms, ${report.gitProcesses} git processes`);
console.log(`agreement with the text-proven verdict: ${agree}/${refs.length} = ${pct.toFixed(1)}% (target: >= 98%); ${ambiguous} refs whose block has several copies`);
for (const d of disagreements.slice(0, 10)) console.log(`  differs: ${d}`);
process.exitCode = pct >= 98 ? 0 : 1;
