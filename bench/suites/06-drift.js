// `verify refs --drift` cost (docs/reference.md#drift-verdicts): git runs a bounded number of times.
//   1. 300 line refs in two docs of one repository, against `node -e 0` (target: <= 6x);
//   2. 10,000 line refs in 1,000 docs, into 3 repositories (a workspace and two pinned externals,
//      re-pinned since the docs were written), in one call (target: < 10 s), with the number of
//      git processes it started;
//   3. the same after every doc was edited once more (no doc is one commit's), against the way it
//      ran before in the same run (one blame per doc, one git process at a time: bench/drift-run.js
//      --blame-each 1), as the machine is and beside two busy processes (target: at most half the
//      time).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compare, compareStats, ensureTmp, fmt, refcatCmd, ROOT, timeOnce } from '../lib.js';

const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
}; // prettier-ignore
const git = (cwd, ...args) => execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, env, encoding: 'utf8' });
const source = (name, n, lines) => {
  let text = '';
  for (let l = 1; l <= lines; l++) text += l % 25 === 1 ? `function ${name}_${n}_${l}(input) {\n` : `  const v${l} = step(${n}, ${l}); // ${name}\n`;
  return text;
};
const write = (file, text) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};
/** A repository of `count` 200-line sources, committed, then edited (lines inserted at the top) and committed. */
function repo(dir, name, count) {
  fs.mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  for (let n = 0; n < count; n++) write(path.join(dir, 'src', `${name}${n}.js`), source(name, n, 200));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'sources');
  return git(dir, 'rev-parse', 'HEAD').trim();
}
function edit(dir, name, count) {
  for (let n = 0; n < count; n++) write(path.join(dir, 'src', `${name}${n}.js`), `// header ${n}\n'use strict';\n` + source(name, n, 200));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'edit');
  return git(dir, 'rev-parse', 'HEAD').trim();
}
const refLine = (prefix, name, n, k) => {
  const start = 1 + ((k * 37) % 180);
  return `- ${prefix}src/${name}${n}.js#L${start}-L${start + (k % 12)}\n`;
};

// 1. Small: 300 refs in two docs.
const small = path.join(ensureTmp(), 'drift-small');
if (!fs.existsSync(path.join(small, '.done'))) {
  fs.rmSync(small, { recursive: true, force: true });
  repo(small, 'm', 20);
  for (const d of [0, 1]) {
    let doc = '# Notes\n';
    for (let k = 0; k < 150; k++) doc += refLine('@', 'm', (k + d * 7) % 20, k + d * 150);
    write(path.join(small, 'docs', `notes${d}.md`), doc);
  }
  git(small, 'add', '-A');
  git(small, 'commit', '-qm', 'docs');
  edit(small, 'm', 20);
  write(path.join(small, '.done'), '');
}
const smallCmd = refcatCmd('verify', 'refs', '--drift', 'docs');
timeOnce(smallCmd, { cwd: small });
const [drift, node] = compare([smallCmd, [process.execPath, '-e', '0']], 11, { cwd: small });
console.log(`verify refs --drift, 300 refs in 2 docs  ${fmt(drift)}   node -e 0 ${fmt(node)}   ratio ${(drift / node).toFixed(1)}x (target: <= 6x)`);

