import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

// Refs by name (docs/symbols.md) through every path a ref takes: extraction in each format,
// `verify refs` over markdown and .conv files, `validate`.
const STORE_TS = [
  'import { x } from "./x";', // 1
  '', // 2
  '/** Keeps items. */', // 3
  'export class Store {', // 4
  '  items: number[] = [];', // 5
  '', // 6
  '  // Saves one.', // 7
  '  save(x: number): void {', // 8
  '    this.items.push(x);', // 9
  '  }', // 10
  '}', // 11
  '', // 12
  'export function parse(a: string): number;', // 13
  'export function parse(a: number): number;', // 14
  'export function parse(a: unknown): number {', // 15
  '  return 1;', // 16
  '}', // 17
  '', // 18
  'const Loop = 1;', // 19
].join('\n') + '\n';

const APP_PY = [
  'import os', // 1
  '', // 2
  '# The store.', // 3
  '@dataclass', // 4
  'class Store:', // 5
  '    count: int = 0', // 6
  '', // 7
  '    @property', // 8
  '    def size(self):', // 9
  '        return 1', // 10
].join('\n') + '\n';

function project(extra: Record<string, string> = {}): string {
  return tmpDir({ 'src/store.ts': STORE_TS, 'src/app.py': APP_PY, 'docs/GUIDE.md': '# Guide\n\n## Install\n\nRun it.\n', 'notes.xyz': 'a\n', ...extra });
}

