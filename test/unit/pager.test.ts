import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Page, paginate } from '../../src/core/paging/paginate.js';
import { PageTable, pageOfLine } from '../../src/core/paging/page-index.js';
import type { PageSpan } from '../../src/core/paging/page-builder.js';
import { ByteScanner } from '../../src/core/paging/byte-scanner.js';

/** Page texts with their flags, compactly: `[text, lines, continued, truncated]`. */
const summary = (pages: Page[]) => pages.map((p) => [p.text, `${p.lineStart}-${p.lineEnd}`, p.continued, p.truncated]);

describe('paginate: the line-aware algorithm (docs/reference.md#fd-and-ref)', () => {
  it.each<[string, string, number, (string | boolean)[][]]>([
    ['empty content: one empty page', '', 10, [['', '0-0', false, false]]],
    ['fits one page', 'a\nb\n', 10, [['a\nb\n', '1-2', false, false]]],
    ['exactly one page, newline counted', 'abcd\n', 5, [['abcd\n', '1-1', false, false]]],
    ['whole lines while they fit', 'aa\nbb\ncc\n', 6, [['aa\nbb\n', '1-2', false, false], ['cc\n', '3-3', false, false]]],
    ['no final newline', 'aa\nbb', 3, [['aa\n', '1-1', false, false], ['bb', '2-2', false, false]]],
    [
      'a long line starts a new page and is cut at exactly the page size',
      'x\nabcdefghij\ny\n',
      4,
      [
        ['x\n', '1-1', false, false],
        ['abcd', '2-2', false, true],
        ['efgh', '2-2', true, true],
        ['ij\n', '2-2', true, false],
        ['y\n', '3-3', false, false],
      ],
    ],
    ['one long line without newline', 'abcdefg', 3, [['abc', '1-1', false, true], ['def', '1-1', true, true], ['g', '1-1', true, false]]],
    ['after a cut, whole lines fill the page again', 'abc\nd\n', 3, [['abc', '1-1', false, true], ['\nd\n', '1-2', true, false]]],
    ['the newline can land alone on a page', 'abc\nde\n', 3, [['abc', '1-1', false, true], ['\n', '1-1', true, false], ['de\n', '2-2', false, false]]],
    ['blank lines are lines', '\n\n\n', 2, [['\n\n', '1-2', false, false], ['\n', '3-3', false, false]]],
    ['CRLF belongs to its line', 'ab\r\ncd\r\n', 4, [['ab\r\n', '1-1', false, false], ['cd\r\n', '2-2', false, false]]],
    ['code points, not UTF-16 units', '😀😀😀\n', 2, [['😀😀', '1-1', false, true], ['😀\n', '1-1', true, false]]],
    ['page size 1', 'ab\n', 1, [['a', '1-1', false, true], ['b', '1-1', true, true], ['\n', '1-1', true, false]]],
  ])('%s', (_name, content, size, expected) => {
    expect(summary(paginate(content, { pageSize: size }).pages)).toEqual(expected);
  });

  it('counts lines and code points', () => {
    expect(paginate('a\nb', { pageSize: 5 })).toMatchObject({ totalLines: 2, chars: 3, pageSize: 5 });
    expect(paginate('a\nb\n', { pageSize: 5 })).toMatchObject({ totalLines: 2, chars: 4 });
    expect(paginate('é😀\n')).toMatchObject({ totalLines: 1, chars: 3, pageSize: 4000 });
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses page size %s', (size) => {
    expect(() => paginate('x', { pageSize: size })).toThrow(/Invalid page size/);
  });

  it('pages the quantum-papers output of the FD RFC as it shows (210 lines, 5 pages, 42 a page)', () => {
    const line = (n: number) => `[${n}] Recent papers in quantum computing: error correction, machine learning, algorithms`.padEnd(94, '.');
    const content = Array.from({ length: 210 }, (_, i) => line(i + 1) + '\n').join('');
    const p = paginate(content);
    expect(p.pages.length).toBe(5);
    expect(p.totalLines).toBe(210);
    expect(p.pages.map((x) => `${x.lineStart}-${x.lineEnd}`)).toEqual(['1-42', '43-84', '85-126', '127-168', '169-210']);
    expect(p.pages.every((x) => !x.continued && !x.truncated)).toBe(true);
  });

  it('a single long JSON line pages by characters (continued and truncated)', () => {
    const json = JSON.stringify({ funding_data: Array.from({ length: 400 }, (_, i) => ({ name: `c${i}`, total: i })) });
    const p = paginate(json);
    expect(p.totalLines).toBe(1);
    expect(p.pages.length).toBe(Math.ceil([...json].length / 4000));
    expect(p.pages[0]).toMatchObject({ continued: false, truncated: true, lineStart: 1, lineEnd: 1 });
    expect(p.pages[1]).toMatchObject({ continued: true, truncated: true });
    expect(p.pages.at(-1)).toMatchObject({ continued: true, truncated: false });
  });
});

