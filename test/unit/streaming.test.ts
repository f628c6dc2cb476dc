import fs from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extract, extractSteps } from '../../src/core/extract/extract.js';
import { ExtractionWriter, type OutputFormat, type RenderOptions, renderers } from '../../src/core/output/render-extraction.js';
import { StdoutWriter, type IO } from '../../src/cli/io.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// Streamed output (whole files and ranges read from disk as they are written) must be exactly the
// text the in-memory renderers give for the same refs (docs/reference.md#streaming-and-memory).

const FORMATS: OutputFormat[] = ['markdown', 'raw', 'spec', 'json'];

/** Render every step of the refs with their lines left on disk, read `chunkBytes` at a time. */
function streamed(dir: string, refs: string[], format: OutputFormat, opts: RenderOptions, chunkBytes: number): string {
  const writer = new ExtractionWriter(format, opts);
  const bytes = new StringDecoder('utf8');
  let out = writer.begin();
  const errors = [];
  const warnings = [];
  for (const step of extractSteps(refs, testCtx(dir), { onDisk: true })) {
    // Whole files and ranges (all these refs are) are read from disk as they are written.
    if (step.result) expect(step.result.onDisk).toBeDefined();
    if (step.result?.onDisk) step.result.onDisk.chunkBytes = chunkBytes;
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
  it('for random files, refs, formats and read sizes', () => {
    const dir = tmpDir();
    fc.assert(
      fc.property(
        fileText,
        fc.array(refOf, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(...FORMATS),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 1, max: 64 }),
        (text, refs, format, lineNumbers, attribution, chunkBytes) => {
          fs.writeFileSync(path.join(dir, 'f.txt'), text);
          const opts: RenderOptions = { lineNumbers, attribution, showCwd: true, absolute: false };
          const expected = renderers[format](extract(refs, testCtx(dir)), opts);
          expect(streamed(dir, refs, format, opts, chunkBytes)).toBe(expected);
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
  it('gathers small texts into large writes and waits for a full stdout to drain', async () => {
    const writes: string[] = [];
    let drains = 0;
    let release: () => void = () => {};
    const io = {
      stdout: (s: string) => void writes.push(s),
      drain: () => {
        drains++;
        return new Promise<void>((resolve) => (release = resolve));
      },
    } as unknown as IO;
    const out = new StdoutWriter(io, 10);
    await out.write('abc');
    await out.write('def');
    expect(writes).toEqual([]);
    let done = false;
    const pending = out.write('ghijk').then(() => (done = true));
    expect(writes).toEqual(['abcdefghijk']);
    await Promise.resolve();
    expect(done).toBe(false); // waits until stdout has drained
    release();
    await pending;
    expect(drains).toBe(1);
    const ended = out.end();
    release();
    await ended;
    expect(writes).toEqual(['abcdefghijk']);
  });

  it('hands texts between byte chunks to a single writev as one piece, bytes as they are', async () => {
    const parts: (string | Uint8Array)[][] = [];
    const io = { stdout: () => expect.unreachable(), stdoutParts: (p: (string | Uint8Array)[]) => void parts.push([...p]) } as unknown as IO;
    const out = new StdoutWriter(io, 1 << 10);
    const body = Buffer.from('const a = 1;\n');
    // A glob's output: header, file bytes, fence, then the next header.
    for (const chunk of ['## a\n```ts\n', body, '```\n', '\n## b\n```ts\n', body, '```\n']) await out.write(chunk);
    await out.end();
    expect(parts).toEqual([['## a\n```ts\n', body, '```\n\n## b\n```ts\n', body, '```\n']]);
    expect(parts[0]![1]).toBe(body);
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
