import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { HeavyCalls } from '../../src/core/agents/heavy-calls.js';
import { DEFAULT_MAX_BLOCK_LINES, scanBlock } from '../../src/core/extract/block.js';
import { BIN } from '../helpers/cli.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

// Memory stays bounded whatever the input: `:block` over a sea of blank lines, and `refcat mcp`
// extracting a file far larger than any answer (docs/reference.md#limits-and-hostile-input).

/** A reader over `lines` that counts how many it was asked for. */
function counted(lines: (i: number) => string | null): { next: () => string | null; reads: () => number } {
  let i = 0;
  return { next: () => lines(i++), reads: () => i };
}

describe(':block reads a bounded number of lines past blank ones', () => {
  const blanks = (n: number) => (i: number) => (i < n ? '' : null);
  it.each([
    ['a blank match line in plain text (looking for an Allman opener)', '', 'txt', blanks(1_000_000)],
    ['a Python header over a million blank lines', 'def f():', 'python', (i: number) => (i === 0 ? '    x = 1' : i < 1_000_000 ? '' : null)],
    ['a C line over a million blank lines', 'void f()', 'c', blanks(1_000_000)],
  ])('%s', (_name, first, language, lines) => {
    const reader = counted(lines);
    const block = scanBlock(first, reader.next, language);
    expect(reader.reads()).toBeLessThanOrEqual(DEFAULT_MAX_BLOCK_LINES + 2);
    expect(block.lookahead.length).toBeLessThanOrEqual(DEFAULT_MAX_BLOCK_LINES + 1);
  });

  it('`@f#/^$/:block` on 1, 2 and 4 MB of blank lines costs CPU time linear in the size at most', async () => {
    const dir = tmpDir({ 'x1.txt': '\n'.repeat(1 << 20), 'x2.txt': '\n'.repeat(2 << 20), 'x4.txt': '\n'.repeat(4 << 20) });
    const cpu = async (file: string) => {
      const before = process.cpuUsage();
      const r = await refcatInProcess([`@${file}#/^$/:block`, '-q'], { cwd: dir });
      const used = process.cpuUsage(before);
      expect(r).toMatchObject({ code: 0, stdout: '\n' });
      return used.user + used.system;
    };
    await cpu('x1.txt'); // warm-up: module loading is not the subject
    const [one, two, four] = [await cpu('x1.txt'), await cpu('x2.txt'), await cpu('x4.txt')];
    // Generous: a busy machine makes every figure noisy. Before, the scan held every blank line.
    const floor = Math.max(one, 20_000);
    expect(two).toBeLessThan(2 * 3 * floor);
    expect(four).toBeLessThan(4 * 3 * floor);
  });
});

describe('heavy MCP calls wait their turn', () => {
  it('runs two at once, queues the next ones in order, and refuses past the queue', async () => {
    const gate = new HeavyCalls(2, 2);
    const started: number[] = [];
    const release: (() => void)[] = [];
    const call = (n: number) =>
      gate.run('extract', () => {
        started.push(n);
        return new Promise<number>((resolve) => release.push(() => resolve(n)));
      });
    const calls = [call(1), call(2), call(3), call(4)];
    await expect(call(5)).rejects.toThrow(/^Busy: 2 heavy calls are running and 2 are waiting \(at most 2 run at once\); call extract again once one has answered$/);
    await Promise.resolve();
    expect(started).toEqual([1, 2]);
    release.shift()!();
    await calls[0];
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([1, 2, 3]);
    while (release.length > 0) {
      release.shift()!();
      await new Promise((r) => setImmediate(r));
    }
    expect(await Promise.all(calls)).toEqual([1, 2, 3, 4]);
    expect(started).toEqual([1, 2, 3, 4]);
    // The slots are free again.
    const again = gate.run('extract', async () => 'ok');
    expect(await again).toBe('ok');
  });
});

/** Peak resident memory of a process, from /proc (Linux). */
function peakRssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)![1]);
  return kib / 1024;
}

