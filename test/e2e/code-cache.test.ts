// The bin compiles the CLI bundle from the V8 code cache the build makes (bin/bundle.cjs,
// bin/code-cache.cjs). A cache is only ever a speed-up: V8 must accept the one the build made, and
// without one, or with a damaged one, the command prints the same bytes.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, REPO } from '../helpers/cli.js';

const bundle = path.join(REPO, 'dist/bin/main.cjs');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-code-cache-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A copy of the bin and the bundle in a folder of its own, with `cache` as its code cache. */
function install(name: string, cache: Buffer | null): string {
  const root = path.join(tmp, name);
  fs.mkdirSync(path.join(root, 'dist/bin'), { recursive: true });
  fs.cpSync(path.join(REPO, 'bin'), path.join(root, 'bin'), { recursive: true });
  fs.copyFileSync(bundle, path.join(root, 'dist/bin/main.cjs'));
  if (cache) fs.writeFileSync(path.join(root, 'dist/bin/main.cjs.cache'), cache);
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'));
  return path.join(root, 'bin/refcat.js');
}

function run(bin: string, args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: REPO, env: { PATH: process.env.PATH, HOME: tmp }, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the code cache', () => {
  it('the build made one, and V8 in a new process takes it', () => {
    const check = [
      "const vm = require('node:vm'), fs = require('node:fs'), M = require('node:module');",
      `const { cachedDataFor } = require(${JSON.stringify(path.join(REPO, 'bin/bundle.cjs'))});`,
      `const file = ${JSON.stringify(bundle)}, source = fs.readFileSync(file), cachedData = cachedDataFor(file, source);`,
      "if (!cachedData) throw new Error('no cache, or one that does not match the bundle');",
      "const s = new vm.Script(M.wrap(source.toString('utf8')), { filename: file, cachedData });",
      'process.stdout.write(String(s.cachedDataRejected));',
    ].join('\n');
    const r = spawnSync(process.execPath, ['-e', check], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('false');
  });

  it('without a cache, or with a damaged one, the same command prints the same bytes', () => {
    const args = ['@package.json#L1-L4', '--json'];
    const withCache = run(BIN, args);
    expect(withCache.code).toBe(0);
    const kept = fs.readFileSync(`${bundle}.cache`);
    // V8 itself checks only a header: bytes changed further in crashed the process (SIGSEGV).
    const damaged = Buffer.from(kept);
    for (let i = 2000; i < damaged.length; i += 997) damaged[i] ^= 0x5a;
    // A cache made for another bundle of the same length: V8 would run the old bytecode.
    const otherBundle = Buffer.concat([Buffer.from(`${'0'.repeat(64)}\n`), kept.subarray(65)]);
    for (const [name, cache] of [
      ['none', null],
      ['damaged', damaged],
      ['other-bundle', otherBundle],
      ['empty', Buffer.alloc(0)],
      ['other', Buffer.from('not a code cache\n')],
    ] as const) {
      const r = run(install(name, cache), args);
      expect({ name, ...r }).toEqual({ name, ...withCache });
    }
  });

  it('a missing bundle is one line from require(), as before the cache', () => {
    const root = path.join(tmp, 'unbuilt');
    fs.mkdirSync(root);
    fs.cpSync(path.join(REPO, 'bin'), path.join(root, 'bin'), { recursive: true });
    const r = run(path.join(root, 'bin/refcat.js'), ['@package.json#L1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Cannot find module '.*main\.cjs'/);
  });
});

describe('the bundles', () => {
  // bin/bundle-cli.mjs: `import fs from 'node:fs'` in 60 modules is one namespace object, not 60
  // copies of fs's exports made as each module first runs.
  it.each(['main', 'parse-worker', 'count-worker'])('%s.cjs makes one namespace object per Node built-in', (name) => {
    const text = fs.readFileSync(path.join(REPO, `dist/bin/${name}.cjs`), 'utf8');
    expect(text).not.toContain('__toESM(require("node:');
    const shared = text.split('__builtinESM(require("node:').length - 1;
    expect(text.split('var __builtinESM = ').length - 1).toBe(shared > 0 ? 1 : 0);
    if (name !== 'count-worker') expect(shared).toBeGreaterThan(5);
  });

  it('a module gets the same namespace object of a built-in as every other', () => {
    // Two rooms of the CLI that import node:path by default import: one object, the module itself under `default`.
    const probe = [
      `const vm = require('node:vm'), fs = require('node:fs'), M = require('node:module');`,
      `const file = ${JSON.stringify(bundle)};`,
      `const text = fs.readFileSync(file, 'utf8').replace('var __builtinESM = ', 'var __builtinESM = globalThis.__probe = ');`,
      `const req = M.createRequire(file);`,
      `new vm.Script(M.wrap(text), { filename: file }).runInThisContext()({}, req, { exports: {} }, file, require('node:path').dirname(file));`,
      `const a = globalThis.__probe(require('node:path'), 1), b = globalThis.__probe(require('node:path'), 1);`,
      `process.stdout.write(String(a === b && a.default === require('node:path') && a.join === require('node:path').join));`,
    ].join('\n');
    const r = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('true');
  });
});
