// `verify refs` reads a symbol ref's table kept by an earlier run without loading the grammar
// (docs/symbols.md#the-table-cache); a grammar is loaded when a table has to be parsed, and the
// ref that needed it is checked again then: the same verdicts either way.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadedGrammar } from '../../src/core/symbols/grammar-loader.js';
import { symbolLanguageOf } from '../../src/core/symbols/languages.js';
import { keepTable } from '../../src/core/symbols/table-cache.js';
import { useTableCache } from '../../src/core/symbols/table-cache-folder.js';
import type { Declaration } from '../../src/core/symbols/declaration.js';
import { GitRepo } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

const KEPT = 'export function greet(name: string) {\n  return `hi ${name}`;\n}\n';
const PARSED = 'export class Store {\n  save() {\n    return 1;\n  }\n}\n';

/** A table of KEPT, as an earlier run would have kept it. */
const keptRows: Declaration[] = [
  { index: 0, path: 'greet', name: 'greet', kind: 'function', startLine: 1, declLine: 1, nameLine: 1, endLine: 3, bodyStart: 1, parent: null },
];

function workspace(docs: Record<string, string>): { dir: string; home: string } {
  const dir = tmpDir();
  const home = path.join(tmpDir(), '.sdqctl');
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'src', 'kept.ts'), KEPT);
  fs.writeFileSync(path.join(dir, 'src', 'parsed.ts'), PARSED);
  for (const [name, text] of Object.entries(docs)) fs.writeFileSync(path.join(dir, name), text);
  // The table of kept.ts, as an earlier run kept it.
  useTableCache(path.join(home, 'cache', 'symbols'));
  keepTable(KEPT, symbolLanguageOf('kept.ts')!, keptRows);
  return { dir, home };
}

const verify = (dir: string, home: string) => refcatInProcess(['verify', 'refs', '.', '--json'], { cwd: dir, env: { SDQCTL_HOME: home } });

describe('verify refs and the grammars of symbol refs', () => {
  it('reads a kept table without loading the grammar, and loads it for the first table it parses', async () => {
    const typescript = symbolLanguageOf('a.ts')!;
    expect(loadedGrammar(typescript)).toBeNull();
    const { dir, home } = workspace({ 'a.md': 'See @src/kept.ts#greet and @src/kept.ts#gone.\n' });
    const first = JSON.parse((await verify(dir, home)).stdout);
    expect(first.valid).toBe(1);
    expect(first.errors.map((e: { ref: string; message: string }) => [e.ref, e.message])).toEqual([
      ['@src/kept.ts#gone', expect.stringContaining("'gone'")],
    ]);
    expect(loadedGrammar(typescript)).toBeNull();

    // A second doc whose ref needs a parse: the grammar loads then, and the ref is judged as any.
    fs.writeFileSync(path.join(dir, 'b.md'), 'And @src/parsed.ts#Store.save, @src/parsed.ts#Store.lost.\n');
    const second = JSON.parse((await verify(dir, home)).stdout);
    expect(loadedGrammar(typescript)).not.toBeNull();
    expect(second.valid).toBe(2);
    const messages = second.errors.map((e: { ref: string; code: string }) => [e.ref, e.code]);
    expect(messages).toEqual([
      ['@src/kept.ts#gone', first.errors[0].code],
      ['@src/parsed.ts#Store.lost', first.errors[0].code],
    ]);
    expect(JSON.stringify(second)).not.toContain('grammar_not_loaded');
  });

  it('a ref checked again once its grammar is loaded keeps the warnings given once a run (a pin not read)', async () => {
    // Python: a grammar the test above did not load.
    const python = symbolLanguageOf('a.py')!;
    expect(loadedGrammar(python)).toBeNull();
    const dir = tmpDir({ 'workspace.lock.json': JSON.stringify({ repos: [{ alias: 'ext', name: 'ext', ref: '-x' }] }), 'a.md': 'See @ext:src/a.py#greet.\n' });
    GitRepo.init({ 'src/a.py': 'def greet(name):\n    return name\n' }, path.join(dir, 'externals', 'ext')).commit('c1');
    const home = path.join(tmpDir(), '.sdqctl');
    const r = await refcatInProcess(['verify', 'refs', 'a.md', '--strict', '--json'], { cwd: dir, env: { SDQCTL_HOME: home } });
    expect(loadedGrammar(python)).not.toBeNull();
    const report = JSON.parse(r.stdout);
    expect(report.valid).toBe(1);
    expect(report.warnings.map((w: { code: string; message: string }) => [w.code, w.message])).toEqual([['pin_unread', expect.stringContaining("'-x'")]]);
    expect(r.code).toBe(1);
    // The same, read with the table kept: one warning, the same.
    const again = await refcatInProcess(['verify', 'refs', 'a.md', '--strict', '--json'], { cwd: dir, env: { SDQCTL_HOME: home } });
    expect(JSON.parse(again.stdout).warnings).toEqual(report.warnings);
  });
});
