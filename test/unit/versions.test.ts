import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { partialCloneWorkspace, pinnedWorkspace } from '../helpers/pinned-workspace.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

/** A workspace whose lockfile pins `ext` (externals/ext) at `pin`; the clone's commits are made by `build`. */
const workspace = pinnedWorkspace;

const run = (ws: string, ...args: string[]) => refcatInProcess(args, { cwd: ws });

describe('pinned reads', () => {
  it('a pin behind the checkout: the pinned lines, @sha in the header, one warning for the alias however many refs', async () => {
    let c1 = '';
    const { ws, ext } = workspace((ext) => {
      c1 = ext.commit('c1', { 'f.txt': 'old 1\nold 2\n', 'g.txt': 'g\n' });
      ext.commit('c2', { 'f.txt': 'new 1\nnew 2\nnew 3\n' });
    }, () => c1);
    const r = await run(ws, 'ext:f.txt#L1-L2', 'ext:g.txt');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`## From: ext:f.txt:1-2 @${c1.slice(0, 7)} (relative to ${ext.dir})`);
    expect(r.stdout).toContain('1 | old 1\n2 | old 2\n');
    expect(r.stdout).not.toContain('new');
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('Warning:'));
    expect(warnings).toEqual([
      `Warning: ext is checked out at ${ext.head().slice(0, 7)}, workspace.lock.json pins ${c1.slice(0, 7)}: reading the pinned commit (--worktree reads the checkout)`,
    ]);
    // --worktree reads the checkout as it is, with no warning.
    const w = await run(ws, '--worktree', 'ext:f.txt#L1-L2');
    expect(w.stdout).toContain('1 | new 1\n');
    expect(w.stdout).not.toContain(' @');
    expect(w.stderr).toBe('');
  });

  it('a pin ahead of the checkout: the pinned commit is read, under --json with the commit and the warning in warnings', async () => {
    let c2 = '';
    const { ws, ext } = workspace((ext) => {
      const c1 = ext.commit('c1', { 'f.txt': 'one\n' });
      c2 = ext.commit('c2', { 'f.txt': 'two\n' });
      ext.git('checkout', '-q', c1);
    }, () => c2);
    const r = await run(ws, '--json', 'ext:f.txt');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.refs[0]).toMatchObject({ content: 'two', commit: c2, spec: 'ext:f.txt', alias: 'ext' });
    expect(out.warnings).toEqual([expect.objectContaining({ code: 'pin_differs', ref: 'ext:f.txt' })]);
    expect(r.stderr).toBe('');
    expect(ext.head()).not.toBe(c2);
  });

  it('a file only at the pin is valid; a file only in the checkout is broken and says the checkout has it', async () => {
    let c1 = '';
    const { ws } = workspace((ext) => {
      c1 = ext.commit('c1', { 'gone.txt': 'was here\n' });
      ext.commit('c2', { 'gone.txt': null, 'new.txt': 'new\n' });
    }, () => c1);
    const ok = await run(ws, '-q', 'ext:gone.txt');
    expect(ok).toMatchObject({ code: 0, stdout: 'was here\n' });
    const broken = await run(ws, 'ext:new.txt');
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('Error: REFCAT ref not found: ext:new.txt');
    expect(broken.stderr).toContain(`Not in commit ${c1.slice(0, 7)} of externals/ext`);
    expect(broken.stderr).toContain('The checkout has it: --worktree reads the checkout');
  });

  it('the checkout at the pin: read from disk (a file changed on disk is read at the pin, with a warning)', async () => {
    let c1 = '';
    const { ws, ext } = workspace((ext) => {
      c1 = ext.commit('c1', { 'f.txt': 'pinned\n', 'h.txt': 'h\n' });
    }, () => c1);
    const clean = await run(ws, 'ext:h.txt');
    expect(clean).toMatchObject({ code: 0, stderr: '' });
    expect(clean.stdout).toContain(`## From: ext:h.txt @${c1.slice(0, 7)}`);
    fs.writeFileSync(path.join(ext.dir, 'f.txt'), 'edited\n');
    const changed = await run(ws, '-q', 'ext:f.txt');
    expect(changed.stdout).toBe('pinned\n');
    expect(changed.stderr).toContain(`Warning: ext:f.txt is changed in the checkout of ext: reading the pinned commit ${c1.slice(0, 7)} (--worktree reads the checkout)`);
  });

  it('a pin missing from the clone: the checkout with a warning naming the fetch; --pinned exits 1', async () => {
    const missing = 'a'.repeat(40);
    const { ws } = workspace((ext) => void ext.commit('c1', { 'f.txt': 'checkout\n' }), () => missing);
    const r = await run(ws, '-q', 'ext:f.txt');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('checkout\n');
    expect(r.stderr).toContain(`Warning: ext: workspace.lock.json pins the commit ${missing}, which the clone at externals/ext does not have: reading the checkout`);
    expect(r.stderr).toContain(`Fetch it: git -C externals/ext fetch origin ${missing}`);
    const strict = await run(ws, '--pinned', 'ext:f.txt');
    expect(strict.code).toBe(1);
    expect(strict.stdout).toBe('');
    expect((await run(ws, '--pinned', '--worktree', 'ext:f.txt')).code).toBe(2);
    expect(strict.stderr).toContain(`Error: ext: workspace.lock.json pins the commit ${missing}, which the clone at externals/ext does not have: ext:f.txt`);
  });

  it('a partial clone without the pinned blob: the checkout with a warning (git fetches nothing); --pinned exits 1', async () => {
    const { ws, pin: c1 } = partialCloneWorkspace();
    const r = await run(ws, '-q', 'ext:f.txt');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('second\n');
    expect(r.stderr).toContain(`lacks f.txt of commit ${c1.slice(0, 7)} (a partial clone): reading the checkout`);
    // Nothing was fetched: the blob is still missing.
    const strict = await run(ws, '--pinned', 'ext:f.txt');
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('(a partial clone): ext:f.txt');
  });

  it('a branch pin reads origin/NAME (else the local branch) as it is now; a tag pin reads the tag', async () => {
    let tagged = '';
    const { ws, ext } = workspace((ext) => {
      tagged = ext.commit('c1', { 'f.txt': 'v1\n' });
      ext.git('tag', 'v1.0');
      ext.git('checkout', '-q', '-b', 'release');
      ext.commit('c2', { 'f.txt': 'release\n' });
      ext.git('checkout', '-q', 'main');
      ext.commit('c3', { 'f.txt': 'main\n' });
    }, () => 'release');
    const r = await run(ws, '-q', 'ext:f.txt');
    expect(r.stdout).toBe('release\n');
    expect(r.stderr).toMatch(/workspace\.lock\.json pins release \([0-9a-f]{7}\): reading the pinned commit/);
    // The same name on origin wins over the local branch.
    ext.git('update-ref', 'refs/remotes/origin/release', tagged);
    expect((await run(ws, '-q', 'ext:f.txt')).stdout).toBe('v1\n');
    fs.writeFileSync(path.join(ws, 'workspace.lock.json'), JSON.stringify({ repos: [{ alias: 'ext', name: 'ext', ref: 'v1.0' }] }));
    const t = await run(ws, '--json', 'ext:f.txt');
    expect(JSON.parse(t.stdout).refs[0]).toMatchObject({ content: 'v1', commit: tagged });
  });

  it('a ref by name is parsed as the pinned commit holds the file', async () => {
    let c1 = '';
    const { ws } = workspace((ext) => {
      c1 = ext.commit('c1', { 'a.ts': 'export function keep() {\n  return 1;\n}\n' });
      ext.commit('c2', { 'a.ts': '// moved down\n\nexport function keep() {\n  return 2;\n}\n' });
    }, () => c1);
    const r = await run(ws, '--json', 'ext:a.ts#keep');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).refs[0]).toMatchObject({ line_start: 1, line_end: 3, content: 'export function keep() {\n  return 1;\n}', commit: c1 });
    const rev = await run(ws, '-q', 'ext@HEAD:a.ts#keep');
    expect(rev.stdout).toBe('export function keep() {\n  return 2;\n}\n');
  });

  it('an LFS pointer at the pin is an error that says so', async () => {
    let c1 = '';
    const pointer = 'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n';
    const { ws } = workspace((ext) => {
      c1 = ext.commit('c1', { 'big.bin': pointer });
      ext.commit('c2', { 'big.bin': 'real content\n' });
    }, () => c1);
    const r = await run(ws, 'ext:big.bin');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Error: Stored in Git LFS: ext:big.bin: commit ${c1.slice(0, 7)} holds only its LFS pointer`);
  });

  it('a path under a submodule is read at the commit the pinned tree records, from the submodule\'s clone', async () => {
    const lib = GitRepo.init({ 'lib.txt': 'lib at first\n' });
    const libFirst = lib.head();
    lib.commit('lib 2', { 'lib.txt': 'lib later\n' });
    let pinned = '';
    const { ws, ext } = workspace((ext) => {
      ext.commit('c1', { 'f.txt': 'f\n' });
      ext.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib.dir, 'sub');
      execFileSync('git', ['checkout', '-q', libFirst], { cwd: path.join(ext.dir, 'sub') });
      ext.git('add', 'sub');
      pinned = ext.commit('pin sub at its first commit');
      execFileSync('git', ['checkout', '-q', 'main'], { cwd: path.join(ext.dir, 'sub'), stdio: 'ignore' });
      ext.git('add', 'sub');
      ext.commit('sub moves on');
    }, () => pinned);
    const r = await run(ws, '-q', 'ext:sub/lib.txt');
    expect(r.stdout).toBe('lib at first\n');
    // Without the submodule's clone, the version is unknown, and says why.
    fs.rmSync(path.join(ext.dir, 'sub'), { recursive: true, force: true });
    const gone = await run(ws, 'ext:sub/lib.txt');
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(`Error: Version unknown: ext:sub/lib.txt: sub is a submodule at ${libFirst.slice(0, 7)}, and its clone at externals/ext/sub is not checked out`);
    // The submodule itself is no file, and it is in the tree: not `not found`.
    for (const ref of ['ext:sub', `ext@${pinned}:sub#L1`]) {
      const sub = await run(ws, '--json', ref);
      expect(sub.code).toBe(1);
      const [error] = JSON.parse(sub.stdout).errors;
      expect(error.code).toBe('is_directory');
      expect(error.message).toBe(`Is a submodule: ${ref}`);
      expect(error.details).toEqual([`Commit ${pinned.slice(0, 7)} of externals/ext records sub as a submodule at ${libFirst.slice(0, 7)}: name a file in it (${ref.replace(/#.*/, '')}/<path>)`]);
    }
  });

  it('a glob into a pinned alias lists the pinned tree, where .gitignore has no say', async () => {
    let c1 = '';
    const { ws } = workspace((ext) => {
      ext.commit('c0', { 'src/a.ts': 'a\n', 'src/b.ts': 'b\n' });
      // Tracked, and ignored: a walk of the disk would skip it.
      c1 = ext.commit('c1', { '.gitignore': 'src/b.ts\n' });
      ext.commit('c2', { 'src/a.ts': null, 'src/c.ts': 'c\n' });
    }, () => c1);
    const r = await run(ws, '--list-files', 'ext:src/*.ts');
    expect(r.stdout).toBe('ext:src/a.ts\next:src/b.ts\n');
    const s = await run(ws, '--spec', 'ext:src/*.ts');
    expect(s.stdout).toBe('ext:src/a.ts\next:src/b.ts\n');
  });

  it('a pinned alias whose folder is no clone of its own (a plain folder in the workspace repository): the folder, with a warning', async () => {
    const ws = GitRepo.init({ 'externals/ext/f.txt': 'vendored\n', 'workspace.lock.json': JSON.stringify({ repos: [{ alias: 'ext', name: 'ext', ref: 'abc1234' }] }) });
    const r = await run(ws.dir, '-q', 'ext:f.txt');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('vendored\n');
    expect(r.stderr).toContain('Warning: ext is pinned at abc1234 in workspace.lock.json, but externals/ext is not a git repository: reading the folder');
  });

  it('without a git command: pinned aliases read their checkouts with one warning; a revision ref fails', async () => {
    let c1 = '';
    const { ws } = workspace((ext) => {
      c1 = ext.commit('c1', { 'f.txt': 'one\n' });
      ext.commit('c2', { 'f.txt': 'two\n' });
    }, () => c1);
    const env = { PATH: tmpDir() };
    const r = await refcatInProcess(['-q', 'ext:f.txt', 'ext:f.txt'], { cwd: ws, env });
    expect(r).toEqual({ code: 0, stdout: 'two\ntwo\n', stderr: 'Warning: git is not installed (or not on PATH): pinned aliases are read from their checkouts\n' });
    const rev = await refcatInProcess(['-q', 'ext@HEAD:f.txt'], { cwd: ws, env });
    expect(rev.code).toBe(1);
    expect(rev.stderr).toContain('Error: git is not installed (or not on PATH), and ext@HEAD:f.txt names a version');
  });

  it('an alias without a pin, or one given by --alias, reads the disk as before', async () => {
    const { ws, ext } = workspace((ext) => {
      ext.commit('c1', { 'f.txt': 'one\n' });
      ext.commit('c2', { 'f.txt': 'two\n' });
    }, () => undefined);
    const r = await run(ws, 'ext:f.txt', '--alias', `other=${ext.dir}`, 'other:f.txt');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).not.toContain(' @');
  });
});

