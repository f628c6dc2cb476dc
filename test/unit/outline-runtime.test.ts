import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDeclarations } from '../../src/core/symbols/declaration-table.js';
import { parseWorkerFile } from '../../src/core/symbols/declaration-worker.js';
import { compiledRuntime, engineLoaded, loadGrammar } from '../../src/core/symbols/grammar-loader.js';
import { symbolLanguageOf } from '../../src/core/symbols/languages.js';
import { OPTIMIZED_RUNTIME_BYTES } from '../../src/core/symbols/plan-engine.js';
import { planTablesAhead, TablesAhead } from '../../src/core/symbols/tables-ahead.js';
import { REPO } from '../helpers/cli.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { codeTree } from '../helpers/code-tree.js';

// An outline of much code compiles tree-sitter's runtime to be optimized, and its worker shares it
// (docs/design/symbols.md#the-runtime-optimized). Vitest gives each test file its own modules, so
// nothing has loaded tree-sitter in this one before the outline below: the plan decides.

afterAll(() => planTablesAhead(null));

describe('an outline of at least 1 MiB of code', () => {
  it('compiles tree-sitter\'s runtime before the grammars, keeps it for the worker, and prints what the built command prints', async () => {
    const dir = codeTree(OPTIMIZED_RUNTIME_BYTES + 64 * 1024);
    expect(engineLoaded()).toBe(false);
    const r = await refcatInProcess(['@**/*.ts', '--outline'], { cwd: dir, env: { REFCAT_SYMBOL_CACHE: '0' } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(compiledRuntime()).not.toBeNull();
    // The built command, in a process of its own (its worker instantiates the runtime it is sent).
    const { spawnSync } = await import('node:child_process');
    const built = spawnSync(process.execPath, [path.join(REPO, 'bin/refcat.js'), '@**/*.ts', '--outline'], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: dir, REFCAT_SYMBOL_CACHE: '0' },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(built.stderr).toBe('');
    expect(built.status).toBe(0);
    expect(built.stdout).toBe(r.stdout);
  }, 300_000);

  it('the worker reads tables with the runtime it is handed, the same tables as this thread', async () => {
    // After the outline above: this thread's runtime is the one compiled to be optimized.
    expect(compiledRuntime()).not.toBeNull();
    const dir = codeTree(300 * 1024);
    const files = fs
      .readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .sort()
      .map((f) => path.join(dir, f));
    const workerFile = parseWorkerFile();
    if (!workerFile) throw new Error('dist/core/symbols/parse-worker.js is missing: run npm run build first');
    const ahead = new TablesAhead(files, workerFile);
    try {
      const grammar = await loadGrammar(symbolLanguageOf(files[0]!)!);
      ahead.missed(files[0]!);
      while (ahead.posted() < 5) await new Promise((r) => setTimeout(r, 20));
      for (const file of files.slice(1)) {
        const text = fs.readFileSync(file, 'utf8');
        const table = ahead.take(file, text);
        if (table === null) ahead.missed(file);
        else expect(table, file).toEqual(parseDeclarations(text, grammar));
      }
      expect(ahead.taken).toBeGreaterThanOrEqual(5);
    } finally {
      ahead.close();
    }
  }, 300_000);
});
