import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledRuntime, engineLoaded } from '../../src/core/symbols/grammar-loader.js';
import { holdsAtLeast, OPTIMIZED_RUNTIME_BYTES, planEngine } from '../../src/core/symbols/plan-engine.js';
import { REPO } from '../helpers/cli.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { codeTree } from '../helpers/code-tree.js';
import { tmpDir } from '../helpers/tmp.js';

// The other side of outline-runtime.test.ts, in modules of its own (vitest gives each test file
// its own): an outline of less than 1 MiB of code compiles all of tree-sitter with the baseline
// compiler, as a symbol ref does (docs/design/symbols.md#the-runtime-optimized).

describe('an outline of less than 1 MiB of code', () => {
  it('compiles no runtime of its own to be optimized', async () => {
    const dir = tmpDir();
    for (const f of ['grammar-loader.ts', 'plan-engine.ts', 'query-walk.ts']) fs.copyFileSync(path.join(REPO, 'src/core/symbols', f), path.join(dir, f));
    expect(engineLoaded()).toBe(false);
    const r = await refcatInProcess(['@*.ts', '--outline'], { cwd: dir, env: { REFCAT_SYMBOL_CACHE: '0' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('export function planEngine');
    expect(engineLoaded()).toBe(true);
    expect(compiledRuntime()).toBeNull();
  });

  it('once tree-sitter is loaded, an outline\'s plan lists no file', () => {
    expect(engineLoaded()).toBe(true);
    planEngine(() => {
      throw new Error('listed');
    });
  });
});

describe('the runtime optimized reads what the baseline compiler reads', () => {
  it('an outline and a listing of 1 MiB by the built command (runtime optimized) equal those made here (baseline compiler only)', async () => {
    expect(compiledRuntime()).toBeNull();
    const dir = codeTree(OPTIMIZED_RUNTIME_BYTES + 64 * 1024);
    const env = { PATH: process.env.PATH ?? '', HOME: dir, REFCAT_SYMBOL_CACHE: '0' };
    for (const args of [['@**/*.ts', '--outline'], ['symbols', '@**/*.ts', '--json']]) {
      const here = await refcatInProcess(args, { cwd: dir, env: { REFCAT_SYMBOL_CACHE: '0' } });
      const built = spawnSync(process.execPath, [path.join(REPO, 'bin/refcat.js'), ...args], { cwd: dir, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      expect(built.stderr).toBe('');
      expect(built.status).toBe(0);
      expect(here.code).toBe(0);
      expect(built.stdout).toBe(here.stdout);
    }
    expect(compiledRuntime()).toBeNull();
  }, 300_000);
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
