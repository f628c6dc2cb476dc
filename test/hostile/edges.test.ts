import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type AgentContext, runTool, TOOLS } from '../../src/core/agents/mcp-tools.js';
import { runCli } from '../../src/cli/run.js';
import { BIN } from '../helpers/cli.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// Smaller hostile cases (docs/reference.md#limits-and-hostile-input). The process edge is the
// subject of the first three (a closed pipe, a deleted folder), so they spawn the built bin.

const env = (home: string) => ({ PATH: process.env.PATH ?? '', HOME: home, SDQCTL_HOME: path.join(home, '.sdqctl'), NO_COLOR: '1' });

describe('the process edge', () => {
  it('diagnostics reach stderr when stdout is closed early (| head -c 100)', async () => {
    const dir = tmpDir({ 'big.txt': 'x'.repeat(99) + '\n'.repeat(1) });
    fs.writeFileSync(path.join(dir, 'big.txt'), `${'line of text\n'.repeat(400_000)}`);
    const child = spawn(process.execPath, [BIN, '@missing.txt', '@big.txt'], { cwd: dir, env: env(dir), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let seen = 0;
    child.stdout.on('data', (d: Buffer) => {
      seen += d.length;
      if (seen >= 100) child.stdout.destroy();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toContain('REFCAT ref not found: @missing.txt');
    expect(code).toBe(1);
  }, 120_000);

  it('a deleted working folder: one line, and --version still answers', () => {
    const dir = tmpDir();
    const gone = path.join(dir, 'gone');
    fs.mkdirSync(gone);
    // The child starts in the folder, then the folder goes: as when a shell's folder is removed.
    const script = `process.chdir(${JSON.stringify(gone)}); require('fs').rmdirSync(${JSON.stringify(gone)}); process.argv = [process.argv[0], 'refcat', ...process.argv.slice(1)]; require(${JSON.stringify(BIN)});`;
    const run = (...args: string[]) => spawnSync(process.execPath, ['-e', script, '--', ...args], { env: env(dir), encoding: 'utf8', timeout: 60_000 });
    const extract = run('@x.txt');
    expect(extract.stderr).toBe('Error: the current folder no longer exists (deleted or moved): cd to an existing folder\n');
    expect(extract.status).toBe(2);
    fs.mkdirSync(gone);
    const version = run('--version');
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(version.stderr).toBe('');
    expect(version.status).toBe(0);
  }, 120_000);
});

describe('in process', () => {
  it('--from-workflow with 200,000 refs', async () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => `REFCAT @a${i % 3}.txt#L1`);
    const dir = tmpDir({ 'a0.txt': 'zero\n', 'a1.txt': 'one\n', 'a2.txt': 'two\n', 'big.conv': `MODEL gpt-4\n${lines.join('\n')}\nPROMPT go\n` });
    const r = await refcatInProcess(['--from-workflow', 'big.conv', '--list-files'], { cwd: dir });
    expect(r.stderr).not.toContain('internal error');
    expect(r.code).toBe(0);
  }, 300_000);

  it('HOME="" does not put the fd store in the working folder', async () => {
    const dir = tmpDir();
    let stderr = '';
    const code = await runCli(['fd', 'read'], {
      ctx: { cwd: dir, env: { HOME: '' }, home: '' },
      stdout: () => {},
      stderr: (s) => void (stderr += s),
      stdin: Readable.from(['x'.repeat(20_000)]),
      color: false,
    });
    expect(stderr).toContain('No home folder (HOME is empty or not absolute)');
    expect(code).toBe(2);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('fd_close fd:01 is refused, and fd:1 stays open', async () => {
    const root = tmpDir();
    const agent: AgentContext = { ctx: testCtx(root), store: path.join(tmpDir(), 'store') };
    const tool = (name: string) => TOOLS.find((t) => t.name === name)!;
    try {
      const opened = await runTool(tool('fd_read'), { text: 'y\n'.repeat(5000) }, agent);
      expect(opened.text).toContain('fd:1');
      const closed = await runTool(tool('fd_close'), { fd: 'fd:01' }, agent);
      expect(closed.isError).toBe(true);
      expect(closed.text).toContain('Invalid fd id: fd:01');
      const again = await runTool(tool('fd_read'), { fd: 'fd:1', page: 2 }, agent);
      expect(again.isError).toBe(false);
    } finally {
      fs.rmSync(agent.store!, { recursive: true, force: true });
    }
  });
});

describe('ref_export and git hooks', () => {
  // git runs the hooks folder core.hooksPath names (a tracked `.githooks/`, husky's `.husky/_`) at
  // the next commit: an answer written there would run before anyone reviews it (docs/agents.md).
  it('refuses a write into the folder core.hooksPath names, even with force', async () => {
    const root = tmpDir({ '.githooks/pre-commit': '#!/bin/sh\nexit 0\n', 'notes/keep.md': 'k\n' });
    const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' });
    expect(git('init', '-q').status).toBe(0);
    expect(git('config', 'core.hooksPath', '.githooks').status).toBe(0);
    const agent: AgentContext = { ctx: testCtx(root), store: path.join(root, '.store') };
    const exportTo = (to: string) => runTool(TOOLS.find((t) => t.name === 'ref_export')!, { text: '<ref id="h">\n#!/bin/sh\necho PWNED\n</ref>', id: 'h', to, force: true }, agent);
    for (const to of ['.githooks/pre-commit', '.githooks/post-checkout', 'notes/../.githooks/pre-push']) {
      expect(await exportTo(to), to).toEqual({ text: `Error: Refused: ${to} is in the repository's hooks folder (core.hooksPath: git runs what it holds)\n`, isError: true });
    }
    expect(fs.readFileSync(path.join(root, '.githooks/pre-commit'), 'utf8')).toBe('#!/bin/sh\nexit 0\n');
    expect(fs.readdirSync(path.join(root, '.githooks'))).toEqual(['pre-commit']);
    // Elsewhere in the repository, a write goes through.
    expect((await exportTo('notes/hook-doc.sh')).isError).toBe(false);
  });
});