describe('symbol refs in extraction', () => {
  it('selects the declaration with its doc comment, in markdown', async () => {
    const r = await refcatInProcess(['@src/store.ts#Store.save'], { cwd: project() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(' 7 |   // Saves one.\n 8 |   save(x: number): void {\n 9 |     this.items.push(x);\n10 |   }\n');
    expect(r.stdout).not.toContain(' 6 |');
  });

  it('--spec resolves it to lines; :relative widens it', async () => {
    const cwd = project();
    expect((await refcatInProcess(['@src/store.ts#Store', '--spec'], { cwd })).stdout).toBe('@src/store.ts#L3-L11\n');
    expect((await refcatInProcess(['@src/store.ts#Store.items:-1..+1', '--spec'], { cwd })).stdout).toBe('@src/store.ts#L4-L6\n');
    expect((await refcatInProcess(['@src/app.py#Store.size', '--spec'], { cwd })).stdout).toBe('@src/app.py#L8-L10\n');
    // Decorators and the comment directly above belong to the class.
    expect((await refcatInProcess(['@src/app.py#Store', '--spec'], { cwd })).stdout).toBe('@src/app.py#L3-L10\n');
  });

  it('JSON says what it named', async () => {
    const r = await refcatInProcess(['@src/store.ts#Store.save', '--json'], { cwd: project() });
    const out = JSON.parse(r.stdout);
    expect(out.refs[0].symbol).toEqual({ path: 'Store.save', kind: 'method' });
    expect(out.refs[0].line_start).toBe(7);
    expect(out.refs[0].line_end).toBe(10);
  });

  it('raw and --cite print the same lines', async () => {
    const cwd = project();
    const raw = await refcatInProcess(['@src/store.ts#parse~3', '--format', 'raw'], { cwd });
    expect(raw.stdout).toBe('export function parse(a: unknown): number {\n  return 1;\n}\n');
    const cite = await refcatInProcess(['@src/store.ts#parse~3', '--cite'], { cwd });
    expect(cite.stdout).toContain('// @src/store.ts#L15-L17\nexport function parse(a: unknown): number {');
  });

  it.each([
    ['TypeScript with a BOM', 'src/bom.ts', '\ufeff/** doc */\nexport function f() {\n  return 1;\n}\n', '#f'],
    ['TypeScript with a BOM and CRLF', 'src/crlf.ts', '\ufeff/** doc */\r\nexport function f() {\r\n  return 1;\r\n}\r\n', '#f'],
    ['Python with a BOM', 'src/bom.py', '\ufeffdef g():\n    return 1\n', '#g'],
  ])('a declaration on line 1 of a file with a BOM (%s) prints the lines its range prints, without the BOM', async (_name, file, text, name) => {
    const cwd = project({ [file]: text });
    const spec = (await refcatInProcess([`@${file}${name}`, '--spec'], { cwd })).stdout.trim();
    for (const format of [['--format', 'raw'], ['--json'], ['--cite'], []]) {
      const byName = await refcatInProcess([`@${file}${name}`, ...format], { cwd });
      const byRange = await refcatInProcess([spec, ...format], { cwd });
      expect(byName.code).toBe(0);
      expect(byName.stdout).not.toContain('\ufeff');
      if (format[0] === '--json') expect(JSON.parse(byName.stdout).refs[0].content).toBe(JSON.parse(byRange.stdout).refs[0].content);
      else if (format[0] !== undefined) expect(byName.stdout).toBe(byRange.stdout);
    }
  });

  it('overloads: an error that lists each candidate; ~2 picks the second', async () => {
    const cwd = project();
    const r = await refcatInProcess(['@src/store.ts#parse'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      [
        "Error: Symbol 'parse' names 3 declarations in @src/store.ts#parse; pick one with ~N",
        '  #parse~1  L13-L13  function',
        '  #parse~2  L14-L14  function',
        '  #parse~3  L15-L17  function',
        '',
      ].join('\n'),
    );
    expect((await refcatInProcess(['@src/store.ts#parse~2', '--spec'], { cwd })).stdout).toBe('@src/store.ts#L14\n');
  });

  it('not found: did-you-mean with near names', async () => {
    const r = await refcatInProcess(['@src/store.ts#Store.sav'], { cwd: project() });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("Error: Symbol 'Store.sav' not found in @src/store.ts#Store.sav (did you mean Store.save?)\n");
    // A member named without its type: the full path is suggested.
    const bare = await refcatInProcess(['@src/store.ts#save'], { cwd: project() });
    expect(bare.stderr).toBe("Error: Symbol 'save' not found in @src/store.ts#save (did you mean Store.save?)\n");
  });

  it('#Loop is a name, #L19 a range', async () => {
    const cwd = project();
    expect((await refcatInProcess(['@src/store.ts#Loop', '--spec'], { cwd })).stdout).toBe('@src/store.ts#L19\n');
    expect((await refcatInProcess(['@src/store.ts#L19', '--format', 'raw'], { cwd })).stdout).toBe('const Loop = 1;\n');
  });

  it('a file without a grammar: an error naming where symbol refs work', async () => {
    const r = await refcatInProcess(['@notes.xyz#thing'], { cwd: project() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: No parser for '\.xyz' files in @notes\.xyz#thing; symbol refs work in: \.ts, .*\.swift, .*\.rb\n$/);
  });

  it('a glob over files without a grammar: each error names its file', async () => {
    const r = await refcatInProcess(['@docs/*#install'], { cwd: project({ 'docs/OTHER.md': '# Other\n' }) });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').map((l) => l.replace(/; symbol refs work in: .*/, ''))).toEqual([
      "Error: No parser for '.md' files in @docs/GUIDE.md#install",
      "Error: No parser for '.md' files in @docs/OTHER.md#install",
      '',
    ]);
  });

  it('a file over 1 MiB is not parsed', async () => {
    const big = 'export const a = 1;\n' + '// filler line of text\n'.repeat(50_000);
    const r = await refcatInProcess(['@big.ts#a'], { cwd: project({ 'big.ts': big }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('Error: @big.ts#a is too large for symbol refs (1.1 MiB; at most 1 MiB)\n');
  });
  it('a binary file (a NUL byte, bytes not UTF-8) is one, as for a line ref: not parsed, not listed as empty', async () => {
    const cwd = project({ 'nul.ts': Buffer.from('export function f() {}\n\0\n'), 'latin1.ts': Buffer.from('export function g() {}\nconst s = "caf\xe9";\n', 'latin1') });
    for (const [file, name] of [['nul.ts', 'f'], ['latin1.ts', 'g']]) {
      const line = await refcatInProcess([`@${file}#L1`], { cwd });
      const named = await refcatInProcess([`@${file}#${name}`], { cwd });
      expect([named.code, named.stdout, named.stderr]).toEqual([1, '', `Error: Binary file: @${file}#${name}\n`]);
      expect(line.stderr).toBe(`Error: Binary file: @${file}#L1\n`);
      const listed = await refcatInProcess(['symbols', file], { cwd });
      expect([listed.code, listed.stdout, listed.stderr]).toEqual([1, '', `Error: Binary file: ${file}\n`]);
    }
  });

  it('a FIFO is refused, not waited on for a writer forever (a ref by name and refcat symbols)', () => {
    const cwd = project();
    execFileSync('mkfifo', [path.join(cwd, 'pipe.ts')]);
    // Spawned with a timeout: a read that waits blocks the whole process, a test in it too.
    const run = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 20_000, env: { ...process.env, REFCAT_SYMBOL_CACHE: '0' } });
    const ref = run(['@pipe.ts#Store']);
    expect([ref.status, ref.stderr]).toEqual([1, 'Error: Not a regular file: @pipe.ts#Store\n']);
    const listed = run(['symbols', 'pipe.ts']);
    expect([listed.status, listed.stderr]).toEqual([1, 'Error: Not a regular file: pipe.ts\n']);
  });
});

describe('symbol refs in verify refs and validate', () => {
  it('markdown: a symbol ref is checked, a missing one is broken with the did-you-mean; a heading anchor stays an anchor', async () => {
    const cwd = project({
      'README.md': 'See @src/store.ts#Store.save and @src/app.py#Store.size.\nAlso @src/store.ts#Store.sav here.\nRead @docs/GUIDE.md#install first.\n',
    });
    const r = await refcatInProcess(['verify', 'refs', 'README.md', '--json'], { cwd });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.errors.map((f: { line: number; message: string }) => [f.line, f.message])).toEqual([
      [2, "Symbol 'Store.sav' not found in @src/store.ts#Store.sav (did you mean Store.save?)"],
    ]);
    // Four refs: two symbols that resolve, the broken one, and the guide (its anchor not checked).
    expect([out.refs_found, out.valid, out.broken]).toEqual([4, 3, 1]);
  });

  it('.conv: REFCAT symbol refs are resolved by validate and verify refs', async () => {
    const conv = 'PROMPT Look.\nREFCAT @src/store.ts#Store.save\nREFCAT @src/store.ts#Store.load\n';
    const cwd = project({ 'flow.conv': conv });
    const v = await refcatInProcess(['validate', 'flow.conv', '--json'], { cwd });
    expect(v.code).toBe(1);
    expect(v.stdout).toContain("Symbol 'Store.load' not found in @src/store.ts#Store.load");
    expect(v.stdout).not.toContain('Store.save ');
    const r = await refcatInProcess(['verify', 'refs', 'flow.conv', '--json'], { cwd });
    expect(r.code).toBe(1);
    const errors = JSON.parse(r.stdout).errors;
    expect(errors.map((f: { line: number; code: string }) => [f.line, f.code])).toEqual([[3, 'symbol_not_found']]);
  });
});
