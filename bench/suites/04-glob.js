// Globs over trees like real repositories.
//
// 1. The realistic tree: 10,000 TypeScript files of 60-120 lines (5-8 KB, about 66 MB) in 50 × 7
//    folders, with a .gitignore that hides dist/ (20,000 small files, never entered) and a fifth of
//    src/. `refcat '**/*.ts'` writes markdown to a file, against `rg --files -t ts . | sort | xargs
//    cat` writing to a file (target: at most 2x, aim 1.5x; peak memory at most 150 MiB); and
//    `refcat '**/*.ts' --list-files` against `node -e 0` plus `rg --files | sort` (target: at most
//    2x the sum). ripgrep is the baseline: without `rg` on PATH these ratios are skipped, with a
//    note saying so (Debian/Ubuntu: `apt-get install ripgrep`).
// 2. Linearity: `refcat '**/*.ts' -q` on 10,000 / 25,000 / 50,000 files of 20 lines (plus twice as
//    many in an ignored dist/) against `rg --files | sort | xargs cat`.
// 3. refcat's markdown against repomix 1.13.1 (the last for Node 20, installed into .bench-tmp/ on
//    first use; skipped with a note without the registry; target: refcat at least 4x faster).
//
// Every pair is timed interleaved in the same run (min and median of the runs). Environment:
//   REFCAT_BENCH_PROFILE=N   also profile one markdown run of the realistic tree (node --cpu-prof)
//                            and print its N heaviest functions by self time (N=1: 20);
//   REFCAT_BENCH_BUSY=1      keep one busy process (`yes > /dev/null`) running while timing;
//   REFCAT_BENCH_GLOB=real   run part 1 only.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BIN, compare, compareStats, ensureTmp, fmt, peakMiB, refcatCmd, TMP } from '../lib.js';
import { makeRealTree } from '../real-tree.js';

const tmp = ensureTmp();
const hasRg = spawnSync('rg', ['--version']).status === 0;
const RG_MISSING = 'rg (ripgrep) not installed: no baseline; install it (Debian/Ubuntu: apt-get install ripgrep) for the ratios';
const quote = (s) => `'${s.replaceAll("'", "'\\''")}'`;
const sh = (cmd) => ['bash', '-c', cmd];
const stats = (s) => `min ${fmt(s.min)}, median ${fmt(s.median)}`;