// 2. Large: 10,000 refs in 1,000 docs into 3 repositories.
const big = path.join(ensureTmp(), 'drift-large');
const DOCS = 1000;
if (!fs.existsSync(path.join(big, '.done'))) {
  fs.rmSync(big, { recursive: true, force: true });
  repo(big, 'w', 50);
  const pins = {};
  for (const ext of ['alpha', 'beta']) pins[ext] = repo(path.join(big, 'externals', ext), ext, 50);
  const lock = (p) => JSON.stringify({ repos: ['alpha', 'beta'].map((a) => ({ alias: a, name: a, ref: p[a] })) }, null, 2) + '\n';
  write(path.join(big, '.gitignore'), 'externals/\n');
  write(path.join(big, 'workspace.lock.json'), lock(pins));
  for (let d = 0; d < DOCS; d++) {
    let doc = `# Doc ${d}\n`;
    for (let k = 0; k < 10; k++) {
      const which = ['w', 'alpha', 'beta'][(d + k) % 3];
      doc += refLine(which === 'w' ? '@../' : `${which}:`, which, (d * 10 + k) % 50, d * 10 + k);
    }
    write(path.join(big, 'docs', `doc${String(d).padStart(4, '0')}.md`), doc);
  }
  git(big, 'add', '-A');
  git(big, 'commit', '-qm', 'docs');
  edit(big, 'w', 50);
  for (const ext of ['alpha', 'beta']) pins[ext] = edit(path.join(big, 'externals', ext), ext, 50);
  write(path.join(big, 'workspace.lock.json'), lock(pins));
  git(big, 'commit', '-qam', 're-pin');
  write(path.join(big, '.done'), '');
}
const { verifyRefs } = await import(path.join(ROOT, 'dist', 'index.js'));
async function large(dir, label) {
  const t = timeOnce(refcatCmd('verify', 'refs', '--drift', 'docs'), { cwd: dir });
  const report = await verifyRefs(['docs'], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir }, home: dir }, { drift: {} });
  const c = report.drift.counts;
  console.log(
    `verify refs --drift, ${report.refsFound} refs in ${report.filesScanned} docs, 3 repositories, ${label}  ${fmt(t)} (target: < 10 s)   ` +
      `${report.drift.gitProcesses} git processes; ${c.moved} moved, ${c.unchanged} unchanged, ${c.changed} changed`,
  );
}
await large(big, 'docs written once');

// 3. The same, each doc edited once after its refs were written.
const edited = path.join(ensureTmp(), 'drift-large-edited');
if (!fs.existsSync(path.join(edited, '.done'))) {
  fs.rmSync(edited, { recursive: true, force: true });
  fs.cpSync(big, edited, { recursive: true });
  for (let d = 0; d < DOCS; d++) fs.appendFileSync(path.join(edited, 'docs', `doc${String(d).padStart(4, '0')}.md`), '\nReviewed.\n');
  git(edited, 'commit', '-qam', 'review the docs');
  write(path.join(edited, '.done'), '');
}
await large(edited, 'docs edited since');

// Against the way it ran before, in this run: the same check through the library (bench/drift-run.js),
// once as the CLI runs it and once with one blame per doc, one git process at a time. Whole
// processes, interleaved; then the same beside two busy processes (`node -e 'for(;;);'`).
const runner = path.join(ROOT, 'bench', 'drift-run.js');
const now = [process.execPath, runner, edited];
const before = [process.execPath, runner, edited, '--blame-each', '1'];
const said = (argv) => JSON.parse(spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', maxBuffer: 1 << 26 }).stdout);
const [a, b] = [said(now), said(before)];
if (JSON.stringify(a.counts) !== JSON.stringify(b.counts)) throw new Error(`the verdicts differ: ${JSON.stringify(a.counts)} vs ${JSON.stringify(b.counts)}`);
const RUNS = Number(process.env.REFCAT_BENCH_DRIFT_RUNS ?? 3);
function versus(label) {
  const [n, o] = compareStats([now, before], RUNS);
  console.log(
    `  ${label} (load average ${os.loadavg()[0].toFixed(1)}): now ${fmt(n.median)} (${a.gitProcesses} git processes)   before ${fmt(o.median)} (${b.gitProcesses})   ` +
      `ratio ${(n.median / o.median).toFixed(2)}x (min ${(n.min / o.min).toFixed(2)}x; target: <= 0.5x)   medians of ${RUNS}`,
  );
}
console.log(`docs edited since, now vs one blame per doc one at a time (same verdicts: ${JSON.stringify(a.counts)})`);
versus('as the machine is');
const busy = [0, 1].map(() => spawn(process.execPath, ['-e', 'for(;;);'], { stdio: 'ignore' }));
try {
  versus('two busy processes');
} finally {
  for (const p of busy) p.kill();
}
