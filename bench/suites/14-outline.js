// Outlines (docs/refs.md#outlines---outline): `refcat --outline` on a real tree, this repository's own
// TypeScript (src/ and test/), against `repomix --compress` on the same files (its markdown to
// stdout, no file summary: refcat prints none), timed interleaved in the same run, 7 rounds: the
// ratios of the medians, of the minima, and round by round (pairedRatio()). Like is paired with
// like: both tools look for secrets in what they print by default (refcat redacts them,
// docs/refs.md#secrets; repomix runs secretlint over every file), so they are timed as they come,
// and then both without it (`--secrets allow`, `--no-security-check`).
// Target: refcat at most a third of repomix's time, measured cold (REFCAT_SYMBOL_CACHE=0: every
// file parsed) and with the tables kept by an earlier run (docs/symbols.md#the-table-cache; in a
// home of the bench's own, so that a user's cache is not touched). Also the sizes of both outputs
// against the files' own, and the peak memory of the outline.
//
// repomix 1.13.1 (the last for Node 20) is installed on first use into a cache folder outside the
// repository (REFCAT_BENCH_TOOLS, default <tmp>/refcat-bench-tools), never as a dependency;
// without the registry the comparison is skipped with a note.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, compareStats, ensureTmp, fmt, pairedRatio, peakMiB, refcatCmd, ROOT } from '../lib.js';

const REPOMIX = '1.13.1';
const tools = process.env.REFCAT_BENCH_TOOLS ?? path.join(os.tmpdir(), 'refcat-bench-tools');
const stats = (s) => `min ${fmt(s.min)}, median ${fmt(s.median)}`;
const KiB = (n) => `${(n / 1024).toFixed(0)} KiB`;

function repomixBin() {
  const dir = path.join(tools, `repomix-${REPOMIX}`);
  const bin = path.join(dir, 'node_modules', 'repomix', 'bin', 'repomix.cjs');
  if (!fs.existsSync(bin)) {
    process.stdout.write(`installing repomix@${REPOMIX} into ${dir} (once) ... `);
    fs.mkdirSync(dir, { recursive: true });
    const r = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', dir, `repomix@${REPOMIX}`], { encoding: 'utf8' });
    console.log(r.status === 0 ? 'done' : 'failed');
  }
  return fs.existsSync(bin) ? bin : null;
}

const opts = { cwd: ROOT };
const refs = ['@src/**/*.ts', '@test/**/*.ts'];
const files = spawnSync(process.execPath, [...refcatCmd(...refs, '--list-files').slice(1)], { ...opts, encoding: 'utf8' }).stdout.trim().split('\n');
const bytes = files.reduce((n, f) => n + fs.statSync(path.join(ROOT, f)).size, 0);
const ours = refcatCmd(...refs, '--outline');
const home = path.join(ensureTmp(), 'outline-home');
const run = (cache) => ['/usr/bin/env', `SDQCTL_HOME=${home}`, `REFCAT_SYMBOL_CACHE=${cache}`, process.execPath, BIN, ...refs, '--outline'];
const outlined = spawnSync(ours[0], ours.slice(1), { ...opts, env: { ...process.env, SDQCTL_HOME: home }, encoding: 'utf8', maxBuffer: 1 << 30 });
if (outlined.status !== 0) throw new Error(`refcat --outline failed: ${outlined.stderr}`);

console.log(`load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
console.log(`tree: this repository's src/ and test/, ${files.length} TypeScript files, ${KiB(bytes)}`);
console.log(`refcat --outline: ${KiB(outlined.stdout.length)} of markdown (${((100 * outlined.stdout.length) / bytes).toFixed(0)}% of the files)`);

const bin = repomixBin();
if (!bin) {
  console.log('repomix --compress vs refcat --outline: skipped (repomix could not be installed: no registry?)');
} else {
  const theirs = [process.execPath, bin, '--stdout', '--style', 'markdown', '--compress', '--include', 'src/**/*.ts,test/**/*.ts', '--no-file-summary'];
  const packed = spawnSync(theirs[0], [...theirs.slice(1), '--no-security-check'], { ...opts, encoding: 'utf8', maxBuffer: 1 << 30 });
  const packedFiles = (packed.stdout.match(/^## File: /gm) ?? []).length;
  console.log(`repomix --compress: ${KiB(packed.stdout.length)} of markdown (${((100 * packed.stdout.length) / bytes).toFixed(0)}% of the files), ${packedFiles} files`);
  // Its check leaves out each file it suspects whole, where refcat redacts the secret and prints the rest.
  const checked = spawnSync(theirs[0], theirs.slice(1), { ...opts, encoding: 'utf8', maxBuffer: 1 << 30 });
  const checkedFiles = (checked.stdout.match(/^## File: /gm) ?? []).length;
  console.log(`repomix --compress with its security check: ${checkedFiles} files${checkedFiles < packedFiles ? ' (the others left out as suspicious)' : ''}`);
  const [cold, kept, b, coldAllow, bNoCheck] = compareStats(
    [run('0'), run('1'), ['/usr/bin/env', ...theirs], [...run('0'), '--secrets', 'allow'], ['/usr/bin/env', ...theirs, '--no-security-check']],
    7,
    opts,
  );
  const ratios = (a, x) => `${(a.median / x.median).toFixed(2)}x median, ${(a.min / x.min).toFixed(2)}x min, ${pairedRatio(a, x).toFixed(2)}x round by round`;
  console.log('both looking for secrets (each as it comes):');
  console.log(`  refcat --outline, cold:        ${stats(cold)}`);
  console.log(`  refcat --outline, tables kept: ${stats(kept)}`);
  console.log(`  repomix --compress:            ${stats(b)}`);
  console.log(`  ratio cold: ${ratios(cold, b)} (target <= 0.33x)`);
  console.log(`  ratio tables kept: ${ratios(kept, b)}`);
  console.log('neither looking for secrets (refcat --secrets allow, repomix --no-security-check):');
  console.log(`  refcat --outline, cold:        ${stats(coldAllow)}`);
  console.log(`  repomix --compress:            ${stats(bNoCheck)}`);
  console.log(`  ratio cold: ${ratios(coldAllow, bNoCheck)} (target <= 0.33x)`);
  console.log(`  (refcat looking against repomix not looking, as this suite timed them before: cold ${ratios(cold, bNoCheck)})`);
}
console.log(`peak memory of refcat --outline (cold): ${peakMiB([...refs, '--outline'], { ...opts, env: { ...process.env, SDQCTL_HOME: home, REFCAT_SYMBOL_CACHE: '0' } }).toFixed(1)} MiB`);
