import { Readable } from 'node:stream';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFdRead } from '../../src/cli/commands/fd.js';
import type { IO } from '../../src/cli/io.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

describe('fd read output', () => {
  it('waits for stdout to drain between blocks, so a slow reader bounds memory', async () => {
    const dir = tmpDir({ 'big.txt': 'x'.repeat(99) + '\n'.repeat(1) + ('line\n').repeat(5000) });
    const events: string[] = [];
    const io: IO = {
      ctx: testCtx(dir),
      stdout: (s) => events.push(`write ${s.length}`),
      stderr: () => {},
      drain: async () => {
        events.push('drain');
      },
      stdin: Readable.from([]),
      color: false,
    };
    const code = await runFdRead(path.join(dir, 'big.txt'), { pageSize: 1000, format: 'xml', all: true, store: path.join(dir, 'store') }, io);
    expect(code).toBe(0);
    const writes = events.filter((e) => e.startsWith('write')).length;
    expect(writes).toBeGreaterThan(2);
    // Every write is followed by a wait for the reader.
    events.forEach((e, i) => {
      if (e.startsWith('write')) expect(events[i + 1]).toBe('drain');
    });
  });
});

describe('fd read and fd list, as a person sees them', () => {
  it("an empty path ('', an unset variable) is no file, not the working folder: fd read and ref show say so", async () => {
    const dir = tmpDir({ 'answer.md': 'Here:\n<ref id="main">\nprint(1)\n</ref>\n' });
    const store = path.join(dir, 'store');
    const read = await refcatInProcess(['fd', 'read', '', '--store', store], { cwd: dir });
    // fd read answers its errors in its own format, on stdout (docs/reference.md#paging-large-content-fd-read).
    expect([read.code, read.stdout, read.stderr]).toEqual([1, '<fd_error type="not_found" fd=""><message>No such file: \'\' (an empty path)</message></fd_error>\n', '']);
    const show = await refcatInProcess(['ref', 'show', 'main', '--from', ''], { cwd: dir });
    expect([show.code, show.stdout, show.stderr]).toEqual([1, '', "Error: No such file: '' (an empty path)\n"]);
  });

  it('a stored <ref> ends with a newline as ref show gives it (raw stays exact); fd list says "1 line"', async () => {
    const dir = tmpDir({ 'answer.md': 'Here:\n<ref id="main">\nprint(1)\n</ref>\n' });
    const store = path.join(dir, 'store');
    expect((await refcatInProcess(['ref', 'scan', 'answer.md', '--store', store], { cwd: dir })).code).toBe(0);
    expect(await refcatInProcess(['fd', 'read', 'ref:main', '--store', store], { cwd: dir })).toEqual({ code: 0, stdout: 'print(1)\n', stderr: '' });
    expect((await refcatInProcess(['fd', 'read', 'ref:main', '--format', 'raw', '--store', store], { cwd: dir })).stdout).toBe('print(1)');
    expect((await refcatInProcess(['fd', 'list', '--store', store], { cwd: dir })).stdout).toMatch(/^ref:main {2}1 line {2}8 chars {2}\S+ {2}answer\.md\n$/);
  });
});
