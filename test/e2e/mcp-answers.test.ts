import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { GitRepo } from '../helpers/git-repo.js';

// Answers of refcat mcp made for agents (docs/agents.md): bounded (fd_read's page_size and lines,
// verify_refs), the CLI's forms and options (`@` refs in fd_read, ref_export's strip_fence and
// after, verify_refs' suggest_fixes), and messages in the words of the tools' arguments.

const CAP = 400_000;
let top: string;
let root: string;
let client: Client;

beforeAll(async () => {
  top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-mcp-answers-')));
  // The root is a folder of a git repository: suggestions could come from above it.
  GitRepo.init({ 'other/user.py': 'x = 1\n', 'root/src/app.py': Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n' }, top);
  root = path.join(top, 'root');
  fs.mkdirSync(path.join(root, 'src', 'models'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src', 'models', 'account.py'), 'class Account: pass\n');
  // 1.2 MB in 12,000 lines of 100 characters.
  fs.writeFileSync(path.join(root, 'big.txt'), Array.from({ length: 12_000 }, (_, i) => `${String(i + 1).padStart(6, '0')} ${'y'.repeat(92)}`).join('\n') + '\n');
  fs.writeFileSync(path.join(root, 'wide.txt'), 'w'.repeat(CAP + 5000) + '\nnext\n');
  fs.writeFileSync(path.join(root, 'doc.md'), 'See @models/account.py and @user.py.\n');
  // 6,000 broken refs: a report of well over a megabyte.
  fs.mkdirSync(path.join(root, 'many'));
  fs.writeFileSync(path.join(root, 'many', 'broken.md'), Array.from({ length: 6000 }, (_, i) => `- @src/gone/file${i}.py#L1-L2`).join('\n') + '\n');
  fs.mkdirSync(path.join(top, 'home'));
  const env = { PATH: process.env.PATH ?? '', HOME: path.join(top, 'home'), SDQCTL_HOME: path.join(top, 'home', '.sdqctl'), REFCAT_STORE: path.join(top, 'store'), NO_COLOR: '1' };
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], cwd: root, env, stderr: 'pipe' });
  client = new Client({ name: 'refcat-test', version: '1.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  fs.rmSync(top, { recursive: true, force: true });
});

async function call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const r = (await client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 })) as { content: { text: string }[]; isError?: boolean };
  return { text: r.content.map((c) => c.text).join(''), isError: r.isError === true };
}

