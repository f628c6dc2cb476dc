import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledRuntime, engineLoaded } from '../../src/core/symbols/grammar-loader.js';
import { holdsAtLeast, planOutlineEngine } from '../../src/core/symbols/prepare-outline.js';
import { REPO } from '../helpers/cli.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

// The other side of outline-runtime.test.ts, in modules of its own (vitest gives each test file
// its own): an outline of less than 1 MiB of code compiles all of tree-sitter with the baseline
// compiler, as a symbol ref does (docs/design/symbols.md#the-runtime-optimized).

describe('an outline of less than 1 MiB of code', () => {
  it('compiles no runtime of its own to be optimized', async () => {
    const dir = tmpDir();
    for (const f of ['grammar-loader.ts', 'prepare-outline.ts', 'query-walk.ts']) fs.copyFileSync(path.join(REPO, 'src/core/symbols', f), path.join(dir, f));
    expect(engineLoaded()).toBe(false);
    const r = await refcatInProcess(['@*.ts', '--outline'], { cwd: dir, env: { REFCAT_SYMBOL_CACHE: '0' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('export function planOutlineEngine');
    expect(engineLoaded()).toBe(true);
    expect(compiledRuntime()).toBeNull();
  });

  it('once tree-sitter is loaded, an outline\'s plan lists no file', () => {
    expect(engineLoaded()).toBe(true);
    planOutlineEngine(() => {
      throw new Error('listed');
    });
  });
});

describe('holdsAtLeast', () => {
  it('reads sizes in order until the sum is reached, and counts a file it cannot read as empty', () => {
    const dir = tmpDir();
    const a = path.join(dir, 'a.ts');
    fs.writeFileSync(a, 'x'.repeat(600));
    const files = [path.join(dir, 'missing.ts'), path.join(a, 'not-a-folder.ts'), a, a];
    // A fifth file is never read: the first four hold 1,200 bytes.
    Object.defineProperty(files, 4, {
      get() {
        throw new Error('read past the sum');
      },
    });
    (files as string[]).length = 5;
    expect(holdsAtLeast(files, 1200)).toBe(true);
    expect(holdsAtLeast(files.slice(0, 3), 601)).toBe(false);
    expect(holdsAtLeast([], 1)).toBe(false);
  });
});