describe('revision refs', () => {
  it('alias@REV:path, .@REV:path and --at read a revision; --spec keeps it as the full sha', async () => {
    let c1 = '';
    const { ws, ext } = workspace((ext) => {
      c1 = ext.commit('c1', { 'f.txt': 'old\n' });
      ext.git('tag', 'v1');
      ext.commit('c2', { 'f.txt': 'new\n' });
    }, () => undefined);
    const r = await run(ws, 'ext@v1:f.txt');
    expect(r.stdout).toContain(`## From: ext:f.txt @${c1.slice(0, 7)} (relative to ${ext.dir})`);
    expect(r.stdout).toContain('old\n');
    expect((await run(ws, '--spec', 'ext@v1:f.txt#L1', 'ext@HEAD~1:f.txt')).stdout).toBe(`ext@${c1}:f.txt#L1\next@${c1}:f.txt\n`);
    // In the repository holding the working directory.
    const inRepo = path.join(ext.dir, 'sub-folder');
    fs.mkdirSync(inRepo);
    expect((await refcatInProcess(['-q', '.@v1:f.txt'], { cwd: inRepo })).stdout).toBe('old\n');
    const at = await refcatInProcess(['--spec', '--at', 'v1', '@../f.txt'], { cwd: inRepo });
    expect(at.stdout).toBe(`.@${c1}:f.txt\n`);
    expect((await refcatInProcess(['-q', '--at', 'HEAD~1', '@../f.txt'], { cwd: inRepo })).stdout).toBe('old\n');
  });

  it('--at reads a workflow\'s refs at the revision too, relative to the workflow\'s folder', async () => {
    const repo = GitRepo.init({ 'flows/x.txt': 'then\n', 'flows/w.conv': 'MODEL gpt-4\nREFCAT @x.txt#L1\n' });
    const then = repo.head();
    repo.commit('now', { 'flows/x.txt': 'now\n' });
    const r = await refcatInProcess(['--spec', '--at', 'HEAD~1', '--from-workflow', 'flows/w.conv'], { cwd: repo.dir });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`.@${then}:flows/x.txt#L1\n`);
  });

  it('--spec of a revision ref, read back from another folder after the clone moves: the same bytes; a pinned read prints no revision', async () => {
    let c1 = '';
    const { ws, ext } = workspace((ext) => {
      c1 = ext.commit('c1', { 'f.txt': 'a\nb\nc\n' });
      ext.commit('c2', { 'f.txt': 'x\na\nb\nc\n' });
    }, (ext) => ext.head());
    const spec = (await run(ws, '--spec', 'ext@HEAD~1:f.txt#/b/:-1..+1')).stdout.trim();
    expect(spec).toBe(`ext@${c1}:f.txt#L1-L3`);
    const before = (await run(ws, '-q', spec)).stdout;
    ext.commit('c3', { 'f.txt': 'moved\non\n' });
    const elsewhere = path.join(ws, 'docs', 'deep');
    fs.mkdirSync(elsewhere, { recursive: true });
    const after = await refcatInProcess(['-q', spec], { cwd: elsewhere });
    expect(after.stdout).toBe(before);
    expect(before).toBe('a\nb\nc\n');
    expect((await run(ws, '--spec', 'ext:f.txt#L2')).stdout).toBe('ext:f.txt#L2\n');
    // --cite writes the same refs in its comment.
    expect((await run(ws, '--cite', spec)).stdout).toContain(`ext@${c1}:f.txt#L1-L3`);
    expect((await run(ws, '--cite', 'ext:f.txt#L2')).stdout).toMatch(/ ext:f\.txt#L2\b/);
  });

  it('refused: a revision beginning with -, stash@{0}, an unknown revision, a tree id, a path with %0A, a path leaving the alias', async () => {
    const { ws, ext } = workspace((ext) => void ext.commit('c1', { 'f.txt': 'one\n', 'd/g.txt': 'g\n' }), () => undefined);
    const tree = ext.git('rev-parse', 'HEAD:d').trim();
    const dash = await run(ws, 'ext@--output=written:f.txt');
    expect(dash.code).toBe(2);
    expect(dash.stderr).toContain("revision '--output=written' begins with '-'");
    expect(fs.existsSync(path.join(ws, 'written'))).toBe(false);
    expect(fs.existsSync(path.join(ext.dir, 'written'))).toBe(false);
    const flag = await run(ws, '--at', '--output=x', '@f.txt');
    expect(flag.code).toBe(2);
    const stash = await run(ws, 'ext@stash@{0}:f.txt');
    expect(stash.code).toBe(2);
    expect(stash.stderr).toContain("the revision 'stash@{0}' is a reflog entry");
    const unknown = await run(ws, 'ext@no-such-tag:f.txt');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("Error: Unknown revision 'no-such-tag' in externals/ext: ext@no-such-tag:f.txt");
    const treeRef = await run(ws, `ext@${tree}:f.txt`);
    expect(treeRef.code).toBe(1);
    expect(treeRef.stderr).toContain(`Unknown revision '${tree}'`);
    const newline = await run(ws, 'ext@HEAD:f%0Aother.txt');
    expect(newline.code).toBe(1);
    expect(newline.stderr).toContain('A path holding CR, LF or NUL is never read at a version');
    const unknownAlias = await run(ws, 'nope@v1:f.txt');
    expect(unknownAlias.code).toBe(1);
    expect(unknownAlias.stderr).toContain("Error: Unknown REFCAT alias: 'nope' in nope@v1:f.txt");
    const noRepo = await run(ws, '.@HEAD:f.txt');
    expect(noRepo.code).toBe(1);
    expect(noRepo.stderr).toContain(`Error: ${ws} is in no git repository: .@HEAD:f.txt names a revision`);
    const leaving = await run(ws, 'ext@HEAD:../../workspace.lock.json');
    expect(leaving.code).toBe(1);
    expect(leaving.stderr).toContain('The path leaves the folder of ext');
  });
});

