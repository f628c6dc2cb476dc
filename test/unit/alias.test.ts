import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AliasResolver } from '../../src/core/alias/resolve-aliases.js';
import { extract } from '../../src/core/extract/extract.js';
import { ConfigError, RefError } from '../../src/shared/errors.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir, writeFiles } from '../helpers/tmp.js';

const lock = (repos: unknown, extra: Record<string, unknown> = {}) => JSON.stringify({ ...extra, repos });

function setup(files: Record<string, string>, homeFiles: Record<string, string> = {}, cwdRel = '.') {
  const root = tmpDir(files);
  const ctx = testCtx(path.join(root, cwdRel));
  writeFiles(ctx.home, homeFiles);
  return { root, ctx };
}

describe('alias sources (docs/reference.md#aliases)', () => {
  it('reads workspace.lock.json: alias, aliases[] and name, externals_dir default', () => {
    const { root, ctx } = setup({
      'workspace.lock.json': lock([{ alias: 'crm', aliases: ['ns'], name: 'cgm-remote-monitor' }]),
    });
    const r = new AliasResolver(ctx);
    const target = path.join(root, 'externals', 'cgm-remote-monitor');
    expect(r.lookup('crm')?.target).toBe(target);
    expect(r.lookup('ns')?.target).toBe(target);
    expect(r.lookup('cgm-remote-monitor')?.target).toBe(target);
    expect(r.lookup('crm')?.source).toBe('workspace');
  });

  it('honours externals_dir and finds the nearest lockfile in an ancestor', () => {
    const { root, ctx } = setup(
      {
        'workspace.lock.json': lock([{ alias: 'loop', name: 'LoopWorkspace' }], { externals_dir: 'deps' }),
        'sub/deeper/.keep': '',
      },
      {},
      'sub/deeper',
    );
    expect(new AliasResolver(ctx).lookup('loop')?.target).toBe(path.join(root, 'deps', 'LoopWorkspace'));
  });

  it('uses only the nearest lockfile', () => {
    const { ctx } = setup(
      {
        'workspace.lock.json': lock([{ alias: 'outer', name: 'Outer' }]),
        'inner/workspace.lock.json': lock([{ alias: 'inner', name: 'Inner' }]),
      },
      {},
      'inner',
    );
    const r = new AliasResolver(ctx);
    expect(r.lookup('inner')).toBeDefined();
    expect(r.lookup('outer')).toBeUndefined();
  });

  it('reads $SDQCTL_HOME/aliases.yaml, expanding ~ and resolving relative paths from the file', () => {
    const { ctx } = setup({}, { '.sdqctl/aliases.yaml': 'aliases:\n  loop: ~/src/LoopKit\n  rel: ../projects/x\n  abs: /opt/trio\n' });
    const r = new AliasResolver(ctx);
    expect(r.lookup('loop')?.target).toBe(path.join(ctx.home, 'src', 'LoopKit'));
    expect(r.lookup('rel')?.target).toBe(path.join(ctx.home, 'projects', 'x'));
    expect(r.lookup('abs')).toMatchObject({ target: '/opt/trio', source: 'global' });
  });

  it('honours SDQCTL_HOME pointing elsewhere', () => {
    const other = tmpDir({ 'aliases.yaml': 'aliases:\n  trio: /opt/trio\n' });
    const { ctx } = setup({});
    const r = new AliasResolver({ ...ctx, env: { ...ctx.env, SDQCTL_HOME: other } });
    expect(r.lookup('trio')?.origin).toBe(path.join(other, 'aliases.yaml'));
  });

  it('puts explicit aliases before the lockfile, and the lockfile before the YAML file', () => {
    const { root, ctx } = setup(
      { 'workspace.lock.json': lock([{ alias: 'a', name: 'A' }, { alias: 'b', name: 'B' }]) },
      { '.sdqctl/aliases.yaml': 'aliases:\n  a: /yaml/a\n  b: /yaml/b\n  c: /yaml/c\n' },
    );
    const r = new AliasResolver(ctx, { explicit: [{ name: 'a', path: 'mine', base: root, origin: '--alias' }] });
    expect(r.lookup('a')).toMatchObject({ target: path.join(root, 'mine'), source: 'explicit' });
    expect(r.lookup('b')).toMatchObject({ target: path.join(root, 'externals', 'B'), source: 'workspace' });
    expect(r.lookup('c')).toMatchObject({ target: '/yaml/c', source: 'global' });
    expect(r.list().map((e) => `${e.name}:${e.source}`)).toEqual([
      'a:explicit',
      'a:workspace',
      'A:workspace',
      'b:workspace',
      'B:workspace',
      'a:global',
      'b:global',
      'c:global',
    ]);
  });

  it('does not read config files when no lookup needs them', () => {
    const { ctx } = setup({ 'workspace.lock.json': '{ broken' }, { '.sdqctl/aliases.yaml': 'aliases: [' });
    const dir = ctx.cwd;
    writeFiles(dir, { 'a.txt': 'a\n' });
    expect(extract(['@a.txt'], ctx).errors).toEqual([]);
  });
});

