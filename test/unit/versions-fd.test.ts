import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTool, TOOLS } from '../../src/core/agents/mcp-tools.js';
import { GitRepo } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

const run = (ws: string, ...args: string[]) => refcatInProcess(args, { cwd: ws });

/** A workspace whose lockfile pins `lib` at `c1` while its clone is one commit on; `only-pin.txt` exists only at the pin. */
function lagging() {
  const ws = tmpDir();
  const lib = GitRepo.init({}, path.join(ws, 'externals', 'lib'));
  const c1 = lib.commit('c1', { 'f.txt': 'pinned 1\npinned 2\n', 'only-pin.txt': 'p\n', 'same.txt': 'same\n' });
  lib.git('tag', 'v1', c1);
  lib.git('rm', '-q', 'only-pin.txt');
  lib.commit('c2', { 'f.txt': 'checkout 1\ncheckout 2\n' });
  fs.writeFileSync(path.join(ws, 'workspace.lock.json'), JSON.stringify({ repos: [{ alias: 'lib', name: 'lib', ref: c1 }] }));
  return { ws, lib, c1 };
}

describe('fd read reads the version extraction reads', () => {
  it('alias:path pages the pin, with the alias warning; a file only at the pin is found', async () => {
    const { ws } = lagging();
    const r = await run(ws, 'fd', 'read', 'lib:f.txt');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('pinned 1\npinned 2\n');
    expect(r.stdout).not.toContain('checkout');
    expect(r.stderr).toContain('reading the pinned commit');
    const onlyPin = await run(ws, 'fd', 'read', 'lib:only-pin.txt');
    expect(onlyPin.code).toBe(0);
    expect(onlyPin.stdout).toContain('p\n');
    // A ref with a selector reads the pin too.
    const line = await run(ws, 'fd', 'read', 'lib:f.txt#L2');
    expect(line.stdout).toContain('pinned 2');
    expect(line.stdout).not.toContain('checkout');
  });

  it('alias@REV:path pages the revision; --lines reads its lines', async () => {
    const { ws } = lagging();
    const r = await run(ws, 'fd', 'read', 'lib@v1:f.txt', '--lines', '2');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('pinned 2');
    expect(r.stdout).not.toContain('pinned 1');
  });

  it('a checkout at the pin is paged from disk; a file edited in it still pages the pin', async () => {
    const { ws, lib } = lagging();
    // The checkout moved back to the pin: the file on disk is the pin's.
    lib.git('checkout', '-q', 'v1');
    const r = await run(ws, 'fd', 'read', 'lib:f.txt');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('pinned 1');
    expect(r.stderr).not.toContain('Warning');
    fs.writeFileSync(path.join(lib.dir, 'f.txt'), 'edited\n');
    const edited = await run(ws, 'fd', 'read', 'lib:f.txt');
    expect(edited.stdout).toContain('pinned 1');
    expect(edited.stdout).not.toContain('edited');
  });

  it('the MCP fd_read tool reads the pin', async () => {
    const { ws } = lagging();
    const fdRead = TOOLS.find((t) => t.name === 'fd_read')!;
    const agent = { ctx: testCtx(ws), store: path.join(ws, '.store') };
    const r = await runTool(fdRead, { path: 'lib:f.txt' }, agent);
    expect(r.isError).toBe(false);
    expect(r.text).toContain('pinned 1');
    expect(r.text).not.toContain('checkout 1');
    const onlyPin = await runTool(fdRead, { path: 'lib:only-pin.txt' }, agent);
    expect(onlyPin.isError).toBe(false);
  });
});
