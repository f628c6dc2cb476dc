import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTool, TOOLS } from '../../src/core/agents/mcp-tools.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// fd_read's errors name a file the way its answers do: path="<the path given>", never its
// absolute path as fd (docs/reference.md#refcat-mcp).

const fdRead = TOOLS.find((t) => t.name === 'fd_read')!;
const lines = Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

async function read(args: Record<string, unknown>, files: Record<string, string | Buffer> = {}) {
  const dir = tmpDir({ 'logs/huge.txt': lines, ...files });
  return { dir, answer: await runTool(fdRead, args, { ctx: testCtx(dir), store: path.join(dir, '.store') }) };
}

describe('fd_read errors name a file by the path given', () => {
  it('an answer and an error name the file alike', async () => {
    const { answer } = await read({ path: 'logs/huge.txt' });
    expect(answer.text).toMatch(/^<fd_result path="logs\/huge\.txt" /);
  });

  it.each<[string, Record<string, unknown>, Record<string, string | Buffer>, string]>([
    ['a page past the end', { path: 'logs/huge.txt', page: 999 }, {}, '<fd_error type="invalid_page" path="logs/huge.txt"><message>Invalid page number. Valid range: 1-8</message></fd_error>\n'],
    ['lines past the end', { path: 'logs/huge.txt', lines: '5000-5001' }, {}, '<fd_error type="invalid_lines" path="logs/huge.txt"><message>Invalid line range. Valid range: 1-3000</message></fd_error>\n'],
    ['binary content', { path: 'blob.bin' }, { 'blob.bin': Buffer.from([0, 1, 2, 0, 255]) }, '<fd_error type="binary" path="blob.bin"><message>Binary content cannot be paged: blob.bin</message></fd_error>\n'],
  ])('%s', async (_name, args, files, expected) => {
    const { dir, answer } = await read(args, files);
    expect(answer.isError).toBe(true);
    expect(answer.text).toBe(expected);
    expect(answer.text).not.toContain(dir);
  });

  it.skipIf(process.platform === 'win32')('a FIFO', async () => {
    const dir = tmpDir();
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    const answer = await runTool(fdRead, { path: 'pipe' }, { ctx: testCtx(dir), store: path.join(dir, '.store') });
    expect(answer.text).toBe('<fd_error type="not_regular" path="pipe"><message>Not a regular file: pipe (a FIFO; fd_read pages files, and takes other content as text)</message></fd_error>\n');
  });

  it('an fd stays named fd="fd:N"', async () => {
    const dir = tmpDir();
    const agent = { ctx: testCtx(dir), store: path.join(dir, '.store') };
    const stored = await runTool(fdRead, { text: lines }, agent);
    const fd = /fd="(fd:\d+)"/.exec(stored.text)![1]!;
    const answer = await runTool(fdRead, { fd, page: 999 }, agent);
    expect(answer.text).toBe(`<fd_error type="invalid_page" fd="${fd}"><message>Invalid page number. Valid range: 1-8</message></fd_error>\n`);
  });
});

describe('ref_list and ref_export name a transcript by the path given', () => {
  it.each(['ref_list', 'ref_export'])('%s: a missing transcript', async (name) => {
    const dir = tmpDir();
    const args = name === 'ref_list' ? { path: 'answer.md' } : { path: 'answer.md', id: 'a', to: 'out.txt' };
    const answer = await runTool(TOOLS.find((t) => t.name === name)!, args, { ctx: testCtx(dir), store: path.join(dir, '.store') });
    expect(answer.isError).toBe(true);
    expect(answer.text.split('\n')[0]).toBe('Error: No such file: answer.md');
  });
});