describe('unknown aliases', () => {
  it('lists the known aliases by where they come from, sorted, in the docs/reference.md#aliases message', () => {
    const { ctx } = setup(
      { 'workspace.lock.json': lock([{ alias: 'trio', name: 'trio' }]) },
      { '.sdqctl/aliases.yaml': 'aliases:\n  loop: /x\n  aaps: /y\n' },
    );
    let err: unknown;
    try {
      const explicit = [{ name: 'mine', path: '/m', base: ctx.cwd, origin: '--alias' }];
      new AliasResolver(ctx, { explicit }).resolve('foo', 'foo:path/file.py#L10');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RefError);
    expect((err as RefError).message).toBe("Unknown REFCAT alias: 'foo' in foo:path/file.py#L10");
    expect((err as RefError).details).toEqual([
      'Known aliases: mine (--alias); trio (workspace.lock.json); aaps, loop (~/.sdqctl/aliases.yaml)',
      'Define in ~/.sdqctl/aliases.yaml or use ALIAS directive',
      'Or: --alias NAME=PATH, or a workspace.lock.json in this folder or above (see: refcat aliases)',
    ]);
  });

  it.each([
    ['lop', "Unknown REFCAT alias: 'lop' in lop:x.swift (did you mean loop?)"],
    ['Trio', "Unknown REFCAT alias: 'Trio' in Trio:x.swift (did you mean trio?)"],
    ['zzzz', "Unknown REFCAT alias: 'zzzz' in zzzz:x.swift"],
  ])('a misspelled alias %s gets a did-you-mean', (name, message) => {
    const { ctx } = setup(
      { 'workspace.lock.json': lock([{ alias: 'trio', name: 'trio' }]) },
      { '.sdqctl/aliases.yaml': 'aliases:\n  loop: /x\n  aaps: /y\n' },
    );
    expect(() => new AliasResolver(ctx).resolve(name, `${name}:x.swift`)).toThrow(message);
  });

  it('says (none) when nothing is defined', () => {
    const { ctx } = setup({});
    expect(() => new AliasResolver(ctx).resolve('x', 'x:a.py')).toThrow(RefError);
    const report = extract(['x:a.py'], ctx);
    expect(report.errors[0]).toMatchObject({ code: 'unknown_alias', details: ['Known aliases: (none)', expect.any(String), expect.stringContaining('--alias NAME=PATH')] });
  });
});

