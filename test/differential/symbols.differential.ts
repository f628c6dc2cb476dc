import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import os from 'node:os';
import type { Declaration } from '../../src/core/symbols/declaration.js';
import { declarationsOfText, textDeclarations } from '../../src/core/symbols/declaration-table.js';
import { loadGrammar } from '../../src/core/symbols/grammar-loader.js';
import { MAX_SYMBOL_FILE_BYTES, type SymbolLanguage, symbolLanguageOf } from '../../src/core/symbols/languages.js';
import { resolveSymbol } from '../../src/core/symbols/resolve-symbol.js';
import { selectSymbolInText } from '../../src/core/symbols/select-symbol.js';
import { keptTable, useTableCache } from '../../src/core/symbols/table-cache.js';
import { INDEPENDENT_RULES, independentWalk } from './independent-walk.js';

/**
 * The differential test of refs by name (CONTRIBUTING.md#the-differential-test), on real source:
 * REFCAT_DIFFERENTIAL_REPOS names git repositories (bare or not, comma-separated); every file at
 * their HEAD in a language the independent walk knows is read two ways: the declarations
 * `refcat symbols` lists, and an independent walk of the parse tree (independent-walk.ts),
 * compared as sets of (path, kind, name line, end line). Every difference is listed (and written
 * to REFCAT_DIFFERENTIAL_REPORT when set).
 */

const repos = (process.env.REFCAT_DIFFERENTIAL_REPOS ?? '').split(',').filter(Boolean);
const report = process.env.REFCAT_DIFFERENTIAL_REPORT;

interface SourceFile {
  repo: string;
  path: string;
  language: SymbolLanguage;
  text: string;
}

function gitDir(repo: string): string {
  return fs.existsSync(path.join(repo, '.git')) ? path.join(repo, '.git') : repo;
}

