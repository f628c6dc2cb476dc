import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fileDeclarations, loadFileDeclarations, textDeclarations } from '../../src/core/symbols/declaration-table.js';
import { loadGrammar } from '../../src/core/symbols/grammar-loader.js';
import { SYMBOL_LANGUAGES, symbolLanguageOf } from '../../src/core/symbols/languages.js';
import { keptTable, prune, tableCacheDir, useTableCache } from '../../src/core/symbols/table-cache.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

/**
 * Declaration tables kept on disk between runs (docs/symbols.md#the-table-cache): a table read
 * back is the full table a parse gives, an entry is found only for the same text, and an entry
 * that is wrong in any way is a miss, never an answer.
 */

const FIXTURES = path.join(import.meta.dirname, '..', '..', 'fixtures', 'symbols');
const SAMPLES: Record<string, string> = {
  typescript: 'store.ts', tsx: 'store.tsx', javascript: 'store.js', python: 'store.py', swift: 'store.swift', kotlin: 'store.kt',
  java: 'Store.java', go: 'store.go', rust: 'store.rs', c: 'store.c', cpp: 'store.cpp', c_sharp: 'store.cs', ruby: 'store.rb',
};

afterEach(() => useTableCache(null));

/** A copy of a sample at a path of its own (tables are also cached in memory by path). */
function copyOf(sample: string, text?: string): string {
  const file = path.join(tmpDir(), sample);
  fs.writeFileSync(file, text ?? fs.readFileSync(path.join(FIXTURES, sample)));
  return file;
}

