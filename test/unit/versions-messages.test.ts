import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTool, TOOLS } from '../../src/core/agents/mcp-tools.js';
import { GitRepo } from '../helpers/git-repo.js';
import { partialCloneWorkspace } from '../helpers/pinned-workspace.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

/** A workspace whose lockfile lists `repos`; externals/ext is a clone with one commit. */
function workspace(repos: Record<string, unknown>[]) {
  const ws = tmpDir();
  const ext = GitRepo.init({}, path.join(ws, 'externals', 'ext'));
  ext.commit('c1', { 'f.txt': 'one\n' });
  fs.writeFileSync(path.join(ws, 'workspace.lock.json'), JSON.stringify({ repos }));
  return { ws, ext };
}

const run = (ws: string, ...args: string[]) => refcatInProcess(args, { cwd: ws });

describe('messages about pins and revisions (docs/refs.md#refs-at-a-version)', () => {
  it.each(['-x', '--output=written', 'HEAD:..', 'v1 '])('a malformed pin %j: the lockfile\'s pin is not a valid commit, branch or tag name', async (pin) => {
    const { ws } = workspace([{ alias: 'ext', name: 'ext', ref: pin }]);
    const r = await run(ws, '-q', 'ext:f.txt');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('one\n');
    expect(r.stderr).toBe(`Warning: ext: in workspace.lock.json, the pin '${pin}' is not a valid commit, branch or tag name: reading the checkout\n`);
    const strict = await run(ws, '--pinned', 'ext:f.txt');
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain(`Error: ext: in workspace.lock.json, the pin '${pin}' is not a valid commit, branch or tag name: ext:f.txt`);
    const json = JSON.parse((await run(ws, '--json', 'ext:f.txt')).stdout);
    expect(json.warnings.map((w: { code: string }) => w.code)).toEqual(['pin_unread']);
    const aliases = await run(ws, 'aliases');
    expect(aliases.stdout).toContain(`pin ${pin}: the pin '${pin}' is not a valid commit, branch or tag name`);
    expect(fs.existsSync(path.join(ws, 'written'))).toBe(false);
  });

  it('a folder read at a version says the glob that reads its files, as a folder on disk does', async () => {
    const { ws, ext } = workspace([]);
    const pin = ext.commit('c2', { 'sub/g.txt': 'two\n' });
    fs.writeFileSync(path.join(ws, 'workspace.lock.json'), JSON.stringify({ repos: [{ alias: 'ext', name: 'ext', ref: pin }] }));
    for (const [args, ref, glob] of [
      [['ext:sub'], 'ext:sub', 'ext:sub/**'],
      [['ext@HEAD:sub/#L1'], 'ext@HEAD:sub/#L1', 'ext@HEAD:sub/**#L1'],
      [['--at', 'HEAD', '@sub'], '@sub', '@sub/**'],
    ] as const) {
      const r = await run(path.join(ws, ...(args[0] === '--at' ? ['externals', 'ext'] : [])), ...args);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`Error: Is a directory: ${ref}\n  A glob reads the files in it: ${glob}\n`);
    }
    // The glob it names reads the folder at that version.
    expect((await run(ws, '-q', 'ext@HEAD:sub/**')).stdout).toBe('two\n');
  });

  it('a 3,000-character pin and a 5,000-character revision are cut short in messages', async () => {
    const long = 'a'.repeat(3000);
    const { ws } = workspace([{ alias: 'ext', name: 'ext', ref: long }]);
    const aliases = await run(ws, 'aliases');
    expect(aliases.stdout.length).toBeLessThan(1000);
    expect(aliases.stdout).toContain(`pin ${'a'.repeat(60)}… (3000 characters)`);
    const warned = await run(ws, '-q', 'ext:f.txt');
    expect(warned.stderr).toContain(`the pin '${'a'.repeat(60)}…' (3000 characters) is not a valid`);
    expect(warned.stderr.length).toBeLessThan(1000);
    const rev = await run(ws, `ext@${'b'.repeat(5000)}:f.txt`);
    expect(rev.code).toBe(2);
    expect(rev.stderr.length).toBeLessThan(1000);
    expect(rev.stderr).toContain('(5010 characters)');
    const unknown = await run(ws, `ext@${'c'.repeat(900)}:f.txt`);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`Unknown revision '${'c'.repeat(60)}…' (900 characters)`);
  });

  it('"ref": "" is no pin: the folder is read, with no warning and no git', async () => {
    const { ws, ext } = workspace([{ alias: 'ext', name: 'ext', ref: '' }]);
    ext.commit('c2', { 'f.txt': 'two\n' });
    const r = await run(ws, '--pinned', '-q', 'ext:f.txt');
    expect(r).toMatchObject({ code: 0, stdout: 'two\n', stderr: '' });
  });

  it('--pinned fails when a pin cannot be read: a folder that is no git repository, a folder not cloned', async () => {
    const { ws } = workspace([{ alias: 'ext', name: 'ext', ref: 'main' }, { alias: 'plain', name: 'plain', ref: 'v1' }, { alias: 'gone', name: 'gone', ref: 'v1' }]);
    fs.mkdirSync(path.join(ws, 'externals', 'plain'));
    fs.writeFileSync(path.join(ws, 'externals', 'plain', 'f.txt'), 'plain\n');
    const plain = await run(ws, '--pinned', 'plain:f.txt');
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain('Error: plain is pinned at v1 in workspace.lock.json, but externals/plain is not a git repository of its own: plain:f.txt');
    expect((await run(ws, '-q', 'plain:f.txt')).code).toBe(0);
    const gone = await run(ws, '--pinned', 'gone:f.txt');
    expect(gone.code).toBe(1);
    const aliases = (await run(ws, 'aliases')).stdout.split('\n');
    expect(aliases.find((l) => l.startsWith('gone '))).toContain('pin v1: not cloned: externals/gone does not exist');
    expect(aliases.find((l) => l.startsWith('plain '))).toContain('pin v1: externals/plain is not a git repository of its own');
  });

  it('--at names itself: an empty --at, --at outside a repository', async () => {
    const dir = tmpDir({ 'x.txt': 'x\n' });
    const empty = await run(dir, '--at', '', '@x.txt');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('an empty revision: --at needs a branch, tag or commit name');
    expect(empty.stderr).not.toContain("'@'");
    const outside = await run(dir, '--at', 'v1', '@x.txt');
    expect(outside.code).toBe(1);
    expect(outside.stderr).toContain(`is in no git repository: --at 'v1' names a revision`);
  });

  it('an LFS pointer in a revision ref does not suggest --worktree; in a pinned read it does', async () => {
    const pointer = 'version https://git-lfs.github.com/spec/v1\noid sha256:' + '0'.repeat(64) + '\nsize 12\n';
    const { ws, ext } = workspace([{ alias: 'ext', name: 'ext', ref: 'main' }]);
    ext.commit('lfs', { 'big.bin': pointer });
    const rev = await run(ws, 'ext@HEAD:big.bin');
    expect(rev.code).toBe(1);
    expect(rev.stderr).toContain('Stored in Git LFS');
    expect(rev.stderr).not.toContain('--worktree');
    expect(rev.stderr).toContain(`Check out ${ext.head().slice(0, 7)} and read the file without a revision (after git lfs pull)`);
    const pinned = await run(ws, 'ext:big.bin');
    expect(pinned.stderr).toContain('Read the checkout with --worktree (after git lfs pull)');
  });

  it('a partial clone without the pinned blob: one warning, not "reading the pinned commit" then "reading the checkout"', async () => {
    const { ws, pin: c1 } = partialCloneWorkspace();
    const r = await run(ws, '-q', 'ext:f.txt');
    expect(r).toMatchObject({ code: 0, stdout: 'second\n' });
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('Warning:'));
    expect(warnings).toEqual([expect.stringContaining(`lacks f.txt of commit ${c1.slice(0, 7)} (a partial clone): reading the checkout`)]);
  });
});