describe.runIf(process.platform === 'linux')('refcat mcp extract of a 60 MB file', () => {
  it('stays under 200 MiB, answers tools/list meanwhile, and stores the whole answer to page with fd_read', async () => {
    const top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-mcp-big-')));
    try {
      const root = path.join(top, 'root');
      fs.mkdirSync(root);
      fs.mkdirSync(path.join(top, 'home'));
      const line = 'const value = compute(alpha, beta, gamma); // a line of some sixty characters\n';
      const lines = Math.ceil((60 * 1000 * 1000) / line.length / 10_000) * 10_000;
      const fd = fs.openSync(path.join(root, 'big.ts'), 'w');
      const block = line.repeat(10_000);
      for (let i = 0; i < lines; i += 10_000) fs.writeSync(fd, block);
      fs.closeSync(fd);
      const env = { PATH: process.env.PATH ?? '', HOME: path.join(top, 'home'), SDQCTL_HOME: path.join(top, 'home', '.sdqctl'), REFCAT_STORE: path.join(top, 'store'), NO_COLOR: '1' };
      const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], cwd: root, env, stderr: 'pipe' });
      const client = new Client({ name: 'refcat-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const order: string[] = [];
        const extract = client.callTool({ name: 'extract', arguments: { refs: ['@big.ts'] } }, undefined, { timeout: 600_000 }).then((r) => {
          order.push('extract');
          return r as { content: { text: string }[]; isError?: boolean };
        });
        // Sent once the server is busy with the extract: answered before the extract is.
        await new Promise((r) => setTimeout(r, 200));
        const listed = await client.listTools();
        order.push('tools/list');
        expect(listed.tools.map((t) => t.name)).toContain('extract');
        const answer = await extract;
        expect(order).toEqual(['tools/list', 'extract']);
        const peak = peakRssMiB(transport.pid!);
        if (process.env.REFCAT_SHOW_PEAK) console.log(`refcat mcp peak RSS: ${peak.toFixed(1)} MiB`);
        expect(peak).toBeLessThan(200);

        const text = answer.content[0]!.text;
        expect(answer.isError).toBe(false);
        expect(text.length).toBeLessThan(420_000);
        expect(text.startsWith('## From: big.ts (relative to ' + root + ')\n```typescript\n' + line)).toBe(true);
        const note = /… cut: this answer stops at the cap of 400,000 characters, after line ([\d,]+) of ([\d,]+)\. The whole answer \(([\d,]+) characters\) is stored as (fd:\d+): fd_read (\{.*?\}) reads on from line ([\d,]+)/.exec(text);
        expect(note, text.slice(-600)).not.toBeNull();
        const num = (s: string) => Number(s.replaceAll(',', ''));
        expect(num(note![2]!)).toBe(lines + 3);
        expect(num(note![6]!)).toBe(num(note![1]!) + 1);
        expect(text).toMatch(/\nrefcat: 1 ref, [\d,]+ tokens \(o200k_base\)\n$/);
        // The call named reads on with the lines that follow.
        const more = (await client.callTool({ name: 'fd_read', arguments: JSON.parse(note![5]!) })) as { content: { text: string }[] };
        expect(more.content[0]!.text).toContain(line);
      } finally {
        await client.close();
      }
    } finally {
      fs.rmSync(top, { recursive: true, force: true });
    }
  });
});

describe.runIf(process.platform === 'linux')('refcat mcp extract as JSON of four refs to an 8 MB file', () => {
  it('streams as the markdown does: under 200 MiB, the answer cut at the cap and the whole stored', async () => {
    const top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-mcp-json-')));
    try {
      const root = path.join(top, 'root');
      fs.mkdirSync(root);
      fs.mkdirSync(path.join(top, 'home'));
      const line = 'const value = compute(alpha, beta, gamma); // a line of some sixty characters\n';
      const fd = fs.openSync(path.join(root, 'big.ts'), 'w');
      const block = line.repeat(10_000);
      for (let i = 0; i < 10; i++) fs.writeSync(fd, block);
      fs.closeSync(fd);
      const env = { PATH: process.env.PATH ?? '', HOME: path.join(top, 'home'), SDQCTL_HOME: path.join(top, 'home', '.sdqctl'), REFCAT_STORE: path.join(top, 'store'), NO_COLOR: '1' };
      const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], cwd: root, env, stderr: 'pipe' });
      const client = new Client({ name: 'refcat-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const refs = ['@big.ts', '@big.ts#L2-', '@big.ts#L3-', '@big.ts#L4-'];
        const answer = (await client.callTool({ name: 'extract', arguments: { refs, format: 'json' } }, undefined, { timeout: 600_000 })) as { content: { text: string }[]; isError?: boolean };
        const peak = peakRssMiB(transport.pid!);
        if (process.env.REFCAT_SHOW_PEAK) console.log(`refcat mcp extract --json peak RSS: ${peak.toFixed(1)} MiB`);
        expect(peak).toBeLessThan(200);
        const text = answer.content[0]!.text;
        expect(answer.isError).toBe(false);
        expect(text.length).toBeLessThan(420_000);
        expect(text.startsWith('{\n  "version": 1,\n  "refs": [\n    {\n      "ref": "@big.ts",')).toBe(true);
        const note = /… cut: this answer stops at the cap of 400,000 characters, after line [\d,]+ of [\d,]+\. The whole answer \(([\d,]+) characters\) is stored as (fd:\d+)/.exec(text);
        expect(note, text.slice(-600)).not.toBeNull();
        // Four contents of about 8 MB each, as JSON strings.
        expect(Number(note![1]!.replaceAll(',', ''))).toBeGreaterThan(4 * line.length * 100_000);
        expect(text).toMatch(/\nrefcat: 4 refs, [\d,]+ tokens \(o200k_base\)\n$/);
      } finally {
        await client.close();
      }
    } finally {
      fs.rmSync(top, { recursive: true, force: true });
    }
  }, 600_000);
});
