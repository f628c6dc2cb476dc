// `verify refs --drift` judged on a real project's history (docs/drift.md): a few hundred line refs
// written against old commits of a JavaScript project, pinned in workspace.lock.json as a team
// would, then re-pinned to a later commit. Every verdict is compared with the one the text itself
// proves, worked out here without git's help:
//   - the old lines still at the same place: unchanged;
//   - exactly one copy of the old block in the file (or in the file it was renamed to, as
//     `git diff -M --name-status` names it): moved there;
//   - no copy: changed; the file gone and not renamed: deleted;
//   - several copies and none at the old place: the text proves nothing (git's diff picks one, or
//     none: changed); moved to any copy or changed agree, and these are counted apart.
// Target: at least 98% agreement.
//
// Needs a clone of a JavaScript project with years of history:
//   REFCAT_DRIFT_REPO=/path/to/express npm run bench -- 07
// (a bare clone works; it is cloned with --shared into a temp folder, never changed).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BIN, ensureTmp } from '../lib.js';

const repo = process.env.REFCAT_DRIFT_REPO;
const REFS_PER_PAIR = Number(process.env.REFCAT_DRIFT_REFS ?? 60);
const POINTS = [0.3, 0.45, 0.6, 0.72, 0.84, 0.94, 1];

if (!repo) {
  console.log('  skipped: set REFCAT_DRIFT_REPO to a clone of a JavaScript project with years of history');
  process.exit(0);
}

const git = (cwd, ...args) => execFileSync('git', ['-c', 'core.quotepath=off', ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'b@x' };

/** Deterministic choices, so two runs judge the same refs. */
let seed = 12345;
const rand = (n) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};

const lines = (text) => text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');

/** Start lines (1-based) where `block` occurs in `all`. */
function occurrences(all, block) {
  const found = [];
  for (let i = 0; i + block.length <= all.length; i++) {
    let k = 0;
    while (k < block.length && all[i + k] === block[k]) k++;
    if (k === block.length) found.push(i + 1);
  }
  return found;
}

const history = git(repo, 'log', '--first-parent', '--format=%H %cs', 'HEAD').trim().split('\n').reverse();
const points = POINTS.map((f) => history[Math.min(history.length - 1, Math.floor(f * (history.length - 1)))].split(' '));

const root = path.join(ensureTmp(), 'drift-real');
fs.rmSync(root, { recursive: true, force: true });

