// Streamed output: memory stays at or under 150 MiB whatever the size of the output, and the time
// is compared with `cat` moving the same bytes. Output goes through a pipe to a reader (`cat`), so
// that back-pressure is exercised. Two cases: 8 files of 57 MB through one glob (456 MB out), and
// 2 GB out (one 57 MB file named 36 times, to spare the disk).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureTmp, makeFile, median, ROOT } from '../lib.js';

const tmp = path.join(ensureTmp(), 'streaming');
const MB57 = 57 * 1000 * 1000;

process.stdout.write('preparing 8 files of 57 MB (once, kept in .bench-tmp/) ... ');
spawnSync('mkdir', ['-p', tmp]);
for (let i = 0; i < 8; i++) makeFile(path.join(tmp, `f${i}.txt`), MB57);
console.log('done');

const quote = (s) => `'${s.replaceAll("'", "'\\''")}'`;
const peakJs = path.join(ROOT, 'bench', 'peak.js');

/** Wall time (ms) and, for refcat, peak RSS (MiB) of `cmd | cat > /dev/null`. */
function piped(cmd) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('bash', ['-c', `set -o pipefail; ${cmd} | cat > /dev/null`], { cwd: tmp, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} failed (${r.status}): ${r.stderr}`);
  const m = /refcat-peak-rss=(\d+)/.exec(r.stderr);
  return { ms, peak: m ? Number(m[1]) / 1024 : null };
}

function run(label, refcatArgs, catArgs, runs) {
  const ours = [];
  const base = [];
  let peak = 0;
  const refcat = `${quote(process.execPath)} ${quote(peakJs)} ${refcatArgs}`;
  for (let i = 0; i < runs; i++) {
    const r = piped(refcat);
    ours.push(r.ms);
    peak = Math.max(peak, r.peak);
    base.push(piped(`cat ${catArgs}`).ms);
  }
  const [t, b] = [median(ours), median(base)];
  console.log(
    `${label.padEnd(34)} ${(t / 1000).toFixed(2)} s   cat ${(b / 1000).toFixed(2)} s   ratio ${(t / b).toFixed(1)}x   peak ${peak.toFixed(0)} MiB (target <= 150 MiB)`,
  );
}

const files = Array.from({ length: 8 }, (_, i) => `f${i}.txt`).join(' ');
run("456 MB: -q 'f*.txt'", "-q 'f*.txt'", files, 3);
run("456 MB: markdown 'f*.txt'", "'f*.txt'", files, 3);
run("456 MB: --json 'f*.txt'", "--json 'f*.txt'", files, 3);
run("456 MB: numbered ranges 'f*.txt#L2-'", "'f*.txt#L2-'", files, 3);
const twoGb = Array.from({ length: 36 }, () => 'f0.txt');
run('2 GB: -q, 36 refs of 57 MB', `-q ${twoGb.map((f) => '@' + f).join(' ')}`, twoGb.join(' '), 1);
