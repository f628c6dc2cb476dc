import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { extract } from '../../src/core/extract/extract.js';
import { extractBatches } from '../../src/core/extract/extract-batches.js';
import { parseDeclarations } from '../../src/core/symbols/declaration-table.js';
import type { Declaration } from '../../src/core/symbols/declaration.js';
import { parseWorkerFile } from '../../src/core/symbols/declaration-worker.js';
import { loadGrammar } from '../../src/core/symbols/grammar-loader.js';
import { symbolLanguageOf } from '../../src/core/symbols/languages.js';
import { prepareOutline } from '../../src/core/symbols/prepare-outline.js';
import { useTableCache } from '../../src/core/symbols/table-cache-folder.js';
import { MIN_FILES_AHEAD, planTablesAhead, prestartTablesAhead, TablesAhead, tablesAhead } from '../../src/core/symbols/tables-ahead.js';
import { testCtx } from '../helpers/tmp.js';

// An outline's tables read on two cores (tables-ahead.ts, docs/design/symbols.md#an-outline-on-two-cores):
// the worker (as `npm run build` made it: a worker runs compiled JavaScript) reads files from the
// end of the list while this thread reads from the start. Every table either gives must be the
// one this thread parses itself from the text it read; a file changed after the worker read it
// is parsed again here.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCES = fs
  .readdirSync(path.join(ROOT, 'src/core/symbols'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => path.join(ROOT, 'src/core/symbols', f));

function builtWorker(): URL {
  const file = parseWorkerFile();
  if (!file) throw new Error('dist/core/symbols/parse-worker.js is missing: run npm run build first');
  return file;
}

async function parsedHere(text: string, file: string): Promise<Declaration[]> {
  return parseDeclarations(text, await loadGrammar(symbolLanguageOf(file)!));
}

/** A tree of `n` TypeScript files, each different (its own names), copied from this repository's symbols room. */
function tree(n: number): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-ahead-'));
  made.push(dir);
  return Array.from({ length: n }, (_, i) => {
    const file = path.join(dir, `f${String(i).padStart(3, '0')}.ts`);
    fs.writeFileSync(file, `export function only${i}(a: number): number {\n  return a + ${i};\n}\n\n${fs.readFileSync(SOURCES[i % SOURCES.length]!, 'utf8')}`);
    return file;
  });
}

const made: string[] = [];
const aheads: TablesAhead[] = [];
afterAll(() => {
  aheads.forEach((a) => a.close());
  made.forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
});

/** Until the worker has answered `n` files (it starts in its own time; a busy machine is slow). */
async function answered(ahead: TablesAhead, n: number): Promise<void> {
  while (ahead.posted() < n) await new Promise((r) => setTimeout(r, 20));
}

