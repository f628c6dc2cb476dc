// Work that must not grow with the number of refs (docs/snippets.md#cost, docs/reference.md#globs,
// docs/reference.md#limits-and-hostile-input), each against the same command with one ref, or with
// refs that need no extra work, in the same run:
// - 200 stale citations of a 14.5 MB file vs 200 verbatim ones (the file is read once for all);
// - a workflow of 200 CONTEXT globs vs one (the tree is read once for all);
// - `verify refs --drift` on a doc of 80,000 line refs on lines far apart (one whole-file blame) vs
//   the same doc with one ref.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { compare, ensureTmp, fmt, makeFile, refcatCmd } from '../lib.js';

const root = path.join(ensureTmp(), 'scale');
const shell = (argv) => ['/bin/sh', '-c', `${argv.map((a) => `'${a}'`).join(' ')} >/dev/null; exit 0`];

function snippets() {
  const dir = path.join(root, 'snippets');
  fs.mkdirSync(dir, { recursive: true });
  makeFile(path.join(dir, 'big.txt'), 14.5 * 1024 * 1024);
  const line = (n) => `${String(n).padStart(9, '0')} the quick brown fox jumps over the lazy dog`;
  const doc = (stale) =>
    Array.from({ length: 200 }, (_, k) => {
      const n = 1000 + k * 1000;
      return `\`\`\`text\n# @big.txt#L${n}-L${n + 1}\n${stale ? `an invented line ${k}` : line(n)}\n${line(n + 1)}\n\`\`\`\n`;
    }).join('\n');
  fs.writeFileSync(path.join(dir, 'stale.md'), doc(true));
  fs.writeFileSync(path.join(dir, 'verbatim.md'), doc(false));
  const [stale, verbatim] = compare([shell(refcatCmd('verify', 'refs', 'stale.md')), shell(refcatCmd('verify', 'refs', 'verbatim.md'))], 5, { cwd: dir });
  console.log(`200 stale citations of a 14.5 MB file:   ${fmt(stale)}`);
  console.log(`200 verbatim ones:                       ${fmt(verbatim)}`);
  console.log(`ratio: ${(stale / verbatim).toFixed(2)}x (target <= 2x)`);
}

function contextGlobs() {
  const dir = path.join(root, 'context');
  if (!fs.existsSync(path.join(dir, '.done'))) {
    for (let a = 0; a < 100; a++) {
      fs.mkdirSync(path.join(dir, `pkg${a}`, 'src', 'lib'), { recursive: true });
      for (let f = 0; f < 40; f++) fs.writeFileSync(path.join(dir, `pkg${a}`, 'src', 'lib', `m${f}.ts`), 'x\n');
    }
    fs.writeFileSync(path.join(dir, '.gitignore'), '*.log\n');
    fs.writeFileSync(path.join(dir, 'one.zz0'), 'x\n');
    fs.writeFileSync(path.join(dir, '.done'), '');
  }
  const conv = (n) => `PROMPT hi\n${Array.from({ length: n }, (_, i) => `CONTEXT-OPTIONAL @**/*.zz${i}`).join('\n')}\n`;
  fs.writeFileSync(path.join(dir, 'many.conv'), conv(200));
  fs.writeFileSync(path.join(dir, 'one.conv'), conv(1));
  const [many, one] = compare([shell(refcatCmd('validate', 'many.conv')), shell(refcatCmd('validate', 'one.conv'))], 5, { cwd: dir });
  console.log(`a workflow of 200 CONTEXT globs (4,000 files):  ${fmt(many)}`);
  console.log(`one CONTEXT glob:                               ${fmt(one)}`);
  console.log(`ratio: ${(many / one).toFixed(2)}x (target <= 3x)`);
}

function driftRefs() {
  const dir = path.join(root, 'drift');
  const git = (...args) => spawnSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@x', ...args], { cwd: dir, stdio: 'ignore' });
  if (!fs.existsSync(path.join(dir, '.done'))) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.join(dir, 'lib'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'lib', 'x.js'), Array.from({ length: 10 }, (_, i) => `x ${i}`).join('\n') + '\n');
    fs.writeFileSync(path.join(dir, 'many.md'), Array.from({ length: 80_000 }, () => 'See @lib/x.js#L2-L3\n').join('\n'));
    fs.writeFileSync(path.join(dir, 'one.md'), 'See @lib/x.js#L2-L3\n');
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'docs');
    fs.writeFileSync(path.join(dir, 'lib', 'x.js'), 'top\n' + Array.from({ length: 10 }, (_, i) => `x ${i}`).join('\n') + '\n');
    git('commit', '-q', '-am', 'insert');
    fs.writeFileSync(path.join(dir, '.done'), '');
  }
  const [many, one] = compare([shell(refcatCmd('verify', 'refs', 'many.md', '--drift')), shell(refcatCmd('verify', 'refs', 'one.md', '--drift'))], 3, { cwd: dir });
  console.log(`--drift, 80,000 line refs far apart in one doc:  ${fmt(many)}`);
  console.log(`--drift, one line ref:                           ${fmt(one)}`);
}

snippets();
contextGlobs();
driftRefs();
