import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { extract } from '../../src/core/extract/extract.js';
import { MAX_CACHED_FILE_BYTES, ReadCache } from '../../src/core/extract/read-cache.js';
import { verifyRefs } from '../../src/core/verify-refs/verify-refs.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// A ReadCache holds small files for one command (verify refs). What extract() answers with it must
// be what it answers reading each file afresh: lines, counts, clamps, every error.

afterEach(() => {
  vi.restoreAllMocks();
});

const big = Array.from({ length: 9000 }, (_, i) => `line ${i + 1} of a file larger than the cache holds`).join('\n') + '\n';

function files(): Record<string, string | Buffer> {
  return {
    'a.ts': 'one\ntwo\nthree\n',
    'crlf.txt': 'one\r\ntwo\r\nthree',
    'bom.md': '\ufeff# Title\ntext\n',
    'empty.txt': '',
    'nul.bin': Buffer.from([0x61, 0x00, 0x0a]),
    'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
    'cut.txt': Buffer.from([0x61, 0x0a, 0xe2, 0x82]),
    'big.txt': big,
    'dir/x.ts': 'function f() {\n  return 1;\n}\n',
  };
}

const refs = [
  '@a.ts',
  '@a.ts#L2',
  '@a.ts#L2-L9',
  '@a.ts#L7',
  '@crlf.txt#L1-L3',
  '@bom.md#L1',
  '@empty.txt',
  '@empty.txt#L1',
  '@nul.bin',
  '@latin1.txt#L1',
  '@cut.txt#L1',
  '@big.txt#L8000-L8002',
  '@big.txt',
  '@dir',
  '@missing.ts',
  '@dir/x.ts#/function f/:block',
  '@a.ts#/nowhere/',
];

describe('ReadCache: the same answers as reading afresh', () => {
  it.each([true, false])('checkOnly %s', (checkOnly) => {
    const dir = tmpDir(files());
    expect(big.length).toBeGreaterThan(MAX_CACHED_FILE_BYTES);
    const ctx = testCtx(dir);
    const cache = new ReadCache();
    for (const ref of refs) {
      const fresh = extract([ref], ctx, { checkOnly });
      // Twice from the cache: the first read fills it, the second is served from it.
      for (const round of [1, 2]) expect(extract([ref], ctx, { checkOnly, readCache: cache }), `${ref}, round ${round}`).toEqual(fresh);
    }
  });

  it('random files and ranges (fast-check): lines, counts and clamps as a fresh read gives them', () => {
    const dir = tmpDir();
    const ctx = testCtx(dir);
    const piece = fc.constantFrom('a', 'é', '😀', ' ', '\t', '\n', '\r\n', '\r', '```', 'x\n\n');
    let k = 0;
    fc.assert(
      fc.property(fc.boolean(), fc.array(piece, { maxLength: 60 }), fc.nat(25), fc.nat(8), fc.boolean(), (bom, pieces, start, len, checkOnly) => {
        const name = `f${k++}.txt`;
        fs.writeFileSync(path.join(dir, name), (bom ? '\ufeff' : '') + pieces.join(''));
        const cache = new ReadCache();
        for (const ref of [`@${name}`, `@${name}#L${start + 1}`, `@${name}#L${start + 1}-L${start + 1 + len}`, `@${name}#L${start + 1}:-${len}..+${len}`]) {
          expect(extract([ref], ctx, { checkOnly, readCache: cache }), ref).toEqual(extract([ref], ctx, { checkOnly }));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('holds no more than its bound, and reads the rest the usual way', () => {
    const dir = tmpDir({ 'a.txt': 'a\n'.repeat(100), 'b.txt': 'b\n'.repeat(100) });
    const cache = new ReadCache(250);
    expect(cache.file(path.join(dir, 'a.txt'))?.lines).toEqual(Array(100).fill('a'));
    expect(cache.file(path.join(dir, 'b.txt'))).toBeNull();
    const ctx = testCtx(dir);
    expect(extract(['@b.txt#L100'], ctx, { readCache: cache }).results[0]!.lines).toEqual(['b']);
  });
});

describe('verify refs reads each cited file once', () => {
  it('200 refs into 4 files: 4 opens of targets, not 200', async () => {
    const targets: Record<string, string> = {};
    for (let f = 0; f < 4; f++) targets[`src/m${f}.ts`] = Array.from({ length: 60 }, (_, i) => `const v${i} = ${f};`).join('\n') + '\n';
    const doc = Array.from({ length: 200 }, (_, k) => `See @src/m${k % 4}.ts#L${1 + (k % 50)}-L${2 + (k % 50)}.`).join('\n\n') + '\n';
    const dir = tmpDir({ ...targets, 'docs/guide.md': doc });
    const opened: string[] = [];
    const open = fs.openSync;
    vi.spyOn(fs, 'openSync').mockImplementation(((p: fs.PathLike, ...rest: unknown[]) => {
      opened.push(String(p));
      return (open as (...a: unknown[]) => number)(p, ...rest);
    }) as typeof fs.openSync);
    const report = await verifyRefs(['docs'], testCtx(dir));
    expect(report.refsFound).toBe(200);
    expect(report.passed).toBe(true);
    const targetOpens = opened.filter((p) => p.includes(`${path.sep}src${path.sep}`));
    expect(new Set(targetOpens).size).toBe(4);
    expect(targetOpens.length).toBe(4);
  });
});