describe('tables read ahead by a worker', () => {
  it('gives each file the table this thread parses, whichever thread read it', async () => {
    const files = tree(60);
    const ahead = new TablesAhead(files, builtWorker());
    aheads.push(ahead);
    for (const [i, file] of files.entries()) {
      const text = fs.readFileSync(file, 'utf8');
      const here = await parsedHere(text, file);
      const table = ahead.take(file, text);
      if (table === null) ahead.missed(file);
      else expect(table, file).toEqual(here);
      // The worker starts at the first file this thread parses, with enough files still to come.
      expect(ahead.started, file).toBe(true);
      if (i === 0) await answered(ahead, 10);
    }
    expect(ahead.taken).toBeGreaterThanOrEqual(10);
    expect(ahead.taken).toBeLessThan(files.length);
  }, 120_000);

  it('takes a table only for the very text the worker parsed', async () => {
    const files = tree(40);
    const ahead = new TablesAhead(files, builtWorker());
    aheads.push(ahead);
    expect(ahead.take(files[0]!, fs.readFileSync(files[0]!, 'utf8'))).toBeNull();
    ahead.missed(files[0]!);
    // The worker reads every other file, from the last.
    await answered(ahead, files.length - 1);
    const changed = files[20]!;
    fs.appendFileSync(changed, '\nexport class AddedLater {}\n');
    for (const file of files.slice(1)) {
      const text = fs.readFileSync(file, 'utf8');
      const table = ahead.take(file, text);
      if (file === changed) {
        expect(table).toBeNull();
        expect((await parsedHere(text, file)).some((d) => d.name === 'AddedLater')).toBe(true);
      } else {
        expect(table, file).toEqual(await parsedHere(text, file));
      }
    }
    expect(ahead.taken).toBe(files.length - 2);
  }, 120_000);

  it('starts no worker for the last few files, nor for a file it was not given', () => {
    const files = tree(MIN_FILES_AHEAD + 2);
    const ahead = new TablesAhead(files, builtWorker());
    aheads.push(ahead);
    ahead.missed(path.join(path.dirname(files[0]!), 'other.ts'));
    expect(ahead.started).toBe(false);
    expect(ahead.take(files[2]!, fs.readFileSync(files[2]!, 'utf8'))).toBeNull();
    ahead.missed(files[2]!);
    expect(ahead.started).toBe(false);
  });

  it('is planned for an outline of enough files, on more than one processor only', () => {
    const files = tree(MIN_FILES_AHEAD + 1);
    const one = vi.spyOn(os, 'availableParallelism').mockReturnValue(1);
    try {
      planTablesAhead(files, builtWorker());
      expect(tablesAhead()).toBeNull();
    } finally {
      one.mockRestore();
    }
    const two = vi.spyOn(os, 'availableParallelism').mockReturnValue(2);
    try {
      planTablesAhead(files.slice(1), builtWorker());
      expect(tablesAhead()).toBeNull();
      planTablesAhead(files, builtWorker());
      expect(tablesAhead()).not.toBeNull();
    } finally {
      planTablesAhead(null);
      two.mockRestore();
    }
  });

  it('after close(), every file is this thread own, at once', async () => {
    const files = tree(40);
    const ahead = new TablesAhead(files, builtWorker());
    ahead.take(files[0]!, '');
    ahead.missed(files[0]!);
    ahead.close();
    for (const file of files.slice(1)) expect(ahead.take(file, fs.readFileSync(file, 'utf8'))).toBeNull();
    expect(ahead.taken).toBe(0);
  });

  it('an outline read on two cores is the outline read on one', async () => {
    const ctx = testCtx(ROOT);
    const refs = ['@src/**/*.ts', '@test/unit/*.ts'];
    await prepareOutline(refs);
    // extract() reads in one thread; the batch run (the CLI's) plans the worker.
    const one = extract(refs, ctx, { outline: true });
    const missed = vi.spyOn(TablesAhead.prototype, 'missed');
    // As on any machine with a second processor (this one may have one only).
    const cores = vi.spyOn(os, 'availableParallelism').mockReturnValue(2);
    const two = extractBatches([{ inputs: refs }], [], ctx, { outline: true }).report;
    const plans = missed.mock.contexts as TablesAhead[];
    missed.mockRestore();
    cores.mockRestore();
    expect(plans.some((p) => p.started)).toBe(true);
    expect(two.results.length).toBeGreaterThan(2 * MIN_FILES_AHEAD);
    expect(two.errors).toEqual(one.errors);
    expect(two.results.map((r) => [r.relPath, r.lines])).toEqual(one.results.map((r) => [r.relPath, r.lines]));
  }, 120_000);

  it('keeps the tables the worker read as this thread keeps its own: a second outline parses nothing', async () => {
    const files = tree(50);
    const dir = path.dirname(files[0]!);
    const cache = path.join(dir, 'cache');
    const ctx = testCtx(dir);
    const refs = ['@*.ts'];
    await prepareOutline(refs);
    useTableCache(cache);
    const missed = vi.spyOn(TablesAhead.prototype, 'missed');
    // As on any machine with a second processor (this one may have one only).
    const cores = vi.spyOn(os, 'availableParallelism').mockReturnValue(2);
    try {
      const first = extractBatches([{ inputs: refs }], [], ctx, { outline: true }).report;
      expect(first.results.length).toBe(files.length);
      expect((missed.mock.contexts as TablesAhead[]).some((p) => p.started)).toBe(true);
      // One entry a file (their texts differ), whichever thread parsed it.
      expect(fs.readdirSync(cache).filter((f) => f.endsWith('.json')).length).toBe(files.length);
      missed.mockClear();
      const second = extractBatches([{ inputs: refs }], [], ctx, { outline: true }).report;
      expect(missed).not.toHaveBeenCalled();
      expect(second.results.map((r) => r.lines)).toEqual(first.results.map((r) => r.lines));
    } finally {
      missed.mockRestore();
      cores.mockRestore();
      useTableCache(null);
    }
  }, 120_000);
});

