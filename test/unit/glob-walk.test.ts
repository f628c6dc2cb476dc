import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { Confinement } from '../../src/core/safe-read/confinement.js';
import { expandGlob, hasGlobChars, type WalkWarning } from '../../src/core/walk/glob.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';
import picomatch from 'picomatch';

const rel = (dir: string, files: string[]) => files.map((f) => path.relative(dir, f));

describe('the glob walk', () => {
  it('follows a symlink into a folder at most once and reports each loop once', () => {
    const dir = tmpDir({ 'src/a.ts': 'a\n', 'src/deep/b.ts': 'b\n' });
    fs.symlinkSync('..', path.join(dir, 'src', 'up'));
    fs.symlinkSync('../src', path.join(dir, 'src', 'again'));
    const warnings: WalkWarning[] = [];
    expect(rel(dir, expandGlob('**/*.ts', dir, false, warnings))).toEqual(['src/a.ts', 'src/deep/b.ts']);
    expect(warnings.map((w) => w.code)).toEqual(['symlink_loop', 'symlink_loop']);
  });

  it('lists a folder reached both directly and through a link under its own path, whatever the names', () => {
    for (const link of ['a_link', 'zz_link']) {
      const dir = tmpDir({ 'src/main.ts': 'm\n', 'src/deep/d.ts': 'd\n' });
      fs.symlinkSync('src', path.join(dir, link));
      const warnings: WalkWarning[] = [];
      expect(rel(dir, expandGlob('**/*.ts', dir, false, warnings))).toEqual(['src/deep/d.ts', 'src/main.ts']);
      expect(warnings).toEqual([]);
    }
  });

  it('follows a symlink to a folder outside the walk', () => {
    const outside = tmpDir({ 'lib/x.ts': 'x\n' });
    const dir = tmpDir({ 'a.ts': 'a\n' });
    fs.symlinkSync(path.join(outside, 'lib'), path.join(dir, 'lib'));
    expect(rel(dir, expandGlob('**/*.ts', dir, false))).toEqual(['a.ts', 'lib/x.ts']);
  });

  it('with a confinement, returns a symlink leading out that the glob could reach, unfollowed, whatever it leads to', () => {
    const top = tmpDir({ 'root/in.txt': 'i\n', 'root/src/a.ts': 'a\n', 'outside/secret.txt': 's\n', 'outside/deep/x.ts': 'x\n' });
    const root = path.join(top, 'root');
    const outside = path.join(top, 'outside');
    fs.symlinkSync(outside, path.join(root, 'linkdir'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
    fs.symlinkSync(path.join(outside, 'gone.txt'), path.join(root, 'dangling.txt'));
    const confine = new Confinement(root);
    // [glob, what it reaches]: a name that matches, or a folder a match could lie below.
    const table: [string, string[]][] = [
      ['link*', ['link.txt', 'linkdir']],
      ['l[i]nk.txt', ['link.txt']],
      ['**/secret.txt', ['dangling.txt', 'link.txt', 'linkdir']],
      ['linkd?r/secret.txt', ['linkdir']],
      ['*.txt', ['dangling.txt', 'in.txt', 'link.txt']],
      ['src/*.ts', ['src/a.ts']],
      ['x?/*', []],
    ];
    const readdir = vi.spyOn(fs, 'readdirSync');
    try {
      for (const [glob, reached] of table) expect(rel(root, expandGlob(glob, root, false, [], confine)), glob).toEqual(reached);
      expect(readdir.mock.calls.map((c) => String(c[0])).filter((d) => d.startsWith(outside))).toEqual([]);
    } finally {
      readdir.mockRestore();
    }
    // The answer is the same once the outside changes.
    fs.rmSync(outside, { recursive: true });
    for (const [glob, reached] of table) expect(rel(root, expandGlob(glob, root, false, [], confine)), glob).toEqual(reached);
  });

  it('never enters an ignored folder, node_modules or .git', () => {
    const files: Record<string, string> = { '.gitignore': 'dist/\n', 'src/a.ts': 'a\n' };
    for (let i = 0; i < 50; i++) files[`dist/f${i}/x.ts`] = 'x\n';
    files['node_modules/p/i.ts'] = 'x\n';
    const dir = tmpDir(files);
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const readdir = vi.spyOn(fs, 'readdirSync');
    try {
      expect(rel(dir, expandGlob('**/*.ts', dir, false))).toEqual(['src/a.ts']);
      const entered = readdir.mock.calls.map((c) => path.relative(dir, String(c[0])));
      expect(entered.filter((d) => /^(dist|node_modules|\.git)/.test(d))).toEqual([]);
    } finally {
      readdir.mockRestore();
    }
  });

  it('goes no deeper than a glob without ** can match', () => {
    const dir = tmpDir({ 'a.ts': 'a\n', 'sub/b.ts': 'b\n', 'sub/deeper/c.ts': 'c\n' });
    const readdir = vi.spyOn(fs, 'readdirSync');
    try {
      expect(rel(dir, expandGlob('*.ts', dir, false))).toEqual(['a.ts']);
      expect(readdir.mock.calls.length).toBe(1);
    } finally {
      readdir.mockRestore();
    }
  });

  it('keeps what a .gitignore negation re-includes (logs/** then !logs/keep.txt)', async () => {
    const dir = tmpDir({ '.gitignore': 'logs/**\n!logs/keep.txt\n', 'logs/keep.txt': 'k\n', 'logs/drop.txt': 'd\n' });
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const r = await refcatInProcess(['--list-files', 'logs/*.txt'], { cwd: dir });
    expect(r.stdout).toBe('logs/keep.txt\n');
    const all = await refcatInProcess(['--list-files', '**/*.txt'], { cwd: dir });
    expect(all.stdout).toBe('logs/keep.txt\n');
  });

  it('--list-files opens no listed file (and no file it skips)', async () => {
    const files: Record<string, string> = { '.gitignore': '*.gen.ts\nout/\n', 'src/.gitignore': 'tmp.ts\n' };
    for (let i = 0; i < 40; i++) files[`src/m${i % 4}/f${i}${i % 10 === 0 ? '.gen' : ''}.ts`] = 'export const x = 1;\n'.repeat(50);
    files['src/tmp.ts'] = 'x\n';
    files['out/a.ts'] = 'x\n';
    const dir = tmpDir(files);
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const touched: string[] = [];
    // Descriptors opened on a listed kind of file: the ignore files are read, and through a descriptor.
    const tsFds = new Set<number>();
    const spies = (['openSync', 'readFileSync', 'readSync', 'createReadStream'] as const).map((name) => {
      const real = fs[name] as (...args: unknown[]) => unknown;
      return vi.spyOn(fs, name).mockImplementation(((...args: unknown[]) => {
        if (typeof args[0] === 'string' && args[0].endsWith('.ts')) touched.push(path.relative(dir, args[0]));
        if (typeof args[0] === 'number' && tsFds.has(args[0])) touched.push(`read(fd ${args[0]})`);
        const result = real.apply(fs, args);
        if (name === 'openSync' && typeof args[0] === 'string' && args[0].endsWith('.ts')) tsFds.add(result as number);
        return result;
      }) as never);
    });
    try {
      const r = await refcatInProcess(['--list-files', '**/*.ts'], { cwd: dir });
      expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(36);
      expect(r.code).toBe(0);
      expect(touched).toEqual([]);
    } finally {
      for (const s of spies) s.mockRestore();
    }
  });

  it('a loop under a glob ends, lists each file once and warns on stderr', async () => {
    const dir = tmpDir({ 'src/a.ts': 'a\n' });
    fs.symlinkSync('..', path.join(dir, 'src', 'up'));
    const r = await refcatInProcess(['--list-files', '**/*.ts'], { cwd: dir });
    expect(r.stdout).toBe('src/a.ts\n');
    expect(r.stderr).toBe(`Warning: Symlink loop: ${path.join(dir, 'src', 'up')} leads back to ${dir}: not followed in **/*.ts\n`);
    // --json carries the warning instead.
    const json = await refcatInProcess(['--list-files', '--json', '**/*.ts'], { cwd: dir });
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toMatchObject({ files: ['src/a.ts'], warnings: [{ code: 'symlink_loop' }] });
  });

  it.each([
    '**/*.ts',
    '**/*.{ts,js}',
    '**/a?.ts',
    '**/[ab]*.ts',
    '**/f.ts',
    '**/*',
    '**/**',
    '**/.*',
    '**/!(b).ts',
    '**/*.d.ts',
  ])('%s expands to the files picomatch matches (dot files and folders only when named)', (glob) => {
    const tree = ['a.ts', 'ab.ts', 'b.js', 'f.ts', '.hidden.ts', 'x.d.ts', 'src/a1.ts', 'src/.h.ts', 'src/deep/f.ts', 'src/deep/b.ts', 'src/b.d.ts', '.dot/a1.ts', 'src/.dot/f.ts', 'lib/c.js'];
    const dir = tmpDir(Object.fromEntries(tree.map((f) => [f, 'x\n'])));
    const reference = picomatch(glob, { dot: false });
    const expected = tree.filter((f) => reference(f)).sort();
    expect(rel(dir, expandGlob(glob, dir, true))).toEqual(expected);
  });
});

// docs/reference.md#globs: a path is a glob when picomatch would expand it, extglobs included.
describe('which ref paths are globs', () => {
  it.each<[string, boolean]>([
    ['src/*.ts', true],
    ['src/?.ts', true],
    ['src/[ab].ts', true],
    ['src/{a,b}.ts', true],
    ['src/!(a).ts', true],
    ['src/@(a|b).ts', true],
    ['src/+(a).ts', true],
    ['src/*(a).ts', true],
    ['src/?(a).ts', true],
    ['src/x!(y)z/q.ts', true],
    ['src/a.ts', false],
    ['src/file (1).txt', false],
    ['src/a+(b.ts', false],
    ['src/me@host.txt', false],
    ['src/wow!.txt', false],
  ])('%s: %s', (p, glob) => {
    expect(hasGlobChars(p)).toBe(glob);
  });

  it('an extglob ref expands as picomatch matches it; an unclosed one names a file', async () => {
    const dir = tmpDir({ 'src/a.ts': 'a\n', 'src/b.ts': 'b\n', 'src/c.ts': 'c\n', 'src/x+(y.ts': 'plain\n' });
    const list = async (ref: string) => (await refcatInProcess([ref, '--list-files'], { cwd: dir })).stdout.split('\n').filter(Boolean);
    expect(await list('@src/!(a).ts')).toEqual(['src/b.ts', 'src/c.ts', 'src/x+(y.ts']);
    expect(await list('@src/@(a|b).ts')).toEqual(['src/a.ts', 'src/b.ts']);
    expect(await list('@src/+(c).ts')).toEqual(['src/c.ts']);
    expect(await list('@src/x+(y.ts')).toEqual(['src/x+(y.ts']);
    const none = await refcatInProcess(['@src/@(d|e).ts'], { cwd: dir });
    expect([none.code, none.stderr.split('\n')[0]]).toEqual([1, 'Error: Glob matched no files: @src/@(d|e).ts']);
  });
});