function entries(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

describe('the table cache', () => {
  it('gives back, in every language, the table a parse gives (lines read when asked for or not)', async () => {
    const dir = path.join(tmpDir(), 'cache');
    for (const language of SYMBOL_LANGUAGES) {
      const sample = SAMPLES[language.id]!;
      useTableCache(null);
      const parsed = JSON.parse(JSON.stringify(await loadFileDeclarations(copyOf(sample), 'x')));
      expect(parsed.length).toBeGreaterThan(3);
      useTableCache(dir);
      // Kept by the synchronous read, whose lines are read lazily: the entry still has them all.
      await loadGrammar(language);
      const before = entries(dir).length;
      expect(JSON.parse(JSON.stringify(fileDeclarations(copyOf(sample), 'x')))).toEqual(parsed);
      expect(entries(dir).length).toBe(before + 1);
      const text = fs.readFileSync(path.join(FIXTURES, sample), 'utf8');
      expect(keptTable(text, language)).toEqual(parsed);
      // Read back by each reader, from a path not cached in memory.
      expect(await loadFileDeclarations(copyOf(sample), 'x')).toEqual(parsed);
      expect(fileDeclarations(copyOf(sample), 'x')).toEqual(parsed);
      expect(textDeclarations(text, language, 'x')).toEqual(parsed);
      expect(entries(dir).length).toBe(before + 1);
    }
  });

  it('answers from the entry, not from a parse, when the text is the same (so the entry is what is read)', async () => {
    const dir = path.join(tmpDir(), 'cache');
    useTableCache(dir);
    const text = 'func one() {}\nfunc two() {}\n';
    await loadFileDeclarations(copyOf('a.swift', text), 'x');
    const [name] = entries(dir);
    const file = path.join(dir, name!);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"two","two"', '"kept","kept"'));
    expect((await loadFileDeclarations(copyOf('b.swift', text), 'x')).map((d) => d.path)).toEqual(['one', 'kept']);
  });

  it('never answers for other text: one changed byte, same size, is parsed anew', async () => {
    const dir = path.join(tmpDir(), 'cache');
    useTableCache(dir);
    await loadFileDeclarations(copyOf('a.swift', 'func one() {}\nfunc two() {}\n'), 'x');
    const changed = await loadFileDeclarations(copyOf('a.swift', 'func one() {}\nfunc tww() {}\n'), 'x');
    expect(changed.map((d) => d.path)).toEqual(['one', 'tww']);
    expect(entries(dir)).toHaveLength(2);
    // The same text in another language is another entry.
    const language = symbolLanguageOf('a.kt')!;
    expect(keptTable('func one() {}\nfunc two() {}\n', language)).toBeNull();
  });

  it('treats an entry that is not a well-formed table as a miss, removes it and parses', async () => {
    const text = 'class A {\n  func f() {}\n}\n';
    const bad: ((json: string) => string)[] = [
      () => 'not json',
      () => '{"format":1,"language":"swift"}',
      (j) => j.replace('"format":1', '"format":0'),
      (j) => j.replace('"language":"swift"', '"language":"kotlin"'),
      // a parent that does not come before its member
      (j) => j.replace(/,0\]\]/, ',5]]'),
      // a kind refcat does not have
      (j) => j.replace(/"f",1,/, '"f",99,'),
      // a line that is not a line
      (j) => j.replace(/"f",1,2,/, '"f",1,0,'),
      (j) => j.slice(0, j.length / 2),
    ];
    useTableCache(null);
    const parsed = await loadFileDeclarations(copyOf('a.swift', text), 'x');
    expect(parsed.map((d) => d.path)).toEqual(['A', 'A.f']);
    for (const spoil of bad) {
      const dir = path.join(tmpDir(), 'cache');
      useTableCache(dir);
      await loadFileDeclarations(copyOf('a.swift', text), 'x');
      const [name] = entries(dir);
      const file = path.join(dir, name!);
      const spoiled = spoil(fs.readFileSync(file, 'utf8'));
      expect(spoiled).not.toBe(fs.readFileSync(file, 'utf8'));
      fs.writeFileSync(file, spoiled);
      expect(await loadFileDeclarations(copyOf('a.swift', text), 'x')).toEqual(parsed);
      // Removed on the miss, kept again from the parse.
      expect(JSON.parse(fs.readFileSync(file, 'utf8')).rows).toHaveLength(2);
    }
  });

  it('neither reads nor writes a folder that others can write to (a planted table is never an answer)', async () => {
    const text = 'func one() {}\nfunc two() {}\n';
    const dir = path.join(tmpDir(), 'cache');
    useTableCache(dir);
    await loadFileDeclarations(copyOf('a.swift', text), 'x');
    const [name] = entries(dir);
    const file = path.join(dir, name!);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"two","two"', '"planted","planted"'));
    fs.chmodSync(dir, 0o777);
    useTableCache(dir);
    expect((await loadFileDeclarations(copyOf('b.swift', text), 'x')).map((d) => d.path)).toEqual(['one', 'two']);
    await loadFileDeclarations(copyOf('c.swift', 'func three() {}\n'), 'x');
    expect(entries(dir)).toEqual([name]);
    // Writable by its owner only again: used again (so the test above can fail).
    fs.chmodSync(dir, 0o700);
    useTableCache(dir);
    expect((await loadFileDeclarations(copyOf('d.swift', text), 'x')).map((d) => d.path)).toEqual(['one', 'planted']);
  });

  it('keeps at most its bound: the least recently used entries go first', () => {
    const dir = tmpDir();
    for (let i = 0; i < 12; i++) {
      const file = path.join(dir, `${i}.json`);
      fs.writeFileSync(file, '{}');
      fs.utimesSync(file, new Date(1_000_000 + i * 1000), new Date(1_000_000 + i * 1000));
    }
    prune(dir, 10);
    expect(fs.readdirSync(dir).sort((a, b) => parseInt(a) - parseInt(b))).toEqual(['5.json', '6.json', '7.json', '8.json', '9.json', '10.json', '11.json']);
    prune(dir, 10);
    expect(fs.readdirSync(dir)).toHaveLength(7);
  });

  it('lives in the sdqctl home, and REFCAT_SYMBOL_CACHE=0 turns it off', () => {
    const ctx = testCtx('/');
    expect(tableCacheDir(ctx)).toBe(path.join(ctx.env.SDQCTL_HOME!, 'cache', 'symbols'));
    expect(tableCacheDir({ ...ctx, env: { ...ctx.env, REFCAT_SYMBOL_CACHE: '0' } })).toBeNull();
    expect(tableCacheDir({ cwd: '/', home: '', env: {} })).toBeNull();
  });

  it('a symbol ref gives the same lines from a kept table as from a parse; with the cache off nothing is written', async () => {
    const cwd = tmpDir({ 'a.py': 'def one():\n    return 1\n\n\ndef two():\n    return 2\n' });
    const home = tmpDir();
    const env = { HOME: home, SDQCTL_HOME: path.join(home, '.sdqctl') };
    const first = await refcatInProcess(['@a.py#two', '--spec'], { cwd, env });
    expect(first.stdout).toBe('@a.py#L5-L6\n');
    const dir = path.join(home, '.sdqctl', 'cache', 'symbols');
    expect(entries(dir)).toHaveLength(1);
    fs.writeFileSync(path.join(cwd, 'b.py'), fs.readFileSync(path.join(cwd, 'a.py')));
    expect((await refcatInProcess(['@b.py#two', '--spec'], { cwd, env })).stdout).toBe('@b.py#L5-L6\n');
    const off = tmpDir();
    await refcatInProcess(['@a.py#two', '--spec'], { cwd, env: { HOME: off, SDQCTL_HOME: path.join(off, '.sdqctl'), REFCAT_SYMBOL_CACHE: '0' } });
    expect(fs.existsSync(path.join(off, '.sdqctl', 'cache'))).toBe(false);
  });
});

