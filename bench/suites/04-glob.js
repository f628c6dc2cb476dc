// Globs over a tree like a real repository: 10,000 source files, a tenth hidden by .gitignore, and
// an ignored dist/ of 20,000 files that a pruning walk never enters. refcat -q prints the files'
// lines, as `rg --files | sort | xargs cat` does (the baseline: raw lines, not markdown; skipped with a note if rg is
// absent). Then the same at 25,000 and 50,000 files, to show time growing linearly. On the 10,000
// file tree, refcat's markdown is also timed against repomix (markdown to stdout, same files;
// target: refcat at least 4x faster). repomix 1.13.1 (the last for Node 20) is installed into
// .bench-tmp/ on first use; without the registry that comparison is skipped with a note.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { compare, ensureTmp, fmt, peakMiB, refcatCmd, TMP } from '../lib.js';

const tmp = ensureTmp();

function makeTree(files) {
  const root = path.join(tmp, `tree-${files}`);
  if (fs.existsSync(path.join(root, '.done'))) return root;
  fs.rmSync(root, { recursive: true, force: true });
  const body = Array.from({ length: 20 }, (_, i) => `export const value${i} = ${i}; // a line of source`).join('\n') + '\n';
  for (let i = 0; i < files; i++) {
    const dir = path.join(root, 'src', `m${Math.floor(i / 100)}`, `d${Math.floor(i / 10) % 10}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, i % 10 === 0 ? `gen${i}.ts` : `f${i}.ts`), body);
  }
  for (let i = 0; i < 2 * files; i++) {
    const dir = path.join(root, 'dist', `b${Math.floor(i / 200)}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `out${i}.ts`), body);
  }
  fs.writeFileSync(path.join(root, '.gitignore'), 'dist/\ngen*.ts\n');
  spawnSync('git', ['init', '-q'], { cwd: root });
  fs.writeFileSync(path.join(root, '.done'), '');
  return root;
}

const hasRg = spawnSync('rg', ['--version']).status === 0;
for (const files of [10_000, 25_000, 50_000]) {
  process.stdout.write(`preparing ${files} files + ${2 * files} ignored ... `);
  const root = makeTree(files);
  console.log('done');
  const opts = { cwd: root };
  const cmds = [refcatCmd('**/*.ts', '-q')];
  if (hasRg) cmds.push(['bash', '-c', "rg --files -g '*.ts' | LC_ALL=C sort | xargs cat"]);
  const [ours, rg] = compare(cmds, files === 10_000 ? 5 : 3, opts);
  const vsRg = hasRg ? `   rg+sort+cat ${fmt(rg)}   ratio ${(ours / rg).toFixed(2)}x (target <= 2x)` : '   (rg not installed: no baseline)';
  console.log(`${String(files).padStart(6)} files: refcat '**/*.ts' -q ${fmt(ours)} (${((ours / files) * 1000).toFixed(1)} µs/file)${vsRg}`);
  if (files === 10_000) console.log(`        peak memory ${peakMiB(['**/*.ts', '-q'], opts).toFixed(1)} MiB (target <= 150 MiB)`);
}

// repomix on the same 10,000 files: its markdown on stdout, .gitignore respected as refcat does.
function repomixBin() {
  const dir = path.join(TMP, 'repomix');
  const bin = path.join(dir, 'node_modules', 'repomix', 'bin', 'repomix.cjs');
  if (!fs.existsSync(bin)) {
    process.stdout.write('installing repomix@1.13.1 into .bench-tmp/repomix (once) ... ');
    fs.mkdirSync(dir, { recursive: true });
    const r = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', dir, 'repomix@1.13.1'], { encoding: 'utf8' });
    console.log(r.status === 0 ? 'done' : 'failed');
  }
  return fs.existsSync(bin) ? bin : null;
}
const repomix = repomixBin();
if (repomix) {
  const root = makeTree(10_000);
  const args = ['--stdout', '--style', 'markdown', '--include', '**/*.ts', '--no-file-summary', '--no-security-check'];
  const [ours, theirs] = compare([refcatCmd('**/*.ts'), [process.execPath, repomix, ...args]], 3, { cwd: root });
  console.log(`repomix vs refcat, 10,000 files (markdown): refcat ${fmt(ours)}   repomix ${fmt(theirs)}   refcat ${(theirs / ours).toFixed(1)}x faster (target >= 4x)`);
} else {
  console.log('repomix vs refcat: skipped (repomix could not be installed: no registry?)');
}
