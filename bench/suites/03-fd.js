// Issue 4: storing and paging a 1 GiB input piped through stdin. Reports the peak memory and wall
// time of the storing call (which answers with page 1), then the time of later calls that read a
// late page, a late line range and a mid page with another page size (that one builds its index).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureTmp, fmt, makeFile, median, refcatCmd, ROOT, timeOnce } from '../lib.js';

const tmp = ensureTmp();
const big = path.join(tmp, 'big-1g.txt');
const store = path.join(tmp, 'fd-store');
const GiB = 1024 ** 3;

process.stdout.write('preparing a 1 GiB file (once, kept in .bench-tmp/) ... ');
makeFile(big, GiB);
console.log('done');

fs.rmSync(store, { recursive: true, force: true });
// A real pipe, as in `some-command | refcat fd read`; peak.js reports the refcat process's peak RSS.
const t0 = process.hrtime.bigint();
const r = spawnSync('sh', ['-c', `cat "$0" | "$1" "$2" fd read --store "$3"`, big, process.execPath, path.join(ROOT, 'bench', 'peak.js'), store], {
  encoding: 'utf8',
  maxBuffer: 1 << 26,
});
const storeMs = Number(process.hrtime.bigint() - t0) / 1e6;
if (r.status !== 0) throw new Error(`fd read failed (${r.status}): ${r.stderr}`);
const peak = Number(/refcat-peak-rss=(\d+)/.exec(r.stderr)[1]) / 1024;
const head = /<fd_result fd="(fd:\d+)" pages="(\d+)"[^>]*total_lines="(\d+)">/.exec(r.stdout);
const [, fd, pages, lines] = head;
console.log(`1 GiB via stdin         stored as ${fd}: ${pages} pages, ${lines} lines`);
console.log(`store + page 1          ${fmt(storeMs)}   peak memory ${peak.toFixed(1)} MiB`);

const late = median([1, 2, 3, 4, 5].map(() => timeOnce(refcatCmd('fd', 'read', fd, '--page', String(Number(pages) - 1), '--store', store))));
const first = median([1, 2, 3, 4, 5].map(() => timeOnce(refcatCmd('fd', 'read', fd, '--page', '2', '--store', store))));
console.log(`${`late page (${Number(pages) - 1})`.padEnd(24)}${fmt(late)}   page 2 ${fmt(first)}   (second call: a seek in the page index)`);
const lateLines = median([1, 2, 3].map(() => timeOnce(refcatCmd('fd', 'read', fd, '--lines', `${lines - 100}-${lines - 50}`, '--store', store))));
console.log(`late lines              ${fmt(lateLines)}   (--lines ${lines - 100}-${lines - 50})`);
const t1 = process.hrtime.bigint();
timeOnce(refcatCmd('fd', 'read', fd, '--page', '1000', '--page-size', '8000', '--store', store));
console.log(`new page size           ${fmt(Number(process.hrtime.bigint() - t1) / 1e6)}   (--page-size 8000: one pass builds and saves its index)`);
// Issue 9: reading stdin into the store costs at most 1.1x a bare Node copy of stdin to a file.
const copyOut = path.join(tmp, 'stdin-copy.out');
const viaPipe = (cmd) => timeOnce(['sh', '-c', `cat "$0" | ${cmd} > /dev/null`, big]);
const bare = [];
const ours = [];
for (let i = 0; i < 3; i++) {
  bare.push(viaPipe(`"${process.execPath}" "${path.join(ROOT, 'bench', 'copy-stdin.js')}" "${copyOut}"`));
  fs.rmSync(store, { recursive: true, force: true });
  ours.push(viaPipe(`"${process.execPath}" "${path.join(ROOT, 'bin', 'refcat.js')}" fd read --store "${store}"`));
}
fs.rmSync(copyOut, { force: true });
const [tBare, tOurs] = [median(bare), median(ours)];
console.log(`1 GiB stdin -> store    ${fmt(tOurs)}   bare node copy ${fmt(tBare)}   ratio ${(tOurs / tBare).toFixed(2)}x (target <= 1.1x)`);

const node0 = median([1, 2, 3].map(() => timeOnce([process.execPath, '-e', '0'])));
console.log(`(node -e 0              ${fmt(node0)})`);
fs.rmSync(store, { recursive: true, force: true });
