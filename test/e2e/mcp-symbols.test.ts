import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, refcat } from '../helpers/cli.js';

// Symbol refs through the built bin's MCP server and the SDK's own client: the bundle starts its
// parser worker (dist/bin/parse-worker.cjs), whose answers these are.
let top: string;
let root: string;
let client: Client;
let stderr = '';

const APP_TS = 'export class Store {\n  save(): void {}\n  load(): void {}\n}\nexport function parse(): number {\n  return 1;\n}\n';

beforeAll(async () => {
  top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-mcp-symbols-')));
  root = path.join(top, 'root');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.mkdirSync(path.join(top, 'home'));
  fs.writeFileSync(path.join(root, 'src', 'app.ts'), APP_TS);
  fs.writeFileSync(path.join(root, 'guide.md'), 'See @src/app.ts#Store.save and @src/app.ts#Store.sav.\n');
  const env = { PATH: process.env.PATH ?? '', HOME: path.join(top, 'home'), SDQCTL_HOME: path.join(top, 'home', '.sdqctl'), REFCAT_STORE: path.join(top, 'store'), NO_COLOR: '1' };
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], cwd: root, env, stderr: 'pipe' });
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  client = new Client({ name: 'refcat-test', version: '1.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  fs.rmSync(top, { recursive: true, force: true });
});

async function call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const r = (await client.callTool({ name, arguments: args })) as { content: { type: string; text: string }[]; isError?: boolean };
  return { text: r.content.map((c) => c.text).join(''), isError: r.isError === true };
}

describe('refcat mcp: symbols and symbol refs', () => {
  it('lists symbols as refcat symbols prints them, text and JSON', async () => {
    const cli = await refcat(['symbols', 'src/app.ts'], { cwd: root, env: { HOME: path.join(top, 'home') } });
    const r = await call('symbols', { refs: ['src/app.ts'] });
    expect(r).toEqual({ text: cli.stdout, isError: false });
    expect(r.text).toContain('  @src/app.ts#Store.save  L2     method\n');
    const json = JSON.parse((await call('symbols', { refs: ['src/*.ts'], format: 'json' })).text);
    expect(json.files[0].symbols.map((s: { ref: string }) => s.ref)).toEqual(['@src/app.ts#Store', '@src/app.ts#Store.save', '@src/app.ts#Store.load', '@src/app.ts#parse']);
  });

  it('extracts a symbol ref; a missing one is an error with the did-you-mean', async () => {
    const r = await call('extract', { refs: ['@src/app.ts#Store.load'] });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('## From: src/app.ts:3');
    expect(r.text).toContain('3 |   load(): void {}');
    const bad = await call('extract', { refs: ['@src/app.ts#Store.lod'] });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("Symbol 'Store.lod' not found in @src/app.ts#Store.lod (did you mean Store.load");
    const v = JSON.parse((await call('verify_refs', { paths: ['guide.md'] })).text);
    expect(v.broken).toBe(1);
  });

  it('the tool is described for a model and read-only', async () => {
    const { tools } = await client.listTools();
    const t = tools.find((x) => x.name === 'symbols')!;
    expect(t.description).toContain('find the name to cite');
    expect(t.annotations?.readOnlyHint).toBe(true);
    expect(t.inputSchema.required).toEqual(['refs']);
    expect(stderr).toContain('refcat mcp: symbol refs are parsed in a worker');
  });
});
