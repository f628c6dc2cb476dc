// Helpers shared by bench suites: timing child processes, reading their peak memory, temp data.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = path.join(ROOT, 'bin', 'refcat.js');
export const TMP = path.join(ROOT, '.bench-tmp');
const PEAK = path.join(ROOT, 'bench', 'peak.js');

export function ensureTmp() {
  fs.mkdirSync(TMP, { recursive: true });
  return TMP;
}

/**
 * Wall time of one run of `argv` (ms); throws if the command fails. A command that fails on
 * purpose (a check finding what it should) says so with a `status` property on `argv`.
 */
export function timeOnce(argv, opts = {}) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', ...opts });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== (argv.status ?? 0)) throw new Error(`${argv.join(' ')} failed (${r.status}): ${r.stderr}`);
  return ms;
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Median wall times of several commands, run interleaved (a, b, a, b, ...) so that machine noise
 * hits all of them alike. Returns one median per command.
 */
export function compare(commands, runs = 21, opts = {}) {
  return compareStats(commands, runs, opts).map((s) => s.median);
}

/**
 * compare(), with the fastest run of each command besides its median: { min, median, times } each
 * (`times`: every run, in order; run i of each command was timed in the same round, see pairedRatio()).
 */
export function compareStats(commands, runs = 21, opts = {}) {
  const times = commands.map(() => []);
  for (const cmd of commands) timeOnce(cmd, opts); // warm the file cache
  for (let i = 0; i < runs; i++) commands.forEach((cmd, j) => times[j].push(timeOnce(cmd, opts)));
  return times.map((t) => ({ min: Math.min(...t), median: median(t), times: t }));
}

/**
 * The median of a/b taken round by round (compareStats() times every command once a round), as
 * farm-bench pairs its runs: a machine whose speed drifts between rounds moves both sides of a
 * pair alike, where a ratio of two medians or two minima can pair a slow moment with a quick one.
 */
export function pairedRatio(a, b) {
  return median(a.times.map((t, i) => t / b.times[i]));
}

/** Peak resident memory (MiB) of `refcat args`, measured inside the process at exit (`opts.status`: the exit code it should have, 0 by default). */
export function peakMiB(args, opts = {}) {
  const { status = 0, ...spawnOpts } = opts;
  const r = spawnSync(process.execPath, [PEAK, ...args], { encoding: 'utf8', maxBuffer: 1 << 30, ...spawnOpts });
  if (r.status !== status) throw new Error(`refcat ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  const m = /refcat-peak-rss=(\d+)/.exec(r.stderr);
  if (!m) throw new Error(`no peak figure: ${r.stderr}`);
  return Number(m[1]) / 1024;
}

export const refcatCmd = (...args) => [process.execPath, BIN, ...args];

export function fmt(ms) {
  return `${ms.toFixed(1)} ms`;
}

/** A text file of `size` bytes made of numbered 54-byte lines (kept in .bench-tmp/ between runs). */
export function makeFile(file, size) {
  if (fs.existsSync(file) && fs.statSync(file).size === size) return;
  const line = (n) => `${String(n).padStart(9, '0')} the quick brown fox jumps over the lazy dog\n`;
  const fd = fs.openSync(file + '.part', 'w');
  let written = 0;
  let n = 1;
  while (written < size) {
    let chunk = '';
    while (chunk.length < 8 * 1024 * 1024 && written + chunk.length < size) chunk += line(n++);
    const buf = Buffer.from(chunk).subarray(0, size - written);
    fs.writeSync(fd, buf);
    written += buf.length;
  }
  fs.closeSync(fd);
  fs.renameSync(file + '.part', file);
}
