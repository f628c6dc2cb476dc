import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { pinnedWorkspace } from '../helpers/pinned-workspace.js';
import { refcatInProcess } from '../helpers/in-process.js';

/** A workspace whose lockfile lists `ext` (externals/ext), pinned at `pin` when given. */
const workspace = pinnedWorkspace;

const run = (ws: string, ...args: string[]) => refcatInProcess(args, { cwd: ws });

describe('what a revision ref prints reads the same version back (docs/refs.md#revision-refs)', () => {
  it('--spec of a path under a submodule names the alias repository\'s commit; JSON commit is that commit too', async () => {
    const lib = GitRepo.init({ 'lib.txt': 'lib at first\n' });
    const libFirst = lib.head();
    lib.commit('lib 2', { 'lib.txt': 'lib later\n' });
    let top = '';
    const { ws, ext } = workspace((ext) => {
      ext.commit('c1', { 'f.txt': 'f\n' });
      ext.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib.dir, 'sub');
      execFileSync('git', ['checkout', '-q', libFirst], { cwd: path.join(ext.dir, 'sub') });
      ext.git('add', 'sub');
      top = ext.commit('pin sub at its first commit');
      execFileSync('git', ['checkout', '-q', 'main'], { cwd: path.join(ext.dir, 'sub'), stdio: 'ignore' });
      ext.git('add', 'sub');
      ext.commit('sub moves on');
      ext.git('tag', 'later');
    });
    const spec = await run(ws, '--spec', `ext@${top.slice(0, 10)}:sub/lib.txt#L1`);
    expect(spec.stdout).toBe(`ext@${top}:sub/lib.txt#L1\n`);
    const back = await run(ws, '-q', spec.stdout.trim());
    expect(back).toMatchObject({ code: 0, stdout: 'lib at first\n' });
    const json = JSON.parse((await run(ws, '--json', 'ext@later:sub/lib.txt')).stdout);
    expect(json.refs[0]).toMatchObject({ content: 'lib later', commit: ext.head(), spec: `ext@${ext.head()}:sub/lib.txt` });
  });
});

describe('--list-files and --validate-only of a revision ref print refs that read that version', () => {
  it('a glob at a tag: each file as alias@<sha>:path, which reads the tag\'s bytes, not the checkout\'s', async () => {
    let c1 = '';
    const { ws } = workspace((ext) => {
      c1 = ext.commit('c1', { 'a.txt': 'a at v1\n', 'b.txt': 'b at v1\n' });
      ext.git('tag', 'v1');
      ext.commit('c2', { 'a.txt': 'a now\n', 'b.txt': null, 'c.txt': 'only now\n' });
    }, (ext) => ext.head());
    const listed = await run(ws, 'ext@v1:*.txt', '--list-files');
    expect(listed).toMatchObject({ code: 0, stdout: `ext@${c1}:a.txt\next@${c1}:b.txt\n` });
    expect((await run(ws, '-q', `ext@${c1}:a.txt`)).stdout).toBe('a at v1\n');
    const json = JSON.parse((await run(ws, 'ext@v1:*.txt', '--list-files', '--json')).stdout);
    expect(json.files).toEqual([`ext@${c1}:a.txt`, `ext@${c1}:b.txt`]);
    const checked = await run(ws, 'ext@v1:b.txt#L1', '--validate-only');
    expect(checked).toMatchObject({ code: 0, stdout: `✓ ext@v1:b.txt#L1 → ext@${c1}:b.txt (1-1)\n` });
    // A pinned read prints alias:path, as before: the lockfile names its version.
    expect((await run(ws, 'ext:*.txt', '--list-files')).stdout).toBe('ext:a.txt\next:c.txt\n');
  });

  it('--at: each file as .@<sha>:path from the repository\'s root', async () => {
    const repo = GitRepo.init({ 'src/x.txt': 'then\n' });
    const then = repo.head();
    repo.commit('now', { 'src/x.txt': 'now\n', 'src/y.txt': 'new\n' });
    const r = await refcatInProcess(['--at', 'HEAD~1', '@*.txt', '--list-files'], { cwd: path.join(repo.dir, 'src') });
    expect(r).toMatchObject({ code: 0, stdout: `.@${then}:src/x.txt\n` });
  });
});

describe('a symbolic link read at a version', () => {
  it('is refused with one line (git holds its target path, not the file\'s lines); a regular file beside it reads', async () => {
    const { ws, ext } = workspace((ext) => {
      ext.commit('c1', { 'real.txt': 'real\n', 'd/x.txt': 'x\n' });
      fs.symlinkSync('real.txt', path.join(ext.dir, 'link.txt'));
      ext.commit('link');
    }, (ext) => ext.head());
    const r = await run(ws, 'ext@HEAD:link.txt');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`Error: Not a regular file: ext@HEAD:link.txt: a symbolic link in commit ${ext.head().slice(0, 7)}\n`);
    const pinned = await run(ws, 'ext:link.txt');
    expect(pinned.code).toBe(1);
    expect(pinned.stderr).toContain('--worktree reads the checkout, where the link is followed');
    expect((await run(ws, '-q', 'ext@HEAD:real.txt', 'ext@HEAD:d/x.txt')).stdout).toBe('real\nx\n');
  });
});