describe('fd_read answers at most the cap', () => {
  it('a page_size over the cap is read as pages of the cap, with a note; the next call keeps that size', async () => {
    const r = await call('fd_read', { path: 'big.txt', page_size: Number.MAX_SAFE_INTEGER });
    expect(r.isError).toBe(false);
    expect(r.text.length).toBeLessThan(CAP + 2000);
    expect(r.text).toMatch(/^<fd_result path="big\.txt" pages="3" /);
    expect(r.text).toContain('Use `fd_read {"path":"big.txt","page":2,"page_size":400000}` to read more pages.');
    expect(r.text.endsWith('Note: page_size 9,007,199,254,740,991 is more than one answer holds: pages of 400,000 characters were read instead\n')).toBe(true);
    const two = await call('fd_read', { path: 'big.txt', page: 2, page_size: CAP });
    expect(two.text).toMatch(/^<fd_content path="big\.txt" page="2" pages="3" /);
  });

  it('lines past the cap stop after the last whole line that fits, naming the call that reads on; following it gives the rest', async () => {
    const r = await call('fd_read', { path: 'big.txt', lines: '1-' });
    expect(r.isError).toBe(false);
    expect(r.text.length).toBeLessThan(CAP + 1000);
    // 4,000 lines of 100 characters fit in 400,000.
    expect(r.text).toMatch(/^<fd_content path="big\.txt" lines="1-4000" total_lines="12000">\n000001 y+\n/);
    expect(r.text).toContain('\n004000 ');
    expect(r.text).not.toContain('\n004001 ');
    const note = /… cut: lines 1-12000 hold more than 400,000 characters; this answer stops after line 4,000: fd_read (\{.*\}) reads on\n$/.exec(r.text);
    expect(note, r.text.slice(-300)).not.toBeNull();
    expect(JSON.parse(note![1]!)).toEqual({ path: 'big.txt', lines: '4001-12000' });
    const on = await call('fd_read', JSON.parse(note![1]!));
    expect(on.text).toMatch(/^<fd_content path="big\.txt" lines="4001-8000" total_lines="12000">\n004001 /);
    // Lines that fit come whole, as before.
    expect((await call('fd_read', { path: 'big.txt', lines: '5-6' })).text).toBe(`<fd_content path="big.txt" lines="5-6" total_lines="12000">\n000005 ${'y'.repeat(92)}\n000006 ${'y'.repeat(92)}\n\n</fd_content>\n`);
  });

  it('an error about a file read in place names it by the path given, as answers do, never by its absolute path', async () => {
    for (const args of [{ path: 'big.txt', page: 9999 }, { path: 'big.txt', lines: '99999-' }]) {
      const r = await call('fd_read', args);
      expect(r.isError, r.text).toBe(true);
      expect(r.text).toMatch(/^<fd_error type="invalid_(page|lines)" path="big\.txt"><message>Invalid /);
      expect(r.text).not.toContain(top);
    }
  });

  it('a first line longer than the cap shows its start, and the call for the next line', async () => {
    const r = await call('fd_read', { path: 'wide.txt', lines: '1-2' });
    expect(r.text.length).toBeLessThan(CAP + 1000);
    expect(r.text).toContain('… cut: line 1 alone is longer than 400,000 characters: only its start is shown (page through it with page and page_size); fd_read {"path":"wide.txt","lines":"2-2"} reads on from the next line\n');
  });
});

describe('fd_read takes a ref, as fd read does', () => {
  it('@src/app.py#L1-L3 reads those lines; a ref leading out is refused', async () => {
    const r = await call('fd_read', { path: '@src/app.py#L1-L3' });
    expect(r).toEqual({ text: 'line 1\nline 2\nline 3\n', isError: false });
    expect((await call('fd_read', { path: 'src/app.py#L2' })).text).toBe('line 2\n');
    const out = await call('fd_read', { path: '@../other/user.py#L1' });
    expect(out.isError).toBe(true);
    expect(out.text).toBe(`Error: Refused: @../other/user.py#L1 is outside the root ${root} (and every alias target)\n`);
  });
});

describe('messages name the arguments, not the CLI flags', () => {
  it.each([
    ['fd_read', { path: 'src/app.py', page: 1, lines: '1-2' }, /^Error: Give only one of page and lines\n$/],
    ['ref_export', { text: '<ref id="a">\nx\n</ref>\n', id: 'a', to: 'src/app.py', line: 99 }, /^Error: line 99 is past the end of src\/app\.py \(30 lines; use 1-31\)\n$/],
    ['ref_export', { text: '<ref id="a">\nx\n</ref>\n', id: 'a', to: '' }, /^Error: to needs a file path\n$/],
    ['ref_export', { text: '<ref id="a">\nx\n</ref>\n', id: 'a', to: 'src/app.py', after: '/(/' }, /^Error: Invalid after: /],
    ['ref_export', { text: '<ref id="a">\nx\n</ref>\n', id: 'a', to: 'src/app.py', mode: 'insert' }, /^Error: mode insert needs line N or after \/regex\/\n$/],
  ] as const)('%s %j', async (tool, args, message) => {
    const r = await call(tool, args);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(message);
    expect(r.text).not.toMatch(/(?<![\w-])--(page|to|line|lines|after|mode)\b/);
  });

  it('validate with allow_missing says what relaxed a missing file by its argument', async () => {
    fs.writeFileSync(path.join(root, 'gone.conv'), 'MODEL gpt-4\nREFCAT @src/missing.py#L1\nPROMPT go\n');
    const r = await call('validate', { paths: ['gone.conv'], allow_missing: true });
    expect(r.isError).toBe(false);
    const details = (JSON.parse(r.text) as { files: { warnings: { details: string[] }[] }[] }).files[0]!.warnings[0]!.details;
    expect(details).toContain('Reported as a warning: allow_missing');
  });

  it('a clamped range names the lines argument', async () => {
    const r = await call('fd_read', { path: 'src/app.py', lines: '29-40' });
    expect(r.text).toContain('Warning: Line range exceeds content bounds: src/app.py lines "29-40"');
  });
});