describe('pins in the aliases reports', () => {
  it('MCP\'s aliases tool answers the pin object refcat aliases --json has; an alias without a pin has none', async () => {
    const { ws, ext } = workspace([{ alias: 'ext', name: 'ext', ref: 'main' }, { alias: 'plain', name: 'plain' }]);
    fs.mkdirSync(path.join(ws, 'externals', 'plain'));
    const tool = TOOLS.find((t) => t.name === 'aliases')!;
    const answer = await runTool(tool, {}, { ctx: testCtx(ws), store: path.join(ws, '.store') });
    expect(answer.isError).toBe(false);
    const mcp = JSON.parse(answer.text).aliases;
    const cli = JSON.parse((await run(ws, 'aliases', '--json')).stdout).aliases;
    expect(mcp).toEqual(cli);
    expect(mcp.find((a: { name: string }) => a.name === 'ext').pin).toEqual({ ref: 'main', commit: ext.head(), checkout: ext.head(), at_pin: true, problem: null });
    expect(mcp.find((a: { name: string }) => a.name === 'plain').pin).toBeUndefined();
  });

  it('refcat aliases --help mentions pins', async () => {
    const help = await refcatInProcess(['aliases', '--help'], { cwd: tmpDir() });
    expect(help.stdout).toMatch(/pin/);
  });
});