/** The files at HEAD that both readings know, read with one `git cat-file --batch`. */
function sourceFiles(repo: string): SourceFile[] {
  const dir = gitDir(repo);
  const listing = execFileSync('git', ['--git-dir', dir, 'ls-tree', '-r', '-l', 'HEAD'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const wanted: { path: string; oid: string; language: SymbolLanguage }[] = [];
  for (const line of listing.split('\n')) {
    const m = /^\d+ blob ([0-9a-f]+)\s+(\d+)\t(.+)$/.exec(line);
    if (!m) continue;
    const language = symbolLanguageOf(m[3]!);
    if (!language || !INDEPENDENT_RULES[language.id] || Number(m[2]) > MAX_SYMBOL_FILE_BYTES) continue;
    wanted.push({ path: m[3]!, oid: m[1]!, language });
  }
  const batch = execFileSync('git', ['--git-dir', dir, 'cat-file', '--batch'], { input: wanted.map((w) => w.oid).join('\n') + '\n', maxBuffer: 1 << 30 });
  const out: SourceFile[] = [];
  let at = 0;
  for (const w of wanted) {
    const nl = batch.indexOf(10, at);
    const size = Number(batch.subarray(at, nl).toString().split(' ')[2]);
    out.push({ repo: path.basename(repo.replace(/\/(repo|\.git)\/?$/, '')), path: w.path, language: w.language, text: batch.subarray(nl + 1, nl + 1 + size).toString('utf8') });
    at = nl + 1 + size + 1;
  }
  return out;
}

/** What a symbol path can say (docs/symbols.md#the-grammar). */
const SYMBOL_NAME = /^[\p{L}\p{N}_$]+[!?]?$/u;

const key = (d: { path: string; kind: string; nameLine: number; endLine: number }) => `${d.path} ${d.kind} L${d.nameLine}-L${d.endLine}`;

/** Items of `a` not in `b`, as multisets. */
function minus(a: string[], b: string[]): string[] {
  const left = new Map<string, number>();
  for (const k of b) left.set(k, (left.get(k) ?? 0) + 1);
  return a.filter((k) => {
    const n = left.get(k) ?? 0;
    if (n > 0) left.set(k, n - 1);
    return n === 0;
  });
}

describe('refs by name on real source', () => {
  it('has repositories to read (REFCAT_DIFFERENTIAL_REPOS)', () => {
    expect(repos.length, 'set REFCAT_DIFFERENTIAL_REPOS to git repositories, comma-separated (CONTRIBUTING.md#the-differential-test)').toBeGreaterThan(0);
  });

  const files = repos.flatMap(sourceFiles);
  const lines: string[] = [];
  const languages = [...new Set(files.map((f) => f.language.id))].sort();

  it(`refcat's declarations equal an independent walk (${files.length} files: ${languages.join(', ')})`, async () => {
    let declarations = 0;
    let unnamed = 0;
    const differing: string[] = [];
    for (const f of files) {
      const grammar = await loadGrammar(f.language);
      const table = await declarationsOfText(f.text, f.language);
      // Listed on purpose though no symbol path can say them (docs/symbols.md#known-differences):
      // private members (`#x`), computed names (`[Symbol.dispose]`), quoted module names.
      const unsayable = table.filter((d) => !SYMBOL_NAME.test(d.name));
      unnamed += unsayable.length;
      const ours = table.filter((d) => SYMBOL_NAME.test(d.name)).map((d) => key(d));
      const tree = grammar.parser.parse(f.text)!;
      let theirs: string[];
      try {
        theirs = independentWalk(tree.rootNode, f.language.id).map(key);
      } finally {
        tree.delete();
      }
      declarations += ours.length;
      const onlyOurs = minus(ours, theirs);
      const onlyTheirs = minus(theirs, ours);
      if (onlyOurs.length === 0 && onlyTheirs.length === 0) continue;
      differing.push(`${f.repo}:${f.path}`);
      lines.push(`${f.repo}:${f.path}`);
      for (const k of onlyOurs) lines.push(`  only refcat:       ${k}`);
      for (const k of onlyTheirs) lines.push(`  only the walk:     ${k}`);
    }
    lines.unshift(`${files.length} files, ${declarations} declarations listed by refcat (${unnamed} with names no symbol path can say, not compared), ${differing.length} files differ`);
    console.log(lines.join('\n'));
    if (report) fs.writeFileSync(report, lines.join('\n') + '\n');
    expect(differing).toEqual([]);
  });

  it(`a table kept on disk reads back as the table a parse gives (${files.length} files; docs/symbols.md#the-table-cache)`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-differential-cache-'));
    const differing: string[] = [];
    try {
      for (const f of files) {
        await loadGrammar(f.language);
        useTableCache(null);
        const parsed = JSON.stringify(await declarationsOfText(f.text, f.language));
        useTableCache(dir);
        // Kept by the synchronous reader, read back by both.
        const written = JSON.stringify(textDeclarations(f.text, f.language, f.path));
        const kept = keptTable(f.text, f.language);
        if (written !== parsed || kept === null || JSON.stringify(kept) !== parsed || JSON.stringify(textDeclarations(f.text, f.language, f.path)) !== parsed) differing.push(`${f.repo}:${f.path}`);
      }
    } finally {
      useTableCache(null);
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(differing).toEqual([]);
  });

  it(`a symbol ref read by its own names resolves as the whole table does (${files.length} files; docs/design/symbols.md#a-symbol-ref-reads-its-own-names)`, async () => {
    useTableCache(null);
    const differing: string[] = [];
    let refs = 0;
    for (const f of files) {
      await loadGrammar(f.language);
      const whole = textDeclarations(f.text, f.language, f.path);
      const abs = `/x/${f.path}`;
      for (const p of new Set(whole.map((d) => d.path))) {
        const count = whole.filter((d) => d.path === p).length;
        for (const index of count > 1 ? [null, ...Array.from({ length: count }, (_, i) => i + 1)] : [null]) {
          const sel = { kind: 'symbol' as const, path: p, index, window: null };
          refs++;
          const want = outcome(() => resolveSymbol(whole, sel, 'r'));
          const got = outcome(() => selectSymbolInText(f.text, abs, sel, 'r').declaration);
          if (got !== want) differing.push(`${f.repo}:${f.path}#${p}${index === null ? '' : `~${index}`}\n  whole: ${want}\n  named: ${got}`);
        }
      }
    }
    console.log(`${refs} refs by name in ${files.length} files, ${differing.length} resolved otherwise`);
    expect(differing).toEqual([]);
  });
});

/** A resolution as text: the declaration's fields but its place in its table, or the error. */
function outcome(resolve: () => Declaration): string {
  try {
    const { index: _i, parent: _p, ...fields } = JSON.parse(JSON.stringify(resolve())) as Declaration;
    return JSON.stringify(fields);
  } catch (err) {
    return `error: ${(err as Error).message}`;
  }
}
