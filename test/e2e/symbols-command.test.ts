import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

// `refcat symbols` (docs/symbols.md#listing-refcat-symbols).
const APP_TS = [
  'export class Store {', // 1
  '  save(): void {}', // 2
  '  load(): void {}', // 3
  '}', // 4
  'export function parse(a: string): number;', // 5
  'export function parse(a: unknown): number {', // 6
  '  return 1;', // 7
  '}', // 8
].join('\n') + '\n';
const UTIL_PY = 'def helper():\n    pass\n';

function project(): string {
  return tmpDir({ 'src/app.ts': APP_TS, 'src/util.py': UTIL_PY, 'src/README.md': '# Notes\n', 'lib/x.ts': 'export const x = 1;\n' });
}

describe('refcat symbols', () => {
  it('one line per declaration, members under their type, ~N where a path repeats', async () => {
    const r = await refcatInProcess(['symbols', 'src/app.ts'], { cwd: project() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        '@src/app.ts#Store         L1-L4  class',
        '  @src/app.ts#Store.save  L2     method',
        '  @src/app.ts#Store.load  L3     method',
        '@src/app.ts#parse~1       L5     function',
        '@src/app.ts#parse~2       L6-L8  function',
        '',
      ].join('\n'),
    );
  });

  it('every listed ref resolves to its lines', async () => {
    const cwd = project();
    const listed = JSON.parse((await refcatInProcess(['symbols', 'src/app.ts', '--json'], { cwd })).stdout);
    for (const s of listed.files[0].symbols) {
      const spec = (await refcatInProcess([s.ref, '--spec'], { cwd })).stdout.trim();
      expect(spec).toBe(s.start_line === s.end_line ? `@src/app.ts#L${s.start_line}` : `@src/app.ts#L${s.start_line}-L${s.end_line}`);
    }
  });

  it('a name no symbol ref can write (a private member, a computed name, a quoted module, L1) is listed by its lines, so every listed ref reads it', async () => {
    const text = ['export class Store {', '  #secret = 1;', '  [Symbol.dispose](): void {}', '}', 'declare module "http" {', '  export const x: number;', '}', 'export const L1 = 2;', ''].join('\n');
    const cwd = tmpDir({ 'p.ts': text });
    const r = await refcatInProcess(['symbols', 'p.ts'], { cwd });
    expect(r.stdout).toBe(
      ['@p.ts#Store  L1-L4  class', '  @p.ts#L2   L2     field', '  @p.ts#L3   L3     method', '@p.ts#L5-L7  L5-L7  module', '  @p.ts#L6   L6     constant', '@p.ts#L8     L8     constant', ''].join('\n'),
    );
    const listed = JSON.parse((await refcatInProcess(['symbols', 'p.ts', '--json'], { cwd })).stdout);
    expect(listed.files[0].symbols.map((s: { path: string }) => s.path)).toEqual(['Store', 'Store.#secret', 'Store.[Symbol.dispose]', '"http"', '"http".x', 'L1']);
    for (const s of listed.files[0].symbols) {
      const spec = await refcatInProcess([s.ref, '--spec'], { cwd });
      expect(spec.stdout.trim(), s.ref).toBe(s.start_line === s.end_line ? `@p.ts#L${s.start_line}` : `@p.ts#L${s.start_line}-L${s.end_line}`);
    }
  });

  it('a glob skips files without a grammar; a symbol ref lists what it holds', async () => {
    const cwd = project();
    const glob = await refcatInProcess(['symbols', 'src/*'], { cwd });
    expect(glob.code).toBe(0);
    expect(glob.stdout).toContain('@src/util.py#helper  L1-L2  function\n');
    expect(glob.stdout).not.toContain('README');
    const one = await refcatInProcess(['symbols', '@src/app.ts#Store'], { cwd });
    expect(one.stdout).toBe(['@src/app.ts#Store         L1-L4  class', '  @src/app.ts#Store.save  L2     method', '  @src/app.ts#Store.load  L3     method', ''].join('\n'));
  });

  it('--json: paths, kinds and lines of each file', async () => {
    const r = await refcatInProcess(['symbols', 'lib/x.ts', '--json'], { cwd: project() });
    expect(JSON.parse(r.stdout)).toEqual({
      version: 1,
      files: [
        {
          path: 'lib/x.ts',
          symbols: [{ ref: '@lib/x.ts#x', path: 'x', name: 'x', kind: 'constant', start_line: 1, end_line: 1, name_line: 1, body_start: null, depth: 0 }],
        },
      ],
      errors: [],
      warnings: [],
    });
  });

  it('errors: a file without a grammar, a missing file, a line range', async () => {
    const cwd = project();
    const md = await refcatInProcess(['symbols', 'src/README.md'], { cwd });
    expect(md.code).toBe(1);
    expect(md.stderr).toMatch(/^Error: No parser for '\.md' files in src\/README\.md; symbol refs work in: \.ts/);
    const missing = await refcatInProcess(['symbols', 'src/nope.ts', 'lib/x.ts'], { cwd });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('@lib/x.ts#x  L1  constant\n');
    expect(missing.stderr).toContain('Error: REFCAT ref not found: src/nope.ts');
    const range = await refcatInProcess(['symbols', '@src/app.ts#L1-L3'], { cwd });
    expect(range.code).toBe(1);
    expect(range.stderr).toContain('refcat symbols lists files, globs and symbol refs, not line ranges or patterns: @src/app.ts#L1-L3');
    const none = await refcatInProcess(['symbols'], { cwd });
    expect(none.code).toBe(2);
  });

  it('a symlink loop is worded as extraction words it, not as the errno message', async () => {
    const cwd = project();
    fs.symlinkSync('loop2.ts', path.join(cwd, 'loop1.ts'));
    fs.symlinkSync('loop1.ts', path.join(cwd, 'loop2.ts'));
    const r = await refcatInProcess(['symbols', 'loop1.ts'], { cwd });
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', 'Error: Cannot read loop1.ts: a symlink loop (each link leads to another, never to a file)\n']);
  });

  it.each([
    ['src', 'src/**'],
    ['src/', 'src/**'],
    ['@src', '@src/**'],
    ['.', './**'],
  ])('a folder %s: it is one, and the glob that lists it is the hint (not "no parser for its name")', async (folder, glob) => {
    const cwd = project();
    const r = await refcatInProcess(['symbols', folder], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`Error: Is a directory: ${folder}\n  A glob reads the files in it: ${glob}\n`);
    const listed = await refcatInProcess(['symbols', glob], { cwd });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('#Store');
  });
});
