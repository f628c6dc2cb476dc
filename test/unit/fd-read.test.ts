import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ingest, prettyJsonChunks } from '../../src/core/paging/ingest.js';
import { readFd } from '../../src/core/paging/fd-read.js';
import { Store } from '../../src/core/paging/fd-store.js';
import { lineRange, slashRegex } from '../../src/cli/options.js';
import { writeOptions } from '../../src/cli/write-flags.js';
import type { Diagnostic } from '../../src/shared/errors.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

const noStdin = (async function* () {})();
const text = (it: Iterable<string>) => [...it].join('');

describe('readFd: --lines and pages agree with the content, long lines included', () => {
  it('--lines A-B gives lines A..B with their newlines, --page N the pages in order', async () => {
    const dir = tmpDir();
    const ctx = testCtx(dir);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: fc.constantFrom('a', 'é', '😀', ' '), maxLength: 30 }), { minLength: 1, maxLength: 25 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 12 }),
        fc.nat(),
        fc.nat(),
        async (lines, finalNewline, pageSize, x, y) => {
          const content = lines.join('\n') + (finalNewline ? '\n' : '');
          const file = path.join(dir, `f${n++}.txt`);
          fs.writeFileSync(file, content);
          const total = finalNewline || lines.at(-1) !== '' ? lines.length : lines.length - 1;
          if (total === 0) return;
          const a = 1 + (x % total);
          const b = a + (y % (total - a + 1));
          const v = await readFd({ source: file, lines: { start: a, end: b }, pageSize }, ctx, noStdin);
          const all = content.split(/(?<=\n)/);
          expect(text(v.text)).toBe(all.slice(a - 1, b).join(''));
          expect([v.lineStart, v.lineEnd, v.totalLines]).toEqual([a, b, total]);
          v.close();
          let joined = '';
          for (let p = 1; p <= v.pages; p++) {
            const page = await readFd({ source: file, page: p, pageSize }, ctx, noStdin);
            joined += text(page.text);
            page.close();
          }
          expect(joined).toBe(content);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('ingest', () => {
  it('keeps content that fits one page in memory and stores nothing', async () => {
    const dir = tmpDir();
    const c = await ingest(['small\n'], { pageSize: 100, store: () => new Store(dir), persist: 'if-large', source: 'stdin' });
    expect([c.label, c.stored, c.pages.count]).toEqual([null, false, 1]);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('stores content of more than one page, with its index for that page size', async () => {
    const dir = tmpDir();
    const c = await ingest(['a\n'.repeat(50), 'b\n'.repeat(50)], { pageSize: 20, store: () => new Store(dir), persist: 'if-large', source: 'stdin' });
    expect([c.label, c.stored, c.pages.count, c.totals]).toEqual(['fd:1', true, 10, { bytes: 200, chars: 200, lines: 100 }]);
    expect(fs.readdirSync(path.join(dir, '1')).sort()).toEqual(['content', 'meta.json', 'pages-20.idx']);
    c.bytes.close();
  });

  it('binary content after the first megabyte leaves no entry behind', async () => {
    const dir = tmpDir();
    const chunks = [Buffer.alloc(3 << 20, 0x61), Buffer.from([0xff])];
    await expect(ingest(chunks, { pageSize: 4000, store: () => new Store(dir), persist: 'if-large', source: 'stdin' })).rejects.toThrow('not valid UTF-8');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('--pretty-json passes content over the limit through unchanged, with a warning', async () => {
    const warnings: Diagnostic[] = [];
    const out: Buffer[] = [];
    for await (const b of prettyJsonChunks(['{"a":', ' 1}'], warnings, 3)) out.push(b);
    expect(Buffer.concat(out).toString()).toBe('{"a": 1}');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(/^Content is larger than [\d.e-]+ MiB: --pretty-json skipped$/);
  });
});

describe('Store', () => {
  it('never hands a number out twice: closed fds keep theirs; an interrupted entry is not an entry', async () => {
    const dir = tmpDir();
    const store = new Store(dir);
    const put = async () => (await ingest(['x'], { pageSize: 10, store: () => store, persist: 'always', source: 't' })).label;
    expect(await put()).toBe('fd:1');
    expect(await put()).toBe('fd:2');
    store.close('fd:2');
    expect(await put()).toBe('fd:3');
    fs.mkdirSync(path.join(dir, '4')); // a writer that died before its meta.json
    expect(await put()).toBe('fd:5');
    expect(() => store.open('fd:2')).toThrow('File descriptor fd:2 has been closed');
    expect(() => store.open('fd:4')).toThrow('File descriptor fd:4 is incomplete (its writer was interrupted or is still running)');
    expect(store.list().map((m) => m.id)).toEqual(['fd:1', 'fd:3', 'fd:5']);
    fs.writeFileSync(path.join(dir, '4', '.content.refcat-0.tmp'), 'partial');
    store.close('fd:4');
    expect(fs.readdirSync(path.join(dir, '4'))).toEqual(['closed']);
  });

  it('a ref stored again replaces the old one', () => {
    const store = new Store(tmpDir());
    store.putRef('a', 'one', 'x.md', 1, { bytes: 3, chars: 3, lines: 1 });
    store.putRef('a', 'two!', 'y.md', 5, { bytes: 4, chars: 4, lines: 1 });
    expect(fs.readFileSync(store.open('ref:a').contentPath, 'utf8')).toBe('two!');
    expect(store.list().map((m) => [m.id, m.source, m.line])).toEqual([['ref:a', 'y.md', 5]]);
    expect(fs.readdirSync(path.join(store.dir, 'refs'))).toHaveLength(1);
  });
});

describe('readFd: a clamped --lines range', () => {
  it('says how many lines the content has, one line as "1 line"', async () => {
    const dir = tmpDir({ 'one.txt': 'only\n', 'two.txt': 'a\nb\n' });
    const details = async (file: string) => {
      const v = await readFd({ source: path.join(dir, file), lines: { start: 1, end: 9 } }, testCtx(dir), noStdin);
      v.close();
      return v.warnings.flatMap((w) => w.details);
    };
    expect(await details('one.txt')).toEqual(['Content has 1 line, will clamp to 1-1']);
    expect(await details('two.txt')).toEqual(['Content has 2 lines, will clamp to 1-2']);
  });
});

describe('flag values', () => {
  it.each<[string, { start: number; end: number | null } | string]>([
    ['5', { start: 5, end: 5 }],
    ['5-9', { start: 5, end: 9 }],
    ['5-', { start: 5, end: null }],
    ['0-3', 'line numbers start at 1.'],
    ['9-3', 'start line 9 is after end line 3.'],
    ['-3', 'expected A-B, A or A- (line numbers from 1).'],
    ['L5-L9', 'expected A-B, A or A- (line numbers from 1).'],
  ])('--lines %s', (value, expected) => {
    if (typeof expected === 'string') expect(() => lineRange(value)).toThrow(expected);
    else expect(lineRange(value)).toEqual(expected);
  });

  it.each<[string, string | RegExp]>([
    ['/^import/', /^import/],
    ['/def main/i', /def main/i],
    ['/x/g', /x/],
    ['plain words', /plain words/],
    ['//', 'empty regex.'],
    ['/(/', 'invalid regex: Invalid regular expression: /(/: Unterminated group.'],
  ])('--after %s', (value, expected) => {
    if (typeof expected === 'string') expect(() => slashRegex(value)).toThrow(expected);
    else expect(slashRegex(value)).toEqual(expected);
  });

  it.each<[string, Parameters<typeof writeOptions>[0], string | { mode: string }]>([
    ['write by default', { to: 'x' }, { mode: 'write' }],
    ['--line implies insert', { to: 'x', line: 3 }, { mode: 'insert' }],
    ['--after implies insert', { to: 'x', after: /a/ }, { mode: 'insert' }],
    ['--mode append', { to: 'x', mode: 'append' }, { mode: 'append' }],
    ['--line and --after', { to: 'x', line: 1, after: /a/ }, 'Use either --line or --after, not both'],
    ['--line with append', { to: 'x', mode: 'append', line: 1 }, '--line and --after insert; they do not go with --mode append'],
    ['insert without where', { to: 'x', mode: 'insert' }, '--mode insert needs --line N or --after /regex/'],
    ['--force with append', { to: 'x', mode: 'append', force: true }, '--force only applies to --mode write (append never overwrites)'],
  ])('%s', (_name, flags, expected) => {
    if (typeof expected === 'string') expect(() => writeOptions(flags)).toThrow(expected);
    else expect(writeOptions(flags)).toMatchObject(expected);
  });
});