describe('the table cache, found by review', () => {
  it('a folder that was not there when first asked is checked again once it is: one made group-writable meanwhile is not used', async () => {
    const dir = path.join(tmpDir(), 'symbols');
    useTableCache(dir);
    // First symbol ref: the folder is not there yet (a miss, nothing written as the folder is made below).
    const language = symbolLanguageOf('a.swift')!;
    expect(keptTable('func one() {}\n', language)).toBeNull();
    // Someone else makes it, writable by all, before this process keeps a table.
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o777);
    await loadFileDeclarations(copyOf('e.swift', 'func two() {}\n'), 'x');
    expect(entries(dir)).toEqual([]);
  });

  it('pruning passes over an entry that is a folder instead of throwing', () => {
    const dir = tmpDir();
    fs.mkdirSync(path.join(dir, 'a-folder.json'));
    fs.utimesSync(path.join(dir, 'a-folder.json'), 1, 1);
    for (let i = 0; i < 4; i++) {
      fs.writeFileSync(path.join(dir, `${i}.json`), '{}');
      fs.utimesSync(path.join(dir, `${i}.json`), 10 + i, 10 + i);
    }
    expect(() => prune(dir, 2)).not.toThrow();
    expect(fs.readdirSync(dir).filter((n) => n !== 'a-folder.json')).toHaveLength(1);
  });
});

describe('the table cache on a disk it cannot change', () => {
  it('a malformed entry it cannot remove (read-only disk) is a miss, not an error', async () => {
    const dir = path.join(tmpDir(), 'cache');
    useTableCache(dir);
    const text = 'func one() {}\n';
    await loadFileDeclarations(copyOf('f.swift', text), 'x');
    const [name] = entries(dir);
    fs.writeFileSync(path.join(dir, name!), 'not a table');
    const rm = vi.spyOn(fs, 'rmSync').mockImplementation(() => {
      throw Object.assign(new Error('EROFS: read-only file system'), { code: 'EROFS' });
    });
    try {
      expect((await loadFileDeclarations(copyOf('g.swift', text), 'x')).map((d) => d.path)).toEqual(['one']);
    } finally {
      rm.mockRestore();
    }
  });
});
