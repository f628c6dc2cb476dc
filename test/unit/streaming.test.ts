import fs from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extract, extractSteps } from '../../src/core/extract/extract.js';
import { ExtractionWriter, type OutputFormat, type RenderOptions, renderers } from '../../src/core/output/render-extraction.js';
import { StdoutWriter, type IO } from '../../src/cli/io.js';
import { scribbleReleasedBuffers } from '../../src/core/extract/line-reader.js';
import { PatternBudget } from '../../src/core/regex/pattern-search.js';
import { readFd } from '../../src/core/paging/fd-read.js';
import { Store } from '../../src/core/paging/fd-store.js';
import { runExtraction, type ExtractionRequest, TextSink } from '../../src/core/pipeline/run-extraction.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// Streamed output (whole files and ranges read from disk as they are written) must be exactly the
// text the in-memory renderers give for the same refs (docs/reference.md#streaming-and-memory).

const FORMATS: OutputFormat[] = ['markdown', 'raw', 'spec', 'json'];

/**
 * How a span's bytes are written: from the bytes the selection pass held, read again from the file
 * in fresh buffers, or read again into one shared buffer (a lent span: ContentSpan.shareReads).
 */
type SpanRead = 'held' | 'fresh' | 'shared';

/** Render every step of the refs with their lines left on disk, read `chunkBytes` at a time. */
function streamed(dir: string, refs: string[], format: OutputFormat, opts: RenderOptions, chunkBytes: number, read: SpanRead = 'held'): string {
  const writer = new ExtractionWriter(format, opts);
  const bytes = new StringDecoder('utf8');
  let out = writer.begin();
  const errors = [];
  const warnings = [];
  for (const step of extractSteps(refs, testCtx(dir), { onDisk: true })) {
    // Whole files and ranges (all these refs are) are read from disk as they are written.
    if (step.result) expect(step.result.onDisk).toBeDefined();
    const span = step.result?.onDisk;
    if (span) {
      span.chunkBytes = chunkBytes;
      if (read !== 'held') delete span.bytes;
      span.shareReads = read === 'shared';
    }
    // Each chunk is taken before the next is made, as a sink does (a shared buffer is read into again).
    if (step.result) for (const chunk of writer.add(step.result)) out += typeof chunk === 'string' ? chunk : bytes.write(chunk);
    errors.push(...step.errors);
    warnings.push(...step.warnings);
  }
  return out + writer.end({ errors, warnings });
}

const lineText = fc.array(fc.constantFrom('a', 'é', '日', '🎉', '`', '```', '````', ' ', '\r', '\t', '"', '\\', '\u0001'), { maxLength: 12 }).map((a) => a.join(''));
const fileText = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(lineText, fc.constantFrom('\n', '\r\n')), { maxLength: 30 }), fc.constantFrom('', 'tail', 'tail\r'))
  .map(([bom, lines, tail]) => (bom ? '\uFEFF' : '') + lines.map(([l, end]) => l + end).join('') + tail);
const refOf = fc.oneof(
  fc.constant('@f.txt'),
  fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 40 })).map(([a, n]) => `@f.txt#L${a}-L${a + n}`),
  fc.integer({ min: 1, max: 40 }).map((a) => `@f.txt#L${a}`),
  fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 5 })).map(([a, w]) => `@f.txt#L${a}:-${w}+${w}`),
);