let agree = 0;
let judged = 0;
let ambiguous = 0;
let totalMs = 0;
const disagreements = [];
const verdicts = {};
for (let p = 0; p + 1 < points.length; p++) {
  const [oldSha, oldDate] = points[p];
  const [newSha, newDate] = points[p + 1];
  const ws = path.join(root, `pair${p}`);
  const ext = path.join(ws, 'externals', 'project');
  fs.mkdirSync(path.join(ws, 'docs'), { recursive: true });
  git(ws, 'init', '-q', '-b', 'main');
  execFileSync('git', ['clone', '-q', '--shared', '--no-checkout', repo, ext]);
  git(ext, 'checkout', '-q', '--detach', newSha);

  // Refs into .js files of the old commit: ranges of 1-15 lines starting on a line with some code.
  const files = git(ext, 'ls-tree', '-r', '--name-only', oldSha).split('\n').filter((f) => f.endsWith('.js') && !f.includes('node_modules'));
  const refs = [];
  for (let tries = 0; refs.length < REFS_PER_PAIR && tries < REFS_PER_PAIR * 50; tries++) {
    const file = files[rand(files.length)];
    if (/[\s#%]/.test(file)) continue;
    const text = lines(git(ext, 'show', `${oldSha}:${file}`));
    const start = 1 + rand(text.length);
    const end = Math.min(text.length, start + rand(15));
    if (text[start - 1].trim().length < 10) continue;
    refs.push({ file, start, end, block: text.slice(start - 1, end) });
  }
  const lock = (ref) => JSON.stringify({ externals_dir: 'externals', repos: [{ alias: 'proj', name: 'project', ref }] }, null, 2) + '\n';
  fs.writeFileSync(path.join(ws, '.gitignore'), 'externals/\n');
  fs.writeFileSync(path.join(ws, 'workspace.lock.json'), lock(oldSha));
  fs.writeFileSync(path.join(ws, 'docs', 'notes.md'), refs.map((r) => `- proj:${r.file}#L${r.start}-L${r.end}`).join('\n') + '\n');
  git(ws, 'add', '-A');
  execFileSync('git', ['commit', '-q', '-m', 'notes'], { cwd: ws, env: gitEnv });
  fs.writeFileSync(path.join(ws, 'workspace.lock.json'), lock(newSha));
  execFileSync('git', ['commit', '-q', '-am', 'Refresh external source reference pins'], { cwd: ws, env: gitEnv });

  const t0 = performance.now();
  const run = spawnSync(process.execPath, [BIN, 'verify', 'refs', 'docs', '--drift', '--json'], { cwd: ws, encoding: 'utf8', maxBuffer: 1 << 28 });
  totalMs += performance.now() - t0;
  let report;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    console.log(`  pair ${p}: no JSON (exit ${run.status}): ${run.stderr.split('\n')[0]}`);
    process.exitCode = 1;
    continue;
  }
  const byLine = new Map(report.drift.refs.map((r) => [r.line, r]));

  const renamed = new Map();
  for (const row of git(ext, 'diff', '-M', '--name-status', oldSha, newSha).split('\n')) {
    const [kind, from, to] = row.split('\t');
    if (kind?.startsWith('R')) renamed.set(from, to);
  }
  refs.forEach((r, i) => {
    const got = byLine.get(i + 1);
    const file = fs.existsSync(path.join(ext, r.file)) ? r.file : renamed.get(r.file);
    const copies = file ? occurrences(lines(fs.readFileSync(path.join(ext, file), 'utf8')), r.block).map((at) => ({ f: file, at })) : [];
    // A moved ref keeps its spelling: these are all written `#La-Lb`.
    const refAt = (c) => `proj:${c.f}#L${c.at}-L${c.at + r.end - r.start}`;
    let ok;
    if (!file) ok = got?.status === 'deleted';
    else if (file === r.file && copies.some((c) => c.at === r.start)) ok = got?.status === 'unchanged';
    else if (copies.length === 1) ok = got?.status === 'moved' && got.new_ref === refAt(copies[0]);
    else if (copies.length === 0) ok = got?.status === 'changed';
    else {
      ambiguous++;
      ok = got?.status === 'changed' || (got?.status === 'moved' && copies.some((c) => refAt(c) === got.new_ref));
    }
    const gone = file !== r.file;
    verdicts[got?.status ?? 'missing'] = (verdicts[got?.status ?? 'missing'] ?? 0) + 1;
    judged++;
    if (ok) agree++;
    else disagreements.push(`${oldDate}..${newDate} ${got?.ref ?? `proj:${r.file}#L${r.start}-L${r.end}`}: refcat ${got?.status} ${got?.new_ref ?? ''} (${copies.length} copies${gone ? (file ? `, renamed to ${file}` : ', file gone') : ''})`);
  });
  console.log(`  ${oldDate} → ${newDate}: ${refs.length} refs`);
}

const pct = (100 * agree) / Math.max(1, judged);
console.log(`  verdicts: ${Object.entries(verdicts).map(([k, v]) => `${v} ${k}`).join(', ')}`);
console.log(`  agreement with the text-proven verdict: ${agree}/${judged} = ${pct.toFixed(1)}% (target >= 98%); ${ambiguous} with several copies`);
console.log(`  verify refs --drift: ${(totalMs / 1000).toFixed(1)} s for ${POINTS.length - 1} workspaces`);
for (const d of disagreements.slice(0, 15)) console.log(`    differs: ${d}`);
fs.rmSync(root, { recursive: true, force: true });