describe('git processes', () => {
  function shim(): { env: Record<string, string>; count: () => number } {
    const bin = tmpDir();
    const log = path.join(bin, 'log');
    fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "$*" >> "$SHIM_LOG"\nexec "$REAL_GIT" "$@"\n`, { mode: 0o755 });
    const env = { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, SHIM_LOG: log, REAL_GIT: realGit };
    return { env, count: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').length : 0) };
  }

  it('50 refs into one pinned repository start at most 3 git processes; an alias without a pin starts none', async () => {
    let c1 = '';
    const files: Record<string, string> = {};
    for (let i = 0; i < 50; i++) files[`f${i}.txt`] = `file ${i}\n`;
    const { ws } = workspace((ext) => {
      c1 = ext.commit('c1', files);
      ext.commit('c2', { 'f0.txt': 'changed\n' });
    }, () => c1, [{ alias: 'plain', name: 'plain' }]);
    fs.mkdirSync(path.join(ws, 'externals', 'plain'));
    fs.writeFileSync(path.join(ws, 'externals', 'plain', 'p.txt'), 'p\n');
    const pinned = shim();
    const refs = Object.keys(files).map((f) => `ext:${f}#L1`);
    const r = await refcatInProcess(refs, { cwd: ws, env: pinned.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('1 | file 0\n');
    expect(pinned.count()).toBeGreaterThan(0);
    expect(pinned.count()).toBeLessThanOrEqual(3);
    const plain = shim();
    const p = await refcatInProcess(['plain:p.txt', 'plain:p.txt#L1'], { cwd: ws, env: plain.env });
    expect(p.code).toBe(0);
    expect(plain.count()).toBe(0);
    const worktree = shim();
    expect((await refcatInProcess(['--worktree', ...refs], { cwd: ws, env: worktree.env })).code).toBe(0);
    expect(worktree.count()).toBe(0);
  });
});

describe('refcat aliases', () => {
  it('shows each pin and whether the checkout is at it; an alias without a pin shows none', async () => {
    let c1 = '';
    const { ws, ext } = workspace((ext) => {
      c1 = ext.commit('c1', { 'f.txt': 'one\n' });
      ext.commit('c2', { 'f.txt': 'two\n' });
    }, () => c1, [{ alias: 'plain', name: 'plain' }, { alias: 'gone', name: 'gone', ref: 'b'.repeat(40) }]);
    const text = await run(ws, 'aliases');
    expect(text.code).toBe(0);
    const line = (name: string) => text.stdout.split('\n').find((l) => l.startsWith(name + ' '))!;
    expect(line('ext')).toMatch(new RegExp(`  pin ${c1.slice(0, 7)}: checked out at ${ext.head().slice(0, 7)}$`));
    expect(line('plain')).not.toContain('pin');
    expect(line('gone')).toContain('not cloned: externals/gone does not exist');
    ext.git('checkout', '-q', c1);
    const json = JSON.parse((await run(ws, 'aliases', '--json')).stdout);
    expect(json.aliases.find((a: { name: string }) => a.name === 'ext').pin).toEqual({ ref: c1, commit: c1, checkout: c1, at_pin: true, problem: null });
    expect(json.aliases.find((a: { name: string }) => a.name === 'plain').pin).toBeUndefined();
  });
});

describe('revision refs in docs', () => {
  it('git@github.com:org/repo.git and e-mail addresses stay prose, also where git is an alias', async () => {
    const { findDocRefs } = await import('../../src/core/doc-refs/find-doc-refs.js');
    const known = (name: string) => name === 'git' || name === 'ext';
    const text = 'Clone git@github.com:org/repo.git, or mail bob@example.com:notes.md.\n';
    expect(findDocRefs(text, { markdown: true, isKnownAlias: known })).toEqual([]);
    const { ws } = workspace((ext) => void ext.commit('c1', { 'f.txt': 'one\n' }), () => undefined, [{ alias: 'git', name: 'git' }]);
    fs.writeFileSync(path.join(ws, 'notes.md'), `# Notes\n\n${text}\nAnd ext:f.txt is a ref.\n`);
    const r = await run(ws, 'verify', 'refs', 'notes.md');
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toMatch(/1 ref/);
  });
});

describe('files larger than a version holds in memory', () => {
  it('are read from disk when the checkout holds the pinned blob, hashed as they are read; otherwise refused', async () => {
    const { VersionReader } = await import('../../src/core/versions/version-reader.js');
    const big = 'x'.repeat(5000) + '\n';
    const repo = GitRepo.init({ 'big.txt': big });
    const pin = repo.head();
    const reader = new VersionReader({ cwd: repo.dir, env: {}, home: tmpDir() }, { maxBytes: 100 });
    const target = { root: repo.dir, alias: 'ext', pin, ref: 'ext:big.txt' };
    try {
      expect(await reader.read(target, 'big.txt')).toMatchObject({ commit: pin, bytes: null });
      fs.writeFileSync(path.join(repo.dir, 'big.txt'), 'y' + big.slice(1));
      await expect(reader.read(target, 'big.txt')).rejects.toThrow('A file larger than 0 MiB is read at a version only from a checkout at that version: ext:big.txt');
    } finally {
      reader.close();
    }
  });

  it('a revision ref too: read from disk when the checkout is at that revision and holds its blob (docs/refs.md#refs-at-a-version)', async () => {
    const { VersionReader } = await import('../../src/core/versions/version-reader.js');
    const big = 'x'.repeat(5000) + '\n';
    const repo = GitRepo.init({ 'big.txt': big });
    const first = repo.head();
    const reader = new VersionReader({ cwd: repo.dir, env: {}, home: tmpDir() }, { maxBytes: 100 });
    try {
      const at = await reader.read({ root: repo.dir, alias: '.', rev: 'HEAD', ref: '.@HEAD:big.txt' }, 'big.txt');
      expect(at).toMatchObject({ commit: first, bytes: null, revision: true });
      // The checkout elsewhere (a later commit), or the file changed: refused, never the wrong bytes.
      repo.commit('c2', { 'big.txt': 'y' + big.slice(1) });
      await expect(reader.read({ root: repo.dir, alias: '.', rev: first, ref: `.@${first}:big.txt` }, 'big.txt')).rejects.toThrow(/larger than 0 MiB/);
      fs.writeFileSync(path.join(repo.dir, 'big.txt'), 'z' + big.slice(1));
      await expect(reader.read({ root: repo.dir, alias: '.', rev: 'HEAD', ref: '.@HEAD:big.txt' }, 'big.txt')).rejects.toThrow(/larger than 0 MiB/);
    } finally {
      reader.close();
    }
  });
});

describe('the library', () => {
  it('prepareVersions, then extract(): the pinned lines and their commit; VersionReader.read() for one file', async () => {
    const { prepareVersions, extract, resolveAliases, VersionReader } = await import('../../src/index.js');
    let c1 = '';
    const { ws, ext } = workspace((ext) => {
      c1 = ext.commit('c1', { 'f.txt': 'pinned\n' });
      ext.commit('c2', { 'f.txt': 'checkout\n' });
    }, () => c1);
    const ctx = { cwd: ws, env: {}, home: tmpDir() };
    const aliases = resolveAliases(ctx);
    const versions = await prepareVersions([{ inputs: ['ext:f.txt'] }], ctx, { aliases });
    const report = extract(['ext:f.txt'], ctx, { aliases, versions: versions ?? undefined });
    expect(report.results.map((r) => [r.lines, r.commit])).toEqual([[['pinned'], c1]]);
    expect(report.warnings.map((w) => w.code)).toEqual(['pin_differs']);
    expect(extract(['ext:f.txt'], ctx, { aliases }).results[0]!.lines).toEqual(['checkout']);
    const reader = new VersionReader(ctx);
    try {
      const read = await reader.read({ root: ext.dir, alias: 'ext', pin: c1, ref: 'ext:f.txt' }, 'f.txt');
      expect([read.commit, read.bytes?.toString(), read.revision, read.warnings.length]).toEqual([c1, 'pinned\n', false, 1]);
      const rev = await reader.read({ root: ext.dir, alias: 'ext', rev: 'HEAD', ref: 'ext@HEAD:f.txt' }, 'f.txt');
      expect([rev.commit, rev.bytes?.toString(), rev.revision]).toEqual([ext.head(), 'checkout\n', true]);
    } finally {
      reader.close();
    }
  });
});
