// An outline asks V8 not to optimize its declaration walker (src/cli/tiering.ts,
// docs/design/symbols.md#the-walker-left-unoptimized), by the walker's name: the name must be the
// one V8 sees in both threads' bundles, and in a real outline the walker must stay unoptimized
// while the rest of the JavaScript is optimized as before. The definitions query is compiled with
// none of tree-sitter's functions optimized (grammar-loader.ts, #the-query-compiled-once): the
// functions only the compile runs stay on V8's baseline compiler.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
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
    const r = tracedOutline('--trace-opt');
    expect(r.status, r.stderr).toBe(0);
    const optimized = r.stdout.split('\n').filter((l) => l.startsWith('[completed optimizing'));
    expect(optimized.length).toBeGreaterThan(0);
    expect(optimized.filter((l) => l.includes(`<JSFunction ${name} `))).toEqual([]);
  });

  it.runIf(onV8Measured)("leaves the query's compile on the baseline compiler, in a real outline", () => {
    const r = tracedOutline('--trace-wasm-compilation-times');
    expect(r.status, r.stderr).toBe(0);
    const runtime = createRequire(import.meta.url).resolve('web-tree-sitter/tree-sitter.wasm');
    const names = wasmFunctionNames(fs.readFileSync(runtime));
    const compiled = (tier: string) =>
      new Set([...r.stdout.matchAll(new RegExp(`^Compiled function 0x[0-9a-f]+#(\\d+) using ${tier}`, 'gm'))].map((m) => names.get(Number(m[1]))));
    // Compiled, so the names read here are V8's: on the baseline compiler, and never optimized.
    for (const f of ['ts_query_new', 'ts_query__parse_pattern', 'ts_query__perform_analysis']) {
      expect(compiled('Liftoff').has(f), f).toBe(true);
      expect(compiled('TurboFan').has(f), f).toBe(false);
    }
  });
});

/**
 * The outline bench 14 times (this repository's sources and tests, every file parsed, no cache),
 * in a process run with V8's `trace` flag: what V8 traces comes on stdout with the outline.
 */
function tracedOutline(trace: string) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-tiering-'));
  try {
    return spawnSync(process.execPath, [trace, BIN, '@src/**/*.ts', '@test/**/*.ts', '--outline'], {
      cwd: REPO,
      env: { PATH: process.env.PATH, HOME: home, SDQCTL_HOME: home, REFCAT_SYMBOL_CACHE: '0' },
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

/** A WebAssembly module's function names by index (its `name` section; indices count imports first, as V8's do). */
function wasmFunctionNames(bytes: Buffer): Map<number, string> {
  const names = new Map<number, string>();
  let p = 8;
  const leb = () => {
    let n = 0;
    for (let shift = 0; ; shift += 7) {
      const b = bytes[p++]!;
      n += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return n;
    }
  };
  while (p < bytes.length) {
    const id = bytes[p++];
    const end = leb() + p;
    if (id === 0) {
      const nameLength = leb();
      const section = bytes.toString('utf8', p, p + nameLength);
      p += nameLength;
      while (section === 'name' && p < end) {
        const sub = bytes[p++];
        const subEnd = leb() + p;
        if (sub === 1) {
          for (let count = leb(); count > 0; count--) {
            const index = leb();
            const length = leb();
            names.set(index, bytes.toString('utf8', p, p + length));
            p += length;
          }
        }
        p = subEnd;
      }
    }
    p = end;
  }
  return names;
}