// Content made of lines, long lines, CRLF, astral characters and empty lines.
const contentArb = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      fc.constantFrom('\n', '\r\n', '\r', '😀', 'é', ''),
      fc.string({ unit: fc.constantFrom('a', 'b', '\n'), maxLength: 40 }),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));
const sizeArb = fc.integer({ min: 1, max: 25 });

describe('paginate: invariants (property-based)', () => {
  it('the pages joined give back the content exactly', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), sizeArb, (content, pageSize) => {
        expect(paginate(content, { pageSize }).pages.map((p) => p.text).join('')).toBe(content);
      }),
      { numRuns: 500 },
    );
  });

  it('no page is empty (but for empty content) or longer than the page size', () => {
    fc.assert(
      fc.property(contentArb, sizeArb, (content, pageSize) => {
        const { pages } = paginate(content, { pageSize });
        for (const p of pages) {
          const n = [...p.text].length;
          expect(n).toBeLessThanOrEqual(pageSize);
          if (content !== '') expect(n).toBeGreaterThan(0);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('pages hold whole lines unless a line is longer than a page; flags and line numbers agree', () => {
    fc.assert(
      fc.property(contentArb, sizeArb, (content, pageSize) => {
        const { pages, totalLines } = paginate(content, { pageSize });
        let line = content === '' ? 0 : 1; // the line the next page starts in
        let midLine = false;
        pages.forEach((p, i) => {
          expect(p.page).toBe(i + 1);
          expect(p.continued).toBe(midLine);
          expect(p.lineStart).toBe(line);
          const endsInLine = p.text !== '' && !p.text.endsWith('\n') && i < pages.length - 1;
          expect(p.truncated).toBe(endsInLine);
          const newlines = p.text.split('\n').length - 1;
          const lastLine = line + newlines - (p.text.endsWith('\n') ? 1 : 0);
          expect(p.lineEnd).toBe(content === '' ? 0 : lastLine);
          // A cut happens only in a line that does not fit a page on its own.
          if (p.truncated) expect([...p.text].length).toBe(pageSize);
          // Greedy: the next page's first line did not fit here.
          const next = pages[i + 1];
          if (next && !p.truncated) {
            const firstLine = next.text.includes('\n') ? next.text.slice(0, next.text.indexOf('\n') + 1) : next.text;
            expect([...p.text].length + [...firstLine].length).toBeGreaterThan(pageSize);
          }
          line = p.text.endsWith('\n') ? lastLine + 1 : lastLine;
          midLine = p.truncated;
        });
        expect(totalLines).toBe(content === '' ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0));
      }),
      { numRuns: 500 },
    );
  });

  it('the byte scanner pages UTF-8 bytes exactly like paginate, however the bytes are chunked', () => {
    fc.assert(
      fc.property(contentArb, sizeArb, fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1 }), (content, pageSize, cuts) => {
        const expected = paginate(content, { pageSize });
        const bytes = Buffer.from(content);
        const spans: PageSpan[] = [];
        const scanner = new ByteScanner(pageSize, (s) => spans.push(s));
        for (let at = 0, i = 0; at < bytes.length; i++) {
          const n = cuts[i % cuts.length]!;
          scanner.push(bytes.subarray(at, at + n));
          at += n;
        }
        const totals = scanner.finish();
        expect(totals).toEqual({ bytes: bytes.length, chars: expected.chars, lines: expected.totalLines, pages: expected.pages.length });
        expect(
          spans.map((s) => [bytes.toString('utf8', s.start, s.end), s.lineStart, s.lineEnd, s.continued, s.truncated]),
        ).toEqual(expected.pages.map((p) => [p.text, p.lineStart, p.lineEnd, p.continued, p.truncated]));
      }),
      { numRuns: 500 },
    );
  });
});

describe('ByteScanner: binary content', () => {
  it.each([
    ['a NUL byte in the first 8 KiB', Buffer.from('abc\0def')],
    ['invalid UTF-8', Buffer.from([0x61, 0xff, 0x62])],
    ['a truncated UTF-8 sequence at the end', Buffer.from([0x61, 0xe2, 0x82])],
  ])('refuses %s', (_name, bytes) => {
    const scanner = new ByteScanner(10, () => {});
    expect(() => {
      scanner.push(bytes);
      scanner.finish();
    }).toThrow();
  });

  it('accepts a multi-byte character split across chunks', () => {
    const bytes = Buffer.from('a€b');
    const scanner = new ByteScanner(10, () => {});
    scanner.push(bytes.subarray(0, 2));
    scanner.push(bytes.subarray(2));
    expect(scanner.finish()).toMatchObject({ chars: 3, lines: 1 });
  });
});

describe('PageTable', () => {
  it('finds the page that holds a line, and round-trips through its file bytes', () => {
    const table = new PageTable();
    const { pages } = paginate(Array.from({ length: 50 }, (_, i) => `line ${i + 1}\n`).join(''), { pageSize: 30 });
    let at = 0;
    for (const p of pages) {
      table.push({ start: at, end: at + p.text.length, lineStart: p.lineStart, lineEnd: p.lineEnd, continued: p.continued, truncated: p.truncated });
      at += p.text.length;
    }
    for (let line = 1; line <= 50; line++) {
      const n = pageOfLine(table, line);
      expect(table.get(n).lineStart <= line && table.get(n).lineEnd >= line).toBe(true);
      if (n > 1) expect(table.get(n - 1).lineEnd).toBeLessThan(line);
    }
    expect(Buffer.concat([...table.bytes()]).length).toBe(pages.length * 40);
  });

  it('grows block by block and saves every record, little-endian', () => {
    const table = new PageTable();
    const span = (i: number) => ({ start: i * 10, end: i * 10 + 10, lineStart: i + 1, lineEnd: i + 1, continued: i % 2 === 1, truncated: i % 3 === 0 });
    for (let i = 0; i < 20000; i++) table.push(span(i));
    expect(table.count).toBe(20000);
    for (const n of [1, 8192, 8193, 16384, 20000]) expect(table.get(n)).toEqual(span(n - 1));
    const file = Buffer.concat([...table.bytes()]);
    expect(file.length).toBe(20000 * 40);
    expect([file.readDoubleLE(8193 * 40), file.readDoubleLE(8193 * 40 + 32)]).toEqual([81930, 3]);
  });
});

describe('PageTable memory', () => {
  it('spills old blocks to a file and reads them back exactly, then removes the file', async () => {
    const { PageTable } = await import('../../src/core/paging/page-index.js');
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-spill-'));
    const table = new PageTable(() => dir);
    const n = 8192 * 10 + 5; // more than the blocks kept in memory
    const span = (i: number) => ({ start: i * 3, end: i * 3 + 3, lineStart: i, lineEnd: i + 1, continued: i % 2 === 0, truncated: i % 3 === 0 });
    for (let i = 1; i <= n; i++) table.push(span(i));
    expect(fs.readdirSync(dir)).toHaveLength(1);
    for (const i of [1, 2, 8192, 8193, 40000, 65536, 65537, n - 1, n]) expect(table.get(i)).toEqual(span(i));
    const bytes = Buffer.concat([...table.bytes()]);
    expect(bytes.length).toBe(n * 40);
    expect(bytes.readDoubleLE((n - 1) * 40)).toBe(n * 3);
    expect(bytes.readDoubleLE(7 * 40 + 16)).toBe(8);
    table.close();
    expect(fs.readdirSync(dir)).toEqual([]);
    fs.rmSync(dir, { recursive: true });
  });
});
