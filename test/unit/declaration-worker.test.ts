import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { declarationsOfText } from '../../src/core/symbols/declaration-table.js';
import { DeclarationWorker, parseWorkerFile } from '../../src/core/symbols/declaration-worker.js';
import { SYMBOL_LANGUAGES, symbolLanguageOf } from '../../src/core/symbols/languages.js';

// The parser worker of the servers (docs/symbols.md#cost), as built by `npm run build` (a worker
// runs compiled JavaScript: from the sources, parseWorkerFile() finds dist/). Its tables are
// compared with this thread's own parse of the same text, so a worker answering wrong, stale or
// another file's table fails here.
const FIXTURES = path.join(__dirname, '..', '..', 'fixtures', 'symbols');
const samples = fs.readdirSync(FIXTURES).map((f) => ({ file: f, text: fs.readFileSync(path.join(FIXTURES, f), 'utf8'), language: symbolLanguageOf(f)! }));

function builtWorker(): URL {
  const file = parseWorkerFile();
  if (!file) throw new Error('dist/core/symbols/parse-worker.js is missing: run npm run build first');
  return file;
}

const workers: DeclarationWorker[] = [];
afterAll(() => workers.forEach((w) => w.close()));

describe('the parser worker', () => {
  it('answers, async and blocking, the tables this thread parses, for every language', async () => {
    expect(new Set(samples.map((s) => s.language.id))).toEqual(new Set(SYMBOL_LANGUAGES.map((l) => l.id)));
    // No replacement here: one worker answers everything.
    const w = new DeclarationWorker(builtWorker(), { tierUp: false });
    workers.push(w);
    for (const s of samples) {
      const here = await declarationsOfText(s.text, s.language);
      expect(here.length, s.file).toBeGreaterThan(0);
      expect(await w.parse(s.text, s.language), s.file).toEqual(here);
      expect(w.parseSync(s.text, s.language), s.file).toEqual(here);
    }
    // Calls at once get each its own answer.
    const all = await Promise.all(samples.map((s) => w.parse(s.text, s.language)));
    for (const [i, s] of samples.entries()) expect(all[i], s.file).toEqual(await declarationsOfText(s.text, s.language));
    expect(w.started).toBe(1);
    expect(w.replaced).toBe(0);
  });

  it('is replaced once its heap passes the threshold, and the answers stay right', async () => {
    const told: number[] = [];
    // A threshold below the heap's starting size: every answer retires its worker.
    const w = new DeclarationWorker(builtWorker(), { maxHeapBytes: 1024, tierUp: false, onReplace: (b) => told.push(b) });
    workers.push(w);
    const picked = samples.slice(0, 4);
    for (const s of picked) expect(await w.parse(s.text, s.language), s.file).toEqual(await declarationsOfText(s.text, s.language));
    for (const s of picked) expect(w.parseSync(s.text, s.language), s.file).toEqual(await declarationsOfText(s.text, s.language));
    expect(w.started).toBe(2 * picked.length);
    expect(w.replaced).toBe(2 * picked.length);
    // The heap reported is the worker's WebAssembly memory: at least the 32 MiB it starts with.
    for (const b of told) expect(b).toBeGreaterThanOrEqual(32 * 1024 * 1024);
  });

  it('keeps its worker below the threshold', async () => {
    const w = new DeclarationWorker(builtWorker(), { maxHeapBytes: 1024 ** 3, tierUp: false });
    workers.push(w);
    for (const s of samples.slice(0, 3)) await w.parse(s.text, s.language);
    expect([w.started, w.replaced]).toEqual([1, 0]);
  });

  it('a parse that fails is an error for that call; the next call is answered', async () => {
    const w = new DeclarationWorker(builtWorker(), { tierUp: false });
    workers.push(w);
    const bogus = { id: 'nope', wasm: 'nope.wasm', extensions: ['nope'] };
    await expect(w.parse('x', bogus)).rejects.toThrow(/Parsing failed: no grammar nope/);
    expect(() => w.parseSync('x', bogus)).toThrow(/Parsing failed: no grammar nope/);
    const s = samples[0]!;
    expect(await w.parse(s.text, s.language)).toEqual(await declarationsOfText(s.text, s.language));
  });
});
