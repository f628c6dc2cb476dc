import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AgentContext, runTool, TOOLS } from '../../src/core/agents/mcp-tools.js';
import { BufferSource } from '../../src/core/paging/byte-source.js';
import { safeWrite } from '../../src/core/safe-write/safe-write.js';
import { isGitDirectory } from '../../src/shared/git-directory.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// git takes any folder holding HEAD, objects/ and refs/ for a git directory, whatever its name,
// and runs what its config names (core.fsmonitor) at the next `git status` there. Four ref_export
// calls assembled one under vendor/lib; only a path component named `.git` was refused
// (docs/fd-and-ref.md#git-directories).

const git = (cwd: string, ...args: string[]) => spawnSync('git', args, { cwd, encoding: 'utf8' });

/** The four pieces of a git directory whose config runs a command (it touches `pwned`). */
function pieces(root: string): [string, string][] {
  const config = `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = "touch ${path.join(root, 'pwned')}; false"\n`;
  return [
    ['vendor/lib/HEAD', 'ref: refs/heads/main\n'],
    ['vendor/lib/config', config],
    ['vendor/lib/objects/info/keep', 'keep\n'],
    ['vendor/lib/refs/heads/keep', 'keep\n'],
  ];
}

function permutations<T>(xs: T[]): T[][] {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

const exportTool = TOOLS.find((t) => t.name === 'ref_export')!;
const answer = (text: string) => `<ref id="x">\n${text}</ref>\n`;

describe('ref_export cannot assemble a git directory under another name', () => {
  it('the four calls of the attack: the last piece is refused, and git status in vendor/lib runs nothing', async () => {
    const root = tmpDir();
    expect(git(root, 'init', '-q').status).toBe(0);
    const agent: AgentContext = { ctx: testCtx(root), store: path.join(root, '..', 'store') };
    const results = [];
    for (const [to, text] of pieces(root)) results.push(await runTool(exportTool, { text: answer(text), id: 'x', to }, agent));
    expect(results.map((r) => r.isError)).toEqual([false, false, false, true]);
    expect(results[3]!.text).toBe(
      'Error: Refused: vendor/lib/refs/heads/keep would make vendor/lib a git directory (HEAD, objects/ and refs/: git would run what vendor/lib/config names)\n',
    );
    expect(isGitDirectory(path.join(root, 'vendor/lib'))).toBe(false);
    git(path.join(root, 'vendor/lib'), 'status');
    expect(fs.existsSync(path.join(root, 'pwned'))).toBe(false);
  });

  it('in every order of the four writes (CLI ref export), one is refused and no git directory results', async () => {
    for (const order of permutations([0, 1, 2, 3])) {
      const root = tmpDir();
      const all = pieces(root);
      const codes: number[] = [];
      for (const i of order) {
        const [to, text] = all[i]!;
        fs.writeFileSync(path.join(root, 'answer.md'), answer(text));
        codes.push((await refcatInProcess(['ref', 'export', 'x', '--to', to, '--from', 'answer.md'], { cwd: root })).code);
      }
      expect(codes.filter((c) => c === 2), `order ${order}`).toHaveLength(1);
      expect(isGitDirectory(path.join(root, 'vendor/lib')), `order ${order}`).toBe(false);
    }
  });
});

describe('two writes of one process that race', () => {
  it('a large HEAD whose blocks are written while another call adds objects/ and refs/ is refused before it takes its name', async () => {
    const root = tmpDir();
    const head = Buffer.from('ref: refs/heads/main\n'.padEnd(3 << 20, ' ') + '\n');
    const other = () =>
      Promise.all([
        safeWrite(new BufferSource(Buffer.from('x\n')), { to: 'vendor/lib/objects/info/keep', mode: 'write' }, testCtx(root)),
        safeWrite(new BufferSource(Buffer.from('x\n')), { to: 'vendor/lib/refs/heads/keep', mode: 'write' }, testCtx(root)),
      ]).then(() => undefined);
    let paused = false;
    const write = safeWrite(new BufferSource(head), { to: 'vendor/lib/HEAD', mode: 'write' }, testCtx(root), {
      // The first pause between blocks: the other calls run, each judged against the tree as it is.
      afterBlock: () => (paused ? Promise.resolve() : ((paused = true), other())),
    });
    await expect(write).rejects.toThrow('Refused: vendor/lib/HEAD would make vendor/lib a git directory (HEAD, objects/ and refs/');
    expect(fs.readdirSync(path.join(root, 'vendor/lib')).sort()).toEqual(['objects', 'refs']);
    expect(isGitDirectory(path.join(root, 'vendor/lib'))).toBe(false);
  });
});

describe('a linked worktree\'s kind of git directory: HEAD and commondir', () => {
  it('HEAD is written; the commondir that would name a repository beside it is refused', async () => {
    const root = tmpDir({ 'answer.md': answer('../../.git') });
    expect(git(root, 'init', '-q').status).toBe(0);
    const head = await refcatInProcess(['ref', 'export', 'x', '--to', 'wt/HEAD', '--from', 'answer.md'], { cwd: root });
    expect(head.code).toBe(0);
    const common = await refcatInProcess(['ref', 'export', 'x', '--to', 'wt/commondir', '--from', 'answer.md'], { cwd: root });
    expect([common.code, common.stderr]).toEqual([2, 'Error: Refused: wt/commondir would make wt a git directory (HEAD and commondir: git would run what wt/config names)\n']);
    expect(isGitDirectory(path.join(root, 'wt'))).toBe(false);
  });
});

describe('no write goes into a git directory, whatever its name (ref export, fd write, MCP)', () => {
  /** A repository with a bare one and a separate git directory under ordinary names. */
  function repos() {
    const root = tmpDir({ 'answer.md': answer('[core]\n\tfsmonitor = "touch pwned"\n') });
    expect(git(root, 'init', '-q').status).toBe(0);
    expect(git(root, 'init', '-q', '--bare', 'vendor/mirror').status).toBe(0);
    fs.mkdirSync(path.join(root, 'meta'));
    expect(git(root, 'init', '-q', '--separate-git-dir', path.join(root, 'meta/store'), path.join(root, 'work')).status).toBe(0);
    return root;
  }
  const targets: [string, string][] = [
    ['vendor/mirror/config', 'the git directory vendor/mirror'],
    ['vendor/mirror/hooks/post-checkout', 'the git directory vendor/mirror'],
    ['meta/store/config', 'the git directory meta/store'],
    ['.git/config', 'a .git folder'],
    ['work/.git', 'a .git folder'],
    ['sub/.GIT/config', 'a .git folder'],
  ];

  it.each(targets)('ref export --to %s is refused (--force and --allow-outside too)', async (to, what) => {
    const root = repos();
    const r = await refcatInProcess(['ref', 'export', 'x', '--to', to, '--from', 'answer.md', '--force', '--allow-outside'], { cwd: root });
    expect([r.code, r.stderr]).toEqual([2, `Error: Refused: ${to} is inside ${what} (git runs what its config and hooks name)\n`]);
  });

  it('fd write and MCP ref_export refuse the same', async () => {
    const root = repos();
    const env = { REFCAT_STORE: path.join(root, '..', 'store-fd') };
    expect((await refcatInProcess(['ref', 'scan', 'answer.md'], { cwd: root, env })).code).toBe(0);
    const fd = await refcatInProcess(['fd', 'write', 'ref:x', '--to', 'vendor/mirror/config', '--force'], { cwd: root, env });
    expect([fd.code, fd.stderr]).toEqual([2, 'Error: Refused: vendor/mirror/config is inside the git directory vendor/mirror (git runs what its config and hooks name)\n']);
    const agent: AgentContext = { ctx: testCtx(root), store: path.join(root, '..', 'store') };
    const mcp = await runTool(exportTool, { path: 'answer.md', id: 'x', to: 'meta/store/config', force: true }, agent);
    expect(mcp).toEqual({ text: 'Error: Refused: meta/store/config is inside the git directory meta/store (git runs what its config and hooks name)\n', isError: true });
  });

  it('files that only share a name with git\'s are written: HEAD, config and refs/ in an ordinary folder', async () => {
    const root = repos();
    for (const to of ['docs/HEAD', 'docs/config', 'docs/refs/x.md', 'src/objects/y.md', 'src/refs/z.md']) {
      const r = await refcatInProcess(['ref', 'export', 'x', '--to', to, '--from', 'answer.md'], { cwd: root });
      expect([to, r.code]).toEqual([to, 0]);
    }
    // The piece that would complete one is the refusal.
    const last = await refcatInProcess(['ref', 'export', 'x', '--to', 'docs/objects/y.md', '--from', 'answer.md'], { cwd: root });
    expect(last.code).toBe(2);
  });
});

describe('reads: a git directory is outside, and so is the answer to a pattern outside', () => {
  // `.git/config` holds the checkout's credentials (http.extraheader): a workflow or doc anyone can
  // change must not quote it, nor test patterns against it or any file outside the root
  // (docs/reference.md#limits-and-hostile-input).
  const credential = 'AUTHORIZATION: basic c2VjcmV0LXRva2Vu';
  function checkout() {
    const root = tmpDir();
    expect(git(root, 'init', '-q').status).toBe(0);
    expect(git(root, 'config', 'http.extraheader', credential).status).toBe(0);
    expect(git(root, 'init', '-q', '--bare', 'vendor/mirror').status).toBe(0);
    expect(git(root, 'config', '--file', 'vendor/mirror/config', 'http.extraheader', credential).status).toBe(0);
    return root;
  }
  const flow = (refs: string) => `MODEL gpt-4\nREFCAT ${refs}\nPROMPT hi\n`;

  it.each([
    ['validate', ['validate', 'flow.conv']],
    ['validate --format github', ['validate', 'flow.conv', '--format', 'github']],
    ['validate --json', ['validate', 'flow.conv', '--json']],
    ['verify refs', ['verify', 'refs', 'flow.conv']],
  ])('%s never prints the line of .git/config or of a bare repository\'s config', async (_name, args) => {
    const root = checkout();
    fs.writeFileSync(path.join(root, 'flow.conv'), flow('@.git/config#/extraheader/:function @vendor/mirror/config#/extraheader/:function'));
    const r = await refcatInProcess(args, { cwd: root });
    expect(r.stdout + r.stderr).not.toContain('c2VjcmV0');
    expect(r.stdout + r.stderr).toContain('Pattern not checked');
  });

  it('verify refs gives a pattern ref to a file outside the root no verdict: the same answer whether it matches or not', async () => {
    const outside = tmpDir({ 'secret.txt': 'root:x:0:0\n' });
    const secret = path.join(outside, 'secret.txt');
    const root = tmpDir({ 'doc.md': `See @${secret}#/^root/ and @${secret}#/^nobody/ here.\n` });
    const r = await refcatInProcess(['verify', 'refs', 'doc.md', '--json'], { cwd: root });
    const j = JSON.parse(r.stdout);
    expect([r.code, j.passed, j.broken, j.valid]).toEqual([0, true, 0, 2]);
    expect(j.warnings.map((w: { code: string; ref: string }) => [w.code, w.ref])).toEqual([
      ['pattern_outside', `@${secret}#/^root/`],
      ['pattern_outside', `@${secret}#/^nobody/`],
    ]);
    // --strict fails on the warning, whatever the file holds.
    const strict = await refcatInProcess(['verify', 'refs', 'doc.md', '--strict'], { cwd: root });
    expect(strict.code).toBe(1);
    // A missing file is still broken: only the pattern goes unjudged.
    fs.rmSync(secret);
    expect((await refcatInProcess(['verify', 'refs', 'doc.md'], { cwd: root })).code).toBe(1);
  });

  it('refcat mcp: .git/config and a bare repository under the root are outside', async () => {
    const root = checkout();
    const agent: AgentContext = { ctx: testCtx(root), store: path.join(root, '..', 'store') };
    const extract = TOOLS.find((t) => t.name === 'extract')!;
    for (const ref of ['@.git/config', '@vendor/mirror/config']) {
      const a = await runTool(extract, { refs: [ref] }, agent);
      expect(a.isError, ref).toBe(true);
      expect(a.text).toBe(`Error: Refused: ${ref} is outside the root ${root} (and every alias target)\n`);
    }
  });
});
