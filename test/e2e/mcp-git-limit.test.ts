import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { GitRepo, numbered } from '../helpers/git-repo.js';

// Many verify_refs calls with drift at once, on a server with few file descriptors: git processes
// are capped across calls (the cores, at least 2), and a git that cannot be started is that call's
// error: the server answers every call and goes on serving (docs/reference.md#refcat-mcp).

const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

describe.runIf(process.platform === 'linux')('refcat mcp under many drift calls', () => {
  it('40 verify_refs {drift: true} at once under ulimit -n 64: every call answered, at most the cores of git processes at once', async () => {
    const top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-mcp-git-')));
    try {
      const repo = GitRepo.init({ 'lib/x.js': numbered('x', 30), 'notes.md': 'See @lib/x.js#L2-L3 and @lib/x.js#L10-L12.\n' }, path.join(top, 'root'));
      repo.commit('insert', { 'lib/x.js': 'new\n' + numbered('x', 30) });
      const bin = path.join(top, 'bin');
      fs.mkdirSync(bin);
      const log = path.join(top, 'git.log');
      fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "start $$" >> "$SHIM_LOG"\n"$REAL_GIT" "$@"\nstatus=$?\necho "end $$" >> "$SHIM_LOG"\nexit $status\n`, { mode: 0o755 });
      fs.mkdirSync(path.join(top, 'home'));
      const env = {
        PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
        HOME: path.join(top, 'home'),
        SDQCTL_HOME: path.join(top, 'home', '.sdqctl'),
        REFCAT_STORE: path.join(top, 'store'),
        SHIM_LOG: log,
        REAL_GIT: realGit,
      };
      const transport = new StdioClientTransport({ command: 'sh', args: ['-c', 'ulimit -n 64 && exec "$0" "$@"', process.execPath, BIN, 'mcp'], cwd: repo.dir, env, stderr: 'pipe' });
      let stderr = '';
      transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      const client = new Client({ name: 'refcat-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const calls = Array.from({ length: 40 }, () =>
          client.callTool({ name: 'verify_refs', arguments: { paths: ['notes.md'], drift: true } }, undefined, { timeout: 300_000 }) as Promise<{
            content: { text: string }[];
            isError?: boolean;
          }>,
        );
        const answers = await Promise.all(calls);
        for (const a of answers) {
          const text = a.content[0]!.text;
          // A report (the ref moved), or one line saying git could not be started.
          if (a.isError && !text.startsWith('{')) expect(text, stderr).toMatch(/^Error: git could not be started in [^\n]*\n$/);
          else expect(JSON.parse(text).drift.refs[0].status).toBe('moved');
        }
        const after = (await client.callTool({ name: 'extract', arguments: { refs: ['@lib/x.js#L2'] } })) as { content: { text: string }[]; isError?: boolean };
        expect(after.isError ?? false).toBe(false);
        let running = 0;
        let peak = 0;
        for (const e of fs.readFileSync(log, 'utf8').trim().split('\n')) {
          running += e.startsWith('start ') ? 1 : -1;
          peak = Math.max(peak, running);
        }
        expect(peak).toBeLessThanOrEqual(Math.max(2, os.availableParallelism()));
      } finally {
        await client.close();
      }
    } finally {
      fs.rmSync(top, { recursive: true, force: true });
    }
  });
});