let busy = null;
if (process.env.REFCAT_BENCH_BUSY === '1') {
  busy = spawn('bash', ['-c', 'exec yes > /dev/null'], { stdio: 'ignore' });
  busy.unref(); // the suite ends when its work does; the busy process is stopped then
  process.on('exit', () => busy.kill());
  console.log(`(one busy process running: yes > /dev/null, pid ${busy.pid})`);
}
console.log(`load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);

/** The `limit` functions of a .cpuprofile with the most self time: [{ name, ms }]. */
function topOfProfile(file, limit) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const f = byId.get(id).callFrame;
    const where = f.url ? ` ${path.basename(f.url)}:${f.lineNumber + 1}` : '';
    const name = `${f.functionName || '(anonymous)'}${where}`;
    self.set(name, (self.get(name) ?? 0) + ms);
    total += ms;
  });
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, limit);
  return { total, top: top.map(([name, ms]) => ({ name, ms })) };
}

function realTree() {
  process.stdout.write('preparing the realistic tree: 10,000 files of 5-8 KB in 50 x 7 folders + 20,000 ignored (once) ... ');
  const root = makeRealTree();
  console.log('done');
  const out = path.join(tmp, 'real-tree-out');
  fs.mkdirSync(out, { recursive: true });
  const md = path.join(out, 'refcat.md');
  const refcat = `${quote(process.execPath)} ${quote(BIN)}`;
  const opts = { cwd: root };
  const runs = 11;

  const mdCmds = [sh(`${refcat} '**/*.ts' > ${quote(md)}`)];
  if (hasRg) mdCmds.push(sh(`rg --files -t ts . | LC_ALL=C sort | xargs cat > ${quote(path.join(out, 'rg.txt'))}`));
  const [ours, rg] = compareStats(mdCmds, runs, opts);
  const files = fs.readFileSync(md, 'utf8').split('\n## From: ').length;
  console.log(`refcat '**/*.ts' > file (markdown, ${files} files, ${(fs.statSync(md).size / 1e6).toFixed(1)} MB): ${stats(ours)}`);
  if (hasRg) {
    console.log(`rg --files -t ts . | sort | xargs cat > file: ${stats(rg)}`);
    console.log(`  ratio ${(ours.min / rg.min).toFixed(2)}x (min) / ${(ours.median / rg.median).toFixed(2)}x (median)   target <= 2x (aim 1.5x)`);
  } else {
    console.log(`  ${RG_MISSING}`);
  }
  const peak = peakMiB(['**/*.ts'], { ...opts, stdio: ['ignore', fs.openSync(md, 'w'), 'pipe'] });
  console.log(`  peak memory ${peak.toFixed(1)} MiB (target <= 150 MiB)`);

  const listCmds = [sh(`${refcat} '**/*.ts' --list-files > ${quote(path.join(out, 'list.txt'))}`), [process.execPath, '-e', '0']];
  if (hasRg) listCmds.push(sh(`rg --files | LC_ALL=C sort > ${quote(path.join(out, 'rg-list.txt'))}`));
  const [list, node0, rgList] = compareStats(listCmds, runs, opts);
  console.log(`refcat '**/*.ts' --list-files > file: ${stats(list)};  node -e 0: ${stats(node0)}`);
  if (hasRg) {
    console.log(`rg --files | sort > file: ${stats(rgList)}`);
    const ratio = (k) => (list[k] / (node0[k] + rgList[k])).toFixed(2);
    console.log(`  ratio to node -e 0 + rg: ${ratio('min')}x (min) / ${ratio('median')}x (median)   target <= 2x`);
  } else {
    console.log(`  ${RG_MISSING}`);
  }

  const wanted = process.env.REFCAT_BENCH_PROFILE;
  if (wanted) {
    const limit = wanted === '1' ? 20 : Number(wanted) || 20;
    const dir = path.join(out, 'profile');
    fs.rmSync(dir, { recursive: true, force: true });
    const r = spawnSync('bash', ['-c', `${quote(process.execPath)} --cpu-prof --cpu-prof-dir=${quote(dir)} ${quote(BIN)} '**/*.ts' > ${quote(md)}`], { ...opts, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`profiled run failed: ${r.stderr}`);
    const file = path.join(dir, fs.readdirSync(dir)[0]);
    const { total, top } = topOfProfile(file, limit);
    console.log(`profile of one markdown run (${fmt(total)} sampled; ${file}), top ${limit} by self time:`);
    for (const t of top) console.log(`  ${fmt(t.ms).padStart(10)} ${((t.ms / total) * 100).toFixed(1).padStart(5)}%  ${t.name}`);
  }
}

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

function linearity() {
  console.log('\nlinearity: 20-line files, -q');
  for (const files of [10_000, 25_000, 50_000]) {
    process.stdout.write(`preparing ${files} files + ${2 * files} ignored ... `);
    const root = makeTree(files);
    console.log('done');
    const opts = { cwd: root };
    const cmds = [refcatCmd('**/*.ts', '-q')];
    if (hasRg) cmds.push(['bash', '-c', "rg --files -g '*.ts' | LC_ALL=C sort | xargs cat"]);
    const [ours, rg] = compare(cmds, files === 10_000 ? 5 : 3, opts);
    const vsRg = hasRg ? `   rg+sort+cat ${fmt(rg)}   ratio ${(ours / rg).toFixed(2)}x (target <= 2x)` : `   (${RG_MISSING})`;
    console.log(`${String(files).padStart(6)} files: refcat '**/*.ts' -q ${fmt(ours)} (${((ours / files) * 1000).toFixed(1)} µs/file)${vsRg}`);
    if (files === 10_000) console.log(`        peak memory ${peakMiB(['**/*.ts', '-q'], opts).toFixed(1)} MiB (target <= 150 MiB)`);
  }
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

function repomix() {
  const bin = repomixBin();
  if (!bin) {
    console.log('repomix vs refcat: skipped (repomix could not be installed: no registry?)');
    return;
  }
  const root = makeTree(10_000);
  const args = ['--stdout', '--style', 'markdown', '--include', '**/*.ts', '--no-file-summary', '--no-security-check'];
  const [ours, theirs] = compare([refcatCmd('**/*.ts'), [process.execPath, bin, ...args]], 3, { cwd: root });
  console.log(`repomix vs refcat, 10,000 files (markdown): refcat ${fmt(ours)}   repomix ${fmt(theirs)}   refcat ${(theirs / ours).toFixed(1)}x faster (target >= 4x)`);
}

realTree();
if (process.env.REFCAT_BENCH_GLOB !== 'real') {
  linearity();
  repomix();
}
