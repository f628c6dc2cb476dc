import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compiledRuntime, engineLoaded } from '../../src/core/symbols/grammar-loader.js';
import { OPTIMIZED_RUNTIME_BYTES } from '../../src/core/symbols/plan-engine.js';
import { codeTree } from '../helpers/code-tree.js';
import { refcatInProcess } from '../helpers/in-process.js';

// `refcat symbols` of much code finds every ref's files first, then compiles tree-sitter's runtime
// to be optimized, as an outline does (docs/design/symbols.md#the-runtime-optimized). In modules
// of its own (vitest gives each test file its own): nothing has loaded tree-sitter before.

describe('a listing of at least 1 MiB of code', () => {
  it('compiles tree-sitter\'s runtime to be optimized and lists every file', async () => {
    const dir = codeTree(OPTIMIZED_RUNTIME_BYTES + 64 * 1024);
    expect(engineLoaded()).toBe(false);
    const r = await refcatInProcess(['symbols', '@**/*.ts', '--json'], { cwd: dir, env: { REFCAT_SYMBOL_CACHE: '0' } });
    expect(r.code).toBe(0);
    const listing = JSON.parse(r.stdout) as { files: unknown[]; errors: unknown[] };
    expect(listing.errors).toEqual([]);
    expect(listing.files.length).toBe(fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).length);
    expect(compiledRuntime()).not.toBeNull();
  }, 300_000);
});