describe('streamed output is the in-memory output', () => {
  it('for random files, refs, formats, read sizes and ways of reading the span', () => {
    const dir = tmpDir();
    fc.assert(
      fc.property(
        fileText,
        fc.array(refOf, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(...FORMATS),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 1, max: 64 }),
        fc.constantFrom<SpanRead>('held', 'fresh', 'shared'),
        (text, refs, format, lineNumbers, attribution, chunkBytes, read) => {
          fs.writeFileSync(path.join(dir, 'f.txt'), text);
          const opts: RenderOptions = { lineNumbers, attribution, showCwd: true, absolute: false };
          const expected = renderers[format](extract(refs, testCtx(dir)), opts);
          expect(streamed(dir, refs, format, opts, chunkBytes, read)).toBe(expected);
        },
      ),
      { numRuns: 400 },
    );
  });

  it.each(FORMATS)('%s through the CLI, with errors and warnings among the refs', async (format) => {
    const dir = tmpDir({ 'a.py': 'x = 1\r\ny = "```"\n', 'b.md': '# B\n\nend', 'sub/c.txt': 'c\n' });
    const refs = ['@a.py', '@b.md#L2-L9', '@missing.txt', '@sub/*.txt', '@a.py#L7'];
    const flag = { markdown: [], raw: ['-q'], spec: ['--spec'], json: ['--json'] }[format];
    const r = await refcatInProcess([...flag, ...refs], { cwd: dir });
    const report = extract(refs, testCtx(dir), { base: dir });
    expect(r.stdout).toBe(renderers[format](report, { lineNumbers: true, attribution: true, showCwd: true, absolute: false }));
    expect(r.code).toBe(1);
    if (format !== 'json') expect(r.stderr).toMatch(/Error: REFCAT ref not found: @missing.txt/);
  });
});

