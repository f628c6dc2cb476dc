// Start-up of a one-line ref vs `node -e 0` (<= 1.4x, the bundled CLI), and the same ref on a
// 1 GiB file vs a 1 KiB file (<= 1.5x, peak memory <= 100 MiB).
import path from 'node:path';
import { compare, ensureTmp, fmt, makeFile, peakMiB, refcatCmd } from '../lib.js';

const tmp = ensureTmp();
const small = path.join(tmp, 'small-1k.txt');
const big = path.join(tmp, 'big-1g.txt');
const GiB = 1024 ** 3;

process.stdout.write('preparing a 1 GiB file (once, kept in .bench-tmp/) ... ');
makeFile(small, 1024);
makeFile(big, GiB);
console.log('done');

const oneLine = `@${path.relative(process.cwd(), small)}#L5`;
const [node0, one] = compare([[process.execPath, '-e', '0'], refcatCmd(oneLine)]);
console.log(`one-line ref           ${fmt(one)}   node -e 0 ${fmt(node0)}   ratio ${(one / node0).toFixed(2)}x (target <= 1.4x)`);

const [tSmall, tBig] = compare([refcatCmd(`@${small}#L10-L20`), refcatCmd(`@${big}#L10-L20`)]);
console.log(`#L10-L20, 1 GiB file   ${fmt(tBig)}   1 KiB file ${fmt(tSmall)}   ratio ${(tBig / tSmall).toFixed(2)}x (target <= 1.5x)`);

const peak = peakMiB([`@${big}#L10-L20`, '-q']);
console.log(`peak memory, 1 GiB     ${peak.toFixed(1)} MiB (target <= 100 MiB)`);

// Context figures (no target): a range near the end of the 1 GiB file and a pattern scan, against
// sed doing the same job.
const far = 18_000_000;
const [sedFar, refFar] = compare(
  [
    ['sed', '-n', `${far},${far + 1}p;${far + 1}q`, big],
    refcatCmd(`@${big}#L${far}-L${far + 1}`, '-q'),
  ],
  5,
);
console.log(`#L${far}-L${far + 1} (near the end)   ${fmt(refFar)}   sed ${fmt(sedFar)}   ratio ${(refFar / sedFar).toFixed(2)}x`);
const needle = String(far).padStart(9, '0');
const [sedPat, refPat] = compare(
  [
    ['sed', '-n', `/^${needle} /{p;q}`, big],
    refcatCmd(`@${big}#/^${needle} /:+0`, '-q'),
  ],
  5,
);
console.log(`pattern near the end    ${fmt(refPat)}   sed ${fmt(sedPat)}   ratio ${(refPat / sedPat).toFixed(2)}x`);
