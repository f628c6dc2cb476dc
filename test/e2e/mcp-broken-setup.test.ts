import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';

// A server whose setup is broken (a malformed aliases file, a store that is a file): the tools
// that need them answer errors, the others work, and the server keeps serving.
let top: string;
let client: Client;

beforeAll(async () => {
  top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-mcp-broken-')));
  const root = path.join(top, 'root');
  const home = path.join(top, 'home');
  fs.mkdirSync(path.join(home, '.sdqctl'), { recursive: true });
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(home, '.sdqctl', 'aliases.yaml'), 'aliases: [unclosed\n');
  fs.writeFileSync(path.join(root, 'a.txt'), 'one\ntwo\n');
  fs.writeFileSync(path.join(root, 'notes.md'), 'See @missing.md and `x:foo/y.py`\nand @a.txt#L2\n');
  fs.writeFileSync(path.join(top, 'store-is-a-file'), 'x');
  const env = { PATH: process.env.PATH ?? '', HOME: home, SDQCTL_HOME: path.join(home, '.sdqctl'), REFCAT_STORE: path.join(top, 'store-is-a-file') };
  client = new Client({ name: 'refcat-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', root], cwd: top, env, stderr: 'ignore' }));
});

afterAll(async () => {
  await client?.close();
  fs.rmSync(top, { recursive: true, force: true });
});

async function call(name: string, args: Record<string, unknown>) {
  const r = (await client.callTool({ name, arguments: args })) as { content: { text: string }[]; isError?: boolean };
  return { text: r.content.map((c) => c.text).join(''), isError: r.isError === true };
}

describe('refcat mcp with a broken setup', () => {
  it('aliases reports the malformed file as an error', async () => {
    const r = await call('aliases', {});
    expect(r.isError).toBe(true);
    expect(JSON.parse(r.text).errors[0].message).toMatch(/^Invalid config file .*aliases\.yaml/);
  });

  it('verify_refs answers its whole report: the alias ref gets the file error, the other refs their verdicts', async () => {
    const r = await call('verify_refs', {});
    expect(r.isError).toBe(true);
    const report = JSON.parse(r.text);
    expect(report).toMatchObject({ passed: false, refs_found: 3, valid: 1, broken: 2 });
    expect(report.errors).toEqual([
      expect.objectContaining({ code: 'not_found', ref: '@missing.md', file: 'notes.md', line: 1 }),
      expect.objectContaining({ code: 'invalid_config', ref: 'x:foo/y.py', file: 'notes.md', line: 1, message: expect.stringMatching(/^Invalid config file .*aliases\.yaml: not valid YAML/) }),
    ]);
  });

  it('the store tools answer the store error, and the server goes on', async () => {
    for (const [tool, args] of [
      ['fd_list', {}],
      ['fd_read', { text: 'x'.repeat(10_000) }],
      ['fd_close', { fd: 'fd:1' }],
    ] as const) {
      const r = await call(tool, args);
      expect(r.isError, tool).toBe(true);
      expect(r.text, tool).toMatch(/store-is-a-file/);
    }
    const r = await call('extract', { refs: ['@a.txt#L2'] });
    expect(r.text).toContain('2 | two');
  });
});