// A worker started before the outline's plan is made (docs/design/symbols.md#the-worker-started-with-the-list),
// waiting for it: only for enough files whose tables cannot come from the cache, and once its start
// is past (it took the list, or no plan needed it) the caller's `then` runs, once.
describe('a worker started with the list', () => {
  it('waits for the plan, then reads ahead: the outline is the one read in one thread', async () => {
    const files = tree(50);
    const ctx = testCtx(path.dirname(files[0]!));
    const refs = ['@*.ts'];
    await prepareOutline(refs);
    useTableCache(null);
    const then = vi.fn();
    const missed = vi.spyOn(TablesAhead.prototype, 'missed');
    const cores = vi.spyOn(os, 'availableParallelism').mockReturnValue(2);
    try {
      expect(prestartTablesAhead(files, builtWorker(), then)).toBe(true);
      // One at a time: a second command in this process finds one waiting.
      expect(prestartTablesAhead(files, builtWorker(), then)).toBe(false);
      expect(then).not.toHaveBeenCalled();
      const two = extractBatches([{ inputs: refs }], [], ctx, { outline: true }).report;
      expect((missed.mock.contexts as TablesAhead[]).some((p) => p.started)).toBe(true);
      expect(then).toHaveBeenCalledTimes(1);
      const one = extract(refs, ctx, { outline: true });
      expect(two.results.length).toBe(files.length);
      expect(two.results.map((r) => [r.relPath, r.lines])).toEqual(one.results.map((r) => [r.relPath, r.lines]));
    } finally {
      missed.mockRestore();
      cores.mockRestore();
    }
  }, 120_000);

  it('is not started for few files, nor where tables may be kept; one no plan takes is ended', () => {
    const files = tree(MIN_FILES_AHEAD + 1);
    const dir = path.dirname(files[0]!);
    const then = vi.fn();
    const cores = vi.spyOn(os, 'availableParallelism').mockReturnValue(2);
    try {
      useTableCache(null);
      expect(prestartTablesAhead(files.slice(1), builtWorker(), then)).toBe(false);
      expect(prestartTablesAhead(files, null, then)).toBe(false);
      // A cache folder: tables may come from it, and the worker waits for the first file parsed.
      fs.mkdirSync(path.join(dir, 'cache'));
      useTableCache(path.join(dir, 'cache'));
      expect(prestartTablesAhead(files, builtWorker(), then)).toBe(false);
      // None yet: every file will be parsed.
      useTableCache(path.join(dir, 'no-cache-yet'));
      expect(prestartTablesAhead(files, builtWorker(), then)).toBe(true);
      // A plan with too few files: the waiting worker is ended, and `then` runs.
      planTablesAhead(files.slice(0, 3), builtWorker());
      expect(tablesAhead()).toBeNull();
      expect(then).toHaveBeenCalledTimes(1);
      expect(prestartTablesAhead(files, builtWorker(), then)).toBe(true);
      planTablesAhead(null);
      expect(then).toHaveBeenCalledTimes(2);
    } finally {
      cores.mockRestore();
      useTableCache(null);
    }
  });

  it('is not started on one processor', () => {
    const files = tree(MIN_FILES_AHEAD + 1);
    const then = vi.fn();
    const one = vi.spyOn(os, 'availableParallelism').mockReturnValue(1);
    try {
      useTableCache(null);
      expect(prestartTablesAhead(files, builtWorker(), then)).toBe(false);
    } finally {
      one.mockRestore();
    }
  });
});