describe('StdoutWriter', () => {
  const decoded = (writes: Uint8Array[]) => writes.map((w) => Buffer.from(w).toString());

  it('gathers small writes into buffers of its write size, and waits for a full stdout to drain', async () => {
    const writes: Uint8Array[] = [];
    let drains = 0;
    let release: () => void = () => {};
    const io = {
      stdout: (b: Uint8Array) => void writes.push(b),
      drain: () => {
        drains++;
        return new Promise<void>((resolve) => (release = resolve));
      },
    } as unknown as IO;
    const out = new StdoutWriter(io, 16);
    // Nothing to wait for: no promise at all.
    expect(out.write('abc')).toBeUndefined();
    expect(out.write(Buffer.from('def'))).toBeUndefined();
    expect(writes).toEqual([]);
    let done = false;
    const pending = out.write('ghijklmnopqrstuvwxyz')!.then(() => (done = true));
    expect(decoded(writes)).toEqual(['abcdefghijklmnop']);
    await Promise.resolve();
    expect(done).toBe(false); // waits until stdout has drained
    release();
    await pending;
    expect(drains).toBe(1);
    const ended = out.end();
    release();
    await ended;
    expect(decoded(writes)).toEqual(['abcdefghijklmnop', 'qrstuvwxyz']);
  });

  it('copies every chunk: its bytes may change once write() is over', async () => {
    const writes: Uint8Array[] = [];
    const out = new StdoutWriter({ stdout: (b: Uint8Array) => void writes.push(b) } as unknown as IO, 64);
    const lent = Buffer.from('const a = 1;\n');
    for (const text of ['## a\n```ts\n', '```\n', 'é'.repeat(40)]) {
      await out.write(lent);
      lent.fill(0x23);
      lent.write('const a = 1;\n');
      await out.write(text);
    }
    await out.end();
    expect(decoded(writes).join('')).toBe('const a = 1;\n## a\n```ts\nconst a = 1;\n```\nconst a = 1;\n' + 'é'.repeat(40));
  });

  it('uses a buffer again only once stdoutBytes says it is written', async () => {
    const seen = new Set<ArrayBufferLike>();
    const waiting: (() => void)[] = [];
    let text = '';
    const io = {
      stdout: () => expect.unreachable(),
      stdoutBytes: (b: Uint8Array, done: () => void) => {
        // A pipe: the bytes are written later, and must not have changed by then.
        const copy = Buffer.from(b).toString();
        seen.add(b.buffer);
        waiting.push(() => {
          expect(Buffer.from(b).toString()).toBe(copy);
          text += copy;
          done();
        });
      },
      drain: async () => {
        if (waiting.length > 1) waiting.shift()!();
      },
    } as unknown as IO;
    const out = new StdoutWriter(io, 32);
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i}\n`);
    for (const line of lines) await out.write(Buffer.from(line));
    await out.end();
    for (const write of waiting.splice(0)) write();
    expect(text).toBe(lines.join(''));
    expect(seen.size).toBeLessThanOrEqual(3);
  });
});

describe("a file's bytes are lent to the output, and read into again after", () => {
  // Read buffers are used again once a step is over: here they are overwritten when given back,
  // so any output that kept a view of one instead of a copy shows it.
  beforeEach(() => scribbleReleasedBuffers(true));
  afterEach(() => scribbleReleasedBuffers(false));

  const files = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`src/f${String(i).padStart(2, '0')}.ts`, `export const v${i} = '${'é'.repeat(i)}';\n`.repeat(1 + (i % 7))]));
  const request = (dir: string, format: OutputFormat, cap?: { chars: number; store: () => Store }): ExtractionRequest => ({
    batches: [{ inputs: ['@src/*.ts', '@src/f03.ts#L1-L2'] }],
    extract: { base: dir, context: 0, patternBudget: new PatternBudget() },
    format,
    render: { lineNumbers: true, attribution: true, showCwd: true, absolute: false },
    cap,
  });
  const expected = (dir: string, format: OutputFormat) =>
    renderers[format](extract(['@src/*.ts', '@src/f03.ts#L1-L2'], testCtx(dir), { base: dir }), { lineNumbers: true, attribution: true, showCwd: true, absolute: false });

  it.each(FORMATS)('%s: an answer (TextSink) and stdout (StdoutWriter) get the bytes as read', async (format) => {
    const dir = tmpDir(files);
    const answer = new TextSink();
    await runExtraction(request(dir, format), answer, testCtx(dir));
    expect(answer.text).toBe(expected(dir, format));
    const writes: Uint8Array[] = [];
    await runExtraction(request(dir, format), new StdoutWriter({ stdout: (b: Uint8Array) => void writes.push(b) } as unknown as IO, 100), testCtx(dir));
    expect(Buffer.concat(writes).toString()).toBe(expected(dir, format));
  });

  it('extractSteps without lendBytes: every chunk is its own, held as long as wanted', () => {
    const dir = tmpDir(files);
    const writer = new ExtractionWriter('markdown', { lineNumbers: true, attribution: true, showCwd: true, absolute: false });
    const kept: (string | Buffer)[] = [];
    for (const step of extractSteps(['@src/*.ts', '@src/f03.ts#L1-L2'], testCtx(dir), { onDisk: true })) {
      if (step.result) kept.push(...writer.add(step.result));
    }
    const text = kept.map((c) => (typeof c === 'string' ? c : c.toString())).join('');
    expect(text).toBe(expected(dir, 'markdown'));
  });

  it('an answer past its cap: what was held back for the store is the bytes as read', async () => {
    const dir = tmpDir(files);
    const ctx = testCtx(dir);
    const store = path.join(dir, '.store');
    const outcome = await runExtraction(request(dir, 'markdown', { chars: 1500, store: () => Store.at(ctx, store) }), new TextSink(), ctx);
    const view = await readFd({ source: outcome.stored!.fd, all: true, store }, ctx, (async function* () {})());
    const content = [...view.text].join('');
    view.close();
    expect(content).toBe(expected(dir, 'markdown'));
  });
});

describe('no size cap on streamed files', () => {
  it('a whole file or range larger than the in-memory cap is measured, not refused', async () => {
    // extract() keeps lines in memory and refuses selections over its cap; streamed ones have none.
    const line = 'x'.repeat(99) + '\n';
    const dir = tmpDir({ 'big.txt': line.repeat(20_000) });
    const cap = { maxSelectionChars: 1024 * 1024 };
    for (const ref of ['@big.txt', '@big.txt#L5-L19000']) {
      expect(extract([ref], testCtx(dir), cap).errors.map((e) => e.code)).toEqual(['too_large']);
      const steps = [...extractSteps([ref], testCtx(dir), { ...cap, onDisk: true })];
      expect(steps.flatMap((s) => s.errors)).toEqual([]);
      expect(steps[0]!.result!.lineEnd).toBe(ref === '@big.txt' ? 20_000 : 19_000);
    }
    const r = await refcatInProcess(['-q', '@big.txt'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBe(line.length * 20_000);
    expect(r.stdout).toBe(line.repeat(20_000));
  });
});
