// An outline asks V8 not to optimize its declaration walker (src/cli/tiering.ts,
// docs/design/symbols.md#the-walker-left-unoptimized), by the walker's name: the name must be the
// one V8 sees in both threads' bundles, and in a real outline the walker must stay unoptimized
// while the rest of the JavaScript is optimized as before.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { declarationWalkerName } from '../../src/core/symbols/read-declarations.js';
import { BIN, REPO } from '../helpers/cli.js';

const name = declarationWalkerName();
const bundles = ['main.cjs', 'parse-worker.cjs'].map((f) => path.join(REPO, 'dist/bin', f));
const onV8Measured = process.versions.v8.startsWith('11.3.');

describe("the outline's declaration walker", () => {
  it('has one name, the same in the sources and in both bundles', () => {
    expect(name).toMatch(/^[A-Za-z_$][\w$]*$/);
    for (const bundle of bundles) {
      const source = fs.readFileSync(bundle, 'utf8');
      // Declared once, under this very name (a bundler renames a function whose name is taken).
      expect(source.split(`function ${name}(`).length - 1, bundle).toBe(1);
      expect(new RegExp(`function ${name}\\d+\\(`).test(source), bundle).toBe(false);
    }
  });

  it.runIf(onV8Measured)('is not optimized in an outline, and other functions still are', () => {
    // As bench 14 outlines it: this repository's sources and tests, where the walker runs hot.
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-tiering-'));
    const r = spawnSync(process.execPath, ['--trace-opt', BIN, '@src/**/*.ts', '@test/**/*.ts', '--outline'], {
      cwd: REPO,
      env: { PATH: process.env.PATH, HOME: home, SDQCTL_HOME: home, REFCAT_SYMBOL_CACHE: '0' },
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    fs.rmSync(home, { recursive: true, force: true });
    expect(r.status, r.stderr).toBe(0);
    const optimized = r.stdout.split('\n').filter((l) => l.startsWith('[completed optimizing'));
    expect(optimized.length).toBeGreaterThan(0);
    expect(optimized.filter((l) => l.includes(`<JSFunction ${name} `))).toEqual([]);
  });
});