describe('malformed config files are errors naming the file', () => {
  it.each([
    ['{ not json', /not valid JSON/],
    ['[]', /top level must be an object/],
    ['{"repos": {}}', /"repos" must be an array/],
    ['{"repos": [{"alias": "x"}]}', /repos\[0\]\.name must be a non-empty string/],
    ['{"repos": [{"name": "x", "aliases": "y"}]}', /repos\[0\]\.aliases must be an array of strings/],
    ['{"externals_dir": 3, "repos": []}', /"externals_dir" must be a non-empty string/],
  ])('lockfile %s', (content, problem) => {
    const { root, ctx } = setup({ 'workspace.lock.json': content });
    const file = path.join(root, 'workspace.lock.json');
    expect(() => new AliasResolver(ctx).lookup('x')).toThrow(ConfigError);
    expect(() => new AliasResolver(ctx).lookup('x')).toThrow(problem);
    expect(() => new AliasResolver(ctx).lookup('x')).toThrow(`Invalid config file ${file}`);
  });

  it.each([
    ['aliases: [', /: not valid YAML \(bad indent at line 1, column 11\)$/],
    ['aliases: {ra: !custom /x}\n', /: not valid YAML \(unknown tag at line 1, column 15\)$/],
    ['- a\n- b\n', /top level must be a mapping/],
    ['aliases:\n  - a\n', /'aliases' must be a mapping/],
    ['aliases:\n  loop: 3\n', /: the alias at line 2, column 3 must be a path string$/],
    ['aliases:\n  ok: /x\n  "bad name": /x\n', /: invalid alias name at line 3, column 3 \(letters, digits, '_' and '-', starting with a letter\)$/],
    ['aliases:\n  a: /x\n  a: /y\n', /: duplicate key at line 3, column 3$/],
  ])('aliases.yaml %j', (content, problem) => {
    const { ctx } = setup({}, { '.sdqctl/aliases.yaml': content });
    expect(() => new AliasResolver(ctx).lookup('x')).toThrow(problem);
    expect(() => new AliasResolver(ctx).lookup('x')).toThrow('Invalid config file ~/.sdqctl/aliases.yaml');
  });

  it.each([
    ['workspace.lock.json', '{', lock([{ alias: 'x', name: 'X' }])],
    ['.sdqctl/aliases.yaml', 'aliases: [', 'aliases:\n  x: /x\n'],
  ])('%s, malformed, is read once per resolver as a good one is (a docs tree asks about every word:)', (file, bad, good) => {
    const { root, ctx } = setup({});
    const at = file.startsWith('.sdqctl') ? ctx.home : root;
    writeFiles(at, { [file]: bad });
    const r = new AliasResolver(ctx);
    expect(() => r.lookup('x')).toThrow(ConfigError);
    writeFiles(at, { [file]: good });
    expect(() => r.lookup('y')).toThrow(ConfigError);
    expect(new AliasResolver(ctx).lookup('x')).toBeDefined();
  });

  it('a lockfile that is a broken symlink: one line naming the file, the link and where it points, exit 1', async () => {
    const { root, ctx } = setup({ 'a.txt': 'a\n' });
    fs.symlinkSync('../nowhere/workspace.lock.json', path.join(root, 'workspace.lock.json'));
    const message = `Invalid config file ${path.join(root, 'workspace.lock.json')}: a broken symbolic link (it points to ../nowhere/workspace.lock.json, which does not exist)`;
    expect(() => new AliasResolver(ctx).lookup('x')).toThrow(message);
    const r = await refcatInProcess(['x:a.txt', '@a.txt'], { cwd: root });
    expect([r.code, r.stderr]).toEqual([1, `Error: ${message}\n`]);
    expect(r.stdout).toContain('a.txt');
  });

  it('an aliases.yaml that is a broken symlink is the same error; none at all is no aliases', () => {
    const { ctx } = setup({ 'a.txt': 'a\n' });
    expect(new AliasResolver(ctx).list()).toEqual([]);
    fs.mkdirSync(path.join(ctx.home, '.sdqctl'), { recursive: true });
    const file = path.join(ctx.home, '.sdqctl', 'aliases.yaml');
    fs.symlinkSync('dotfiles/aliases.yaml', file);
    expect(() => new AliasResolver(ctx).lookup('x')).toThrow(`Invalid config file ${file}: a broken symbolic link (it points to dotfiles/aliases.yaml, which does not exist)`);
  });

  it('accepts an empty aliases.yaml', () => {
    const { ctx } = setup({}, { '.sdqctl/aliases.yaml': '' });
    expect(new AliasResolver(ctx).list()).toEqual([]);
  });

  it('extract reports a malformed file as the error of each alias ref, and still extracts the others', () => {
    const { root, ctx } = setup({ 'workspace.lock.json': '{', 'a.txt': 'a\n' });
    const report = extract(['@a.txt', 'x:a.py'], ctx);
    expect(report.results.map((r) => r.displayPath)).toEqual(['a.txt']);
    expect(report.errors).toEqual([
      expect.objectContaining({ code: 'invalid_config', ref: 'x:a.py', message: expect.stringContaining(path.join(root, 'workspace.lock.json')) }),
    ]);
  });

  it('rejects top-level keys other than aliases (a typo is not skipped in silence)', () => {
    const { ctx } = setup({}, { '.sdqctl/aliases.yaml': 'loop: /x\n' });
    expect(() => new AliasResolver(ctx).lookup('loop')).toThrow(
      "Invalid config file ~/.sdqctl/aliases.yaml: unknown top-level key at line 1, column 1 (aliases go under 'aliases:', see aliases.example.yaml)",
    );
  });
});

describe('alias refs', () => {
  it('resolves files under the alias root and displays alias:path', () => {
    const fixtures = path.resolve(__dirname, '../../fixtures/workspace');
    const report = extract(['loop:Sources/A.swift#L3-L6', 'ns:lib/server/treatments.js#L3'], testCtx(path.join(fixtures, 'project')));
    expect(report.errors).toEqual([]);
    expect(report.results.map((r) => [r.displayPath, r.spec, r.lineStart, r.lineEnd])).toEqual([
      ['loop:Sources/A.swift', 'loop:Sources/A.swift#L3-L6', 3, 6],
      ['ns:lib/server/treatments.js', 'ns:lib/server/treatments.js#L3', 3, 3],
    ]);
    expect(report.results[0]!.displayBase).toBe(path.join(fixtures, 'externals', 'LoopWorkspace'));
  });
});