describe('ref_export with strip_fence and after', () => {
  it('strip_fence writes the code inside the one fenced block; after inserts below the first matching line', async () => {
    const answer = 'Here:\n<ref id="code">\n```python\ndef add(a, b):\n    return a + b\n```\n</ref>\n<ref id="more">\n# added\n</ref>\n';
    const r = await call('ref_export', { text: answer, id: 'code', to: 'out/add.py', strip_fence: true });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('Wrote 2 lines to out/add.py.');
    expect(fs.readFileSync(path.join(root, 'out', 'add.py'), 'utf8')).toBe('def add(a, b):\n    return a + b\n');
    const after = await call('ref_export', { text: answer, id: 'more', to: 'out/add.py', after: '/^def add/' });
    expect(after.isError).toBe(false);
    expect(fs.readFileSync(path.join(root, 'out', 'add.py'), 'utf8')).toBe('def add(a, b):\n# added\n    return a + b\n');
    const notFenced = await call('ref_export', { text: answer, id: 'more', to: 'out/more.py', strip_fence: true });
    expect(notFenced.text).toContain("Warning: Ref 'more' is not exactly one fenced code block: exported whole");
  });
});

describe('verify_refs', () => {
  it('suggest_fixes proposes files of the same name under the root, never one outside it', async () => {
    const r = await call('verify_refs', { paths: ['doc.md'], suggest_fixes: true });
    expect(r.isError).toBe(true);
    const report = JSON.parse(r.text) as { errors: { ref: string; suggestions?: string[] }[] };
    expect(report.errors.find((e) => e.ref === '@models/account.py')?.suggestions).toEqual(['@src/models/account.py']);
    // other/user.py is in the repository, above the root.
    expect(report.errors.find((e) => e.ref === '@user.py')?.suggestions).toEqual([]);
    const without = JSON.parse((await call('verify_refs', { paths: ['doc.md'] })).text) as { errors: { suggestions?: string[] }[] };
    expect(without.errors.every((e) => e.suggestions === undefined)).toBe(true);
  });

  it('a report past the cap: the counts, then what is cut and where the whole report is, then the errors that fit', async () => {
    const r = await call('verify_refs', { paths: ['many'] });
    expect(r.isError).toBe(true);
    expect(r.text.length).toBeLessThanOrEqual(CAP);
    const report = JSON.parse(r.text) as Record<string, unknown> & { errors: unknown[]; cut: Record<string, unknown> & { shown: Record<string, number>; total: Record<string, number> } };
    expect(Object.keys(report).slice(0, 8)).toEqual(['version', 'passed', 'files_scanned', 'not_scanned', 'refs_found', 'valid', 'broken', 'cut']);
    expect(report).toMatchObject({ passed: false, refs_found: 6000, broken: 6000 });
    expect(report.cut).toMatchObject({ cap: CAP, fd: expect.stringMatching(/^fd:\d+$/), total: { errors: 6000, warnings: 0, skipped: 0 } });
    expect(report.cut.shown.errors).toBe(report.errors.length);
    expect(report.errors.length).toBeGreaterThan(500);
    expect(report.errors.length).toBeLessThan(6000);
    expect(report.cut.chars as number).toBeGreaterThan(CAP);
    expect(report.cut.read_on).toBe(`fd_read {"fd":"${report.cut.fd}","page":1} pages the whole report (${(report.cut.pages as number).toLocaleString('en-US')} pages); or call verify_refs again with fewer paths, or exclude`);
    // The stored report is the whole one: its last page ends it.
    const last = await call('fd_read', { fd: report.cut.fd, page: report.cut.pages });
    expect(last.text).toContain('file5999.py');
    expect(last.text).toMatch(/\n}\n\n<\/fd_content>\n$/);
  });
});
