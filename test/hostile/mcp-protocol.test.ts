import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AgentContext, runTool, TOOLS } from '../../src/core/agents/mcp-tools.js';
import { MAX_MESSAGE_BYTES, TopLevelId } from '../../src/core/agents/mcp-transport.js';
import { BIN } from '../helpers/cli.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// What a client may send `refcat mcp` over stdio, raw: the process edge is the subject here, so
// these spawn the built bin (generous timeouts for a busy machine; nothing is timed).

const INIT = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };

function env(dir: string): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: dir, SDQCTL_HOME: path.join(dir, '.sdqctl'), REFCAT_STORE: path.join(dir, 'store'), NO_COLOR: '1' };
}

/** Spawn `refcat mcp`, write `lines`, close stdin, and collect every answer until the process exits. */
async function rawSession(root: string, lines: (string | object)[]): Promise<{ code: number | null; answers: Map<unknown, any>; all: any[]; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'mcp'], { cwd: root, env: env(root), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.on('error', () => {});
  for (const l of lines) child.stdin.write((typeof l === 'string' ? l : JSON.stringify(l)) + '\n');
  child.stdin.end();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const all = stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  return { code, answers: new Map(all.map((a) => [a.id, a])), all, stderr };
}

describe('refcat mcp answers bad JSON-RPC with errors and keeps serving', () => {
  it('malformed JSON, no method, wrong params, arguments: null, an oversized line, a batch; calls in flight when stdin closes', async () => {
    const root = tmpDir({ 'a.txt': 'one\ntwo\nthree\n' });
    // The oversized request puts its id last, as the SDK client does (method, params, jsonrpc, id).
    const huge = `{"method":"tools/call","params":{"name":"fd_read","arguments":{"text":"${'x'.repeat(MAX_MESSAGE_BYTES + 1024)}"}},"jsonrpc":"2.0","id":"big"}`;
    const call = (id: number, name: string, args: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
    const r = await rawSession(root, [
      INIT,
      INITIALIZED,
      '{not json',
      { jsonrpc: '2.0', id: 2 },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: 'x' },
      call(4, 'fd_list', null),
      huge,
      '[1, 2]',
      { jsonrpc: '2.0', id: 7, method: 42 },
      call(8, 'fd_list', {}),
      // The last lines before stdin closes: answered before the server exits.
      call(9, 'extract', { refs: ['@a.txt#L2'] }),
      call(10, 'verify_refs', {}),
    ]);
    expect(r.code).toBe(0);
    const error = (id: unknown) => r.answers.get(id)?.error;
    expect(r.all.filter((a) => a.id === null).map((a) => a.error.code)).toEqual([-32700, -32600]);
    expect(r.all.find((a) => a.id === null && a.error.code === -32700).error.message).toMatch(/^Parse error: /);
    expect(error(2)).toEqual({ code: -32600, message: 'Invalid Request: no method' });
    expect(error(3)).toEqual({ code: -32602, message: 'Invalid params: params of tools/call must be an object' });
    expect(error(4).code).toBe(-32602);
    expect(error(4).message).toBe('Invalid params: params.arguments: Invalid input: expected record, received null');
    expect(error('big')).toEqual({ code: -32600, message: 'Request too large: a message may hold at most 10 MiB (give a large file by its path)' });
    expect(error(7)).toEqual({ code: -32600, message: 'Invalid Request: method must be a string' });
    expect(r.answers.get(8).result.isError).toBe(false);
    expect(r.answers.get(9).result.content[0].text).toContain('2 | two');
    expect(r.answers.get(10).result.content[0].text).toContain('"passed": true');
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
  }, 120_000);

  it('with the SDK client: an oversized call fails with its error, and the next call is served', async () => {
    const root = tmpDir({ 'a.txt': 'one\ntwo\n' });
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], cwd: root, env: env(root), stderr: 'pipe' });
    const client = new Client({ name: 'refcat-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      await expect(client.callTool({ name: 'fd_read', arguments: { text: 'y'.repeat(MAX_MESSAGE_BYTES + 1) } })).rejects.toThrow(/Request too large/);
      const next = await client.callTool({ name: 'extract', arguments: { refs: ['@a.txt#L1'] } });
      expect((next.content as { text: string }[])[0]!.text).toContain('1 | one');
    } finally {
      await client.close();
    }
  }, 120_000);
});

describe('fd_read of a pipe', () => {
  it('a FIFO with a writer that never closes is refused at once, not waited on', async () => {
    const root = tmpDir();
    const fifo = path.join(root, 'pipe');
    execFileSync('mkfifo', [fifo]);
    // Opened read-write, it has a writer for as long as the test runs: a reader would wait for ever.
    const held = fs.openSync(fifo, fs.constants.O_RDWR);
    try {
      const agent: AgentContext = { ctx: testCtx(root), store: path.join(root, 'store') };
      const answer = await runTool(TOOLS.find((t) => t.name === 'fd_read')!, { path: 'pipe' }, agent);
      expect(answer.isError).toBe(true);
      expect(answer.text).toContain('Not a regular file: pipe (a FIFO;');
    } finally {
      fs.closeSync(held);
    }
  }, 60_000);
});

describe('TopLevelId', () => {
  const id = fc.oneof(fc.integer(), fc.string({ maxLength: 20 }), fc.constant('é"\\ü'));
  const noise = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });

  it('finds the top-level id wherever it is and however the text is cut, never a nested one', () => {
    fc.assert(
      fc.property(id, noise, noise, fc.array(fc.nat(), { maxLength: 6 }), (want, before, after, cuts) => {
        const { id: _a, ...b } = before;
        const { id: _c, ...a } = after;
        // A nested "id" in params must not be taken.
        const text = Buffer.from(JSON.stringify({ ...b, params: { id: 'nested', x: [{ id: 1 }] }, id: want, ...a }));
        const scan = new TopLevelId();
        let at = 0;
        for (const c of [...cuts.map((n) => n % (text.length + 1))].sort((x, y) => x - y)) {
          scan.feed(text.subarray(at, Math.max(at, c)));
          at = Math.max(at, c);
        }
        scan.feed(text.subarray(at));
        expect(scan.id()).toEqual(want);
      }),
    );
  });

  it.each([
    ['{"id": null, "method": "x"}', null],
    ['{"params": {"id": 5}}', null],
    ['{"id": {"a": 1}}', null],
    ['[{"id": 3}]', null],
    ['{"id" : 12 , "x": 1}', 12],
    ['{"a": "\\"id\\":", "id": "s"}', 's'],
  ])('%s', (text, want) => {
    const scan = new TopLevelId();
    scan.feed(Buffer.from(text));
    expect(scan.id()).toEqual(want);
  });
});
