import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTool } from '../../src/core/agents/mcp-tools.js';
import { SYMBOLS_TOOL } from '../../src/core/agents/symbols-tool.js';
import { GitRepo } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

const run = (ws: string, ...args: string[]) => refcatInProcess(args, { cwd: ws });

/**
 * A workspace whose lockfile pins `lib` at v1 while its clone is checked out at v2: `onlyThen`
 * is declared only at the pin, `onlyNow` only in the checkout.
 */
function pinnedBehind() {
  const ws = tmpDir();
  const lib = GitRepo.init({}, path.join(ws, 'externals', 'lib'));
  const v1 = lib.commit('v1', { 'app.ts': 'export function shared() {}\n\nexport function onlyThen() {}\n', 'old.ts': 'export const gone = 1;\n' });
  lib.git('tag', 'v1', v1);
  lib.git('rm', '-q', 'old.ts');
  lib.commit('v2', { 'app.ts': 'export function shared() {}\n\n\n\n\n\n\n\n\n\nexport function onlyNow() {}\n' });
  fs.writeFileSync(path.join(ws, 'workspace.lock.json'), JSON.stringify({ repos: [{ alias: 'lib', name: 'lib', ref: v1 }] }));
  return { ws, lib, v1 };
}

describe('refcat symbols reads the version extraction reads', () => {
  it('a pinned alias lists the pin, with the one warning; the symbol refs it prints extract', async () => {
    const { ws, lib, v1 } = pinnedBehind();
    const r = await run(ws, 'symbols', 'lib:app.ts', 'lib:old.ts');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('lib:app.ts#onlyThen');
    expect(r.stdout).toContain('lib:old.ts#gone');
    expect(r.stdout).not.toContain('onlyNow');
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('Warning:'));
    expect(warnings).toEqual([
      `Warning: lib is checked out at ${lib.head().slice(0, 7)}, workspace.lock.json pins ${v1.slice(0, 7)}: reading the pinned commit (--worktree reads the checkout)`,
    ]);
    // A glob walks the pinned tree: old.ts exists only there.
    const glob = await run(ws, 'symbols', 'lib:*.ts');
    expect(glob.code).toBe(0);
    expect(glob.stdout).toContain('lib:old.ts#gone');
    expect(glob.stdout).toContain('lib:app.ts#onlyThen');
    expect(glob.stdout).not.toContain('onlyNow');
    const extracted = await run(ws, 'lib:app.ts#onlyThen');
    expect(extracted.code).toBe(0);
    expect(extracted.stdout).toContain('export function onlyThen() {}');
  });

  it('--worktree lists the checkout; alias@REV: lists the revision, its refs keeping it', async () => {
    const { ws } = pinnedBehind();
    const worktree = await run(ws, 'symbols', '--worktree', 'lib:app.ts');
    expect(worktree.code).toBe(0);
    expect(worktree.stdout).toContain('lib:app.ts#onlyNow');
    expect(worktree.stdout).not.toContain('onlyThen');
    expect(worktree.stderr).not.toContain('Warning');
    const rev = await run(ws, 'symbols', '--worktree', 'lib@v1:app.ts', '--json');
    expect(rev.code).toBe(0);
    const refs = JSON.parse(rev.stdout).files[0].symbols.map((s: { ref: string }) => s.ref);
    expect(refs).toEqual(['lib@v1:app.ts#shared', 'lib@v1:app.ts#onlyThen']);
    const missing = await run(ws, 'symbols', 'lib@v1:nope.ts');
    expect(missing.code).toBe(1);
  });

  it('--at reads refs without an alias at a revision of this repository; --pinned and --worktree together are a usage error', async () => {
    const repo = GitRepo.init();
    repo.commit('c1', { 'a.ts': 'export function first() {}\n' });
    repo.git('tag', 'r1');
    repo.commit('c2', { 'a.ts': 'export function second() {}\n' });
    const r = await run(repo.dir, 'symbols', '--at', 'r1', 'a.ts');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('#first');
    expect(r.stdout).not.toContain('second');
    // Each listed ref reads that revision on its own (without --at), as --spec names it.
    const sha = repo.git('rev-parse', 'r1').trim();
    expect(r.stdout).toBe(`.@${sha}:a.ts#first  L1  function\n`);
    expect((await run(repo.dir, '-q', `.@${sha}:a.ts#first`)).stdout).toBe('export function first() {}\n');
    expect((await run(repo.dir, 'symbols', '--worktree', '--pinned', 'a.ts')).code).toBe(2);
  });

  it('the MCP symbols tool lists the pin too', async () => {
    const { ws } = pinnedBehind();
    const r = await runTool(SYMBOLS_TOOL, { refs: ['lib:app.ts'] }, { ctx: testCtx(ws), store: path.join(ws, '.store') });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('lib:app.ts#onlyThen');
    expect(r.text).not.toContain('onlyNow');
    expect(r.text).toContain('reading the pinned commit');
  });
});
