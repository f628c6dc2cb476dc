import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, freshHome, refcat, refcatAsync, type RunOptions } from '../helpers/cli.js';
import { tmpDir } from '../helpers/tmp.js';

const QUANTUM = fs.readFileSync(path.join(FIXTURES, 'fd', 'quantum-papers.txt'), 'utf8');
const quantumLines = (a: number, b: number) => QUANTUM.split('\n').slice(a - 1, b).join('\n') + '\n';

/** A working folder and a store of its own; every call of a test shares them. */
function workspace(files: Record<string, string> = {}) {
  const cwd = tmpDir(files);
  const store = path.join(cwd, '.store');
  const run = (args: string[], opts: RunOptions = {}) => refcat(args, { cwd, ...opts, env: { REFCAT_STORE: store, ...opts.env } });
  return { cwd, store, run };
}

describe('refcat fd read: stdin', () => {
  it('stores large input and answers with fd_result; page 2 comes in a second call (the FD RFC example)', () => {
    const { run } = workspace();
    const first = run(['fd', 'read'], { input: QUANTUM });
    expect(first).toEqual({
      code: 0,
      stdout:
        '<fd_result fd="fd:1" pages="5" truncated="false" lines="1-42" total_lines="210">\n' +
        '  <message>Output exceeds 4000 characters. Use `refcat fd read fd:1 --page 2` to read more pages.</message>\n' +
        '  <preview>\n' +
        quantumLines(1, 42) +
        '\n  </preview>\n</fd_result>\n',
      stderr: '',
    });
    const second = run(['fd', 'read', 'fd:1', '--page', '2']);
    expect(second).toEqual({
      code: 0,
      stdout:
        '<fd_content fd="fd:1" page="2" pages="5" continued="false" truncated="false" lines="43-84" total_lines="210">\n' +
        quantumLines(43, 84) +
        '\n</fd_content>\n',
      stderr: '',
    });
    // The page texts, with the one newline after the opening tag and before the closing tag
    // stripped, put together give back the input exactly.
    let joined = '';
    for (let p = 1; p <= 5; p++) {
      const out = run(['fd', 'read', 'fd:1', '--page', String(p)]).stdout;
      joined += out.slice(out.indexOf('>\n') + 2, -'\n</fd_content>\n'.length);
    }
    expect(joined).toBe(QUANTUM);
  });

  it('`-` is stdin too; content that fits one page is printed as is, and nothing is stored', () => {
    const { run, store } = workspace();
    expect(run(['fd', 'read', '-'], { input: 'small\noutput\n' })).toEqual({ code: 0, stdout: 'small\noutput\n', stderr: '' });
    expect(fs.existsSync(store)).toBe(false);
  });

  it('--save stores even small input and says where', () => {
    const { run } = workspace();
    const r = run(['fd', 'read', '--save'], { input: 'small\n' });
    expect(r.stdout).toBe(
      '<fd_result fd="fd:1" pages="1" truncated="false" lines="1-1" total_lines="1">\n  <message>Stored as fd:1.</message>\n  <preview>\nsmall\n\n  </preview>\n</fd_result>\n',
    );
    expect(run(['fd', 'read', 'fd:1']).stdout).toBe('small\n');
  });

  it('concurrent `fd read -` calls get distinct ids', async () => {
    const { cwd, store } = workspace();
    const runs = await Promise.all(
      Array.from({ length: 8 }, (_, i) => refcatAsync(['fd', 'read', '-'], { cwd, env: { REFCAT_STORE: store }, input: `${i}\n`.repeat(3000) })),
    );
    const ids = runs.map((r) => /fd="(fd:\d+)"/.exec(r.stdout)?.[1]);
    expect(runs.map((r) => r.code)).toEqual(Array(8).fill(0));
    expect(new Set(ids).size).toBe(8);
    expect([...ids].sort()).toEqual(['fd:1', 'fd:2', 'fd:3', 'fd:4', 'fd:5', 'fd:6', 'fd:7', 'fd:8']);
    // Every fd holds the input of the call that got it.
    for (const [i, r] of runs.entries()) expect(r.stdout).toContain(`<preview>\n${i}\n${i}\n`);
  });

  it('a long single line pages by characters: truncated, then continued', () => {
    const { run } = workspace();
    const json = JSON.stringify({ results: Array.from({ length: 300 }, (_, i) => ({ title: `Quantum ${i}`, url: `https://example.com/q${i}` })) });
    const first = run(['fd', 'read'], { input: json });
    expect(first.stdout).toMatch(/^<fd_result fd="fd:1" pages="\d+" truncated="true" lines="1-1" total_lines="1">\n/);
    const second = run(['fd', 'read', 'fd:1', '--page', '2']).stdout;
    expect(second).toMatch(/^<fd_content fd="fd:1" page="2" pages="\d+" continued="true" truncated="true" lines="1-1" total_lines="1">\n/);
    expect(second.split('\n')[1]).toBe([...json].slice(4000, 8000).join(''));
  });

  it('--pretty-json re-indents JSON before paging', () => {
    const { run } = workspace();
    const r = run(['fd', 'read', '--pretty-json'], { input: '{"a":[1,2],"b":{"c":"<&>"}}' });
    expect(r).toEqual({ code: 0, stdout: '{\n  "a": [\n    1,\n    2\n  ],\n  "b": {\n    "c": "<&>"\n  }\n}\n', stderr: '' });
    expect(run(['fd', 'read', '--pretty-json'], { input: 'not json' })).toEqual({
      code: 0,
      stdout: 'not json',
      stderr: 'Warning: Content is not valid JSON: --pretty-json skipped\n',
    });
  });

  it.each([
    ['a NUL byte at the start', Buffer.concat([Buffer.from('abc\0'), Buffer.alloc(20000, 0x61)])],
    ['invalid UTF-8 after a megabyte (the entry was being written)', Buffer.concat([Buffer.from('ok\n'.repeat(400000)), Buffer.from([0xff])])],
  ])('binary input (%s) is an fd_error and leaves no entry', (_name, input) => {
    const { run, store } = workspace();
    expect(run(['fd', 'read'], { input })).toEqual({
      code: 1,
      stdout: '<fd_error type="binary" fd="stdin"><message>Binary content cannot be paged: stdin</message></fd_error>\n',
      stderr: '',
    });
    expect(fs.existsSync(store) ? fs.readdirSync(store) : []).toEqual([]);
  });
});

describe('refcat fd read: errors (docs/reference.md#fd-and-ref)', () => {
  it.each<[string, string[], string]>([
    ['page 0', ['fd:1', '--page', '0'], '<fd_error type="invalid_page" fd="fd:1"><message>Invalid page number. Valid range: 1-5</message></fd_error>\n'],
    ['a page past the end', ['fd:1', '--page', '6'], '<fd_error type="invalid_page" fd="fd:1"><message>Invalid page number. Valid range: 1-5</message></fd_error>\n'],
    ['lines past the end', ['fd:1', '--lines', '211-300'], '<fd_error type="invalid_lines" fd="fd:1"><message>Invalid line range. Valid range: 1-210</message></fd_error>\n'],
    ['an unknown fd', ['fd:9'], '<fd_error type="not_found" fd="fd:9"><message>File descriptor fd:9 not found in STORE</message></fd_error>\n'],
    ['an unknown ref', ['ref:nope'], `<fd_error type="not_found" fd="ref:nope"><message>Reference ref:nope not found in STORE (store refs with 'refcat ref scan FILE')</message></fd_error>\n`],
    ['a missing file with a space', ['no file.txt'], '<fd_error type="not_found" fd="no file.txt"><message>REFCAT ref not found: no file.txt (Searched: CWD/no file.txt)</message></fd_error>\n'],
    ['a folder', ['.store'], '<fd_error type="is_directory" fd=".store"><message>Is a directory: .store</message></fd_error>\n'],
    ['a missing file', ['nothere.txt'], '<fd_error type="not_found" fd="nothere.txt"><message>REFCAT ref not found: nothere.txt (Searched: CWD/nothere.txt)</message></fd_error>\n'],
  ])('%s: fd_error on stdout, exit 1', (_name, args, expected) => {
    const ws = workspace();
    ws.run(['fd', 'read'], { input: QUANTUM });
    expect(ws.run(['fd', 'read', ...args])).toEqual({ code: 1, stdout: expected.replace('STORE', ws.store).replace('CWD', ws.cwd), stderr: '' });
  });

  it('--format json answers errors as JSON; raw answers them on stderr', () => {
    const ws = workspace();
    expect(ws.run(['fd', 'read', 'fd:3', '--format', 'json'])).toEqual({
      code: 1,
      stdout: JSON.stringify({ version: 1, type: 'fd_error', error: 'not_found', fd: 'fd:3', message: `File descriptor fd:3 not found in ${ws.store}` }, null, 2) + '\n',
      stderr: '',
    });
    expect(ws.run(['fd', 'read', 'fd:3', '--format', 'raw'])).toEqual({ code: 1, stdout: '', stderr: `Error: File descriptor fd:3 not found in ${ws.store}\n` });
  });

  it.each<[string, string[], string]>([
    ['page size 0', ['fd:1', '--page-size', '0'], "Error: option '--page-size <n>' argument '0' is invalid. expected a whole number > 0.\n"],
    ['a page that is not a number', ['fd:1', '--page', 'two'], "Error: option '--page <n>' argument 'two' is invalid. expected a page number (1, 2, 3, ...).\n"],
    ['a bad line range', ['fd:1', '--lines', '9-3'], "Error: option '--lines <a-b>' argument '9-3' is invalid. start line 9 is after end line 3.\n"],
    ['a bad format', ['fd:1', '--format', 'yaml'], "Error: option '--format <format>' argument 'yaml' is invalid. Allowed choices are xml, json, raw.\n"],
    ['two selections', ['fd:1', '--page', '2', '--all'], 'Error: Use only one of --page, --all and --lines\n'],
    ['a malformed fd id', ['fd:x'], 'Error: Invalid fd id: fd:x (expected fd:N, N a whole number > 0)\n'],
    ['an unknown flag', ['fd:1', '--pgae', '2'], "Error: unknown option '--pgae' (did you mean --page?)\n"],
  ])('%s: usage error on stderr, exit 2', (_name, args, stderr) => {
    expect(workspace().run(['fd', 'read', ...args])).toEqual({ code: 2, stdout: '', stderr });
  });
});

describe('refcat fd read: sources and selections', () => {
  it('--lines reads whole lines, clamping the end with a warning', () => {
    const { run } = workspace();
    run(['fd', 'read'], { input: QUANTUM });
    expect(run(['fd', 'read', 'fd:1', '--lines', '40-44'])).toEqual({
      code: 0,
      stdout: `<fd_content fd="fd:1" lines="40-44" total_lines="210">\n${quantumLines(40, 44)}\n</fd_content>\n`,
      stderr: '',
    });
    expect(run(['fd', 'read', 'fd:1', '--lines', '209-500'])).toEqual({
      code: 0,
      stdout: `<fd_content fd="fd:1" lines="209-210" total_lines="210">\n${quantumLines(209, 210)}\n</fd_content>\n`,
      stderr: 'Warning: Line range exceeds content bounds: fd:1 --lines 209-500\n  Content has 210 lines, will clamp to 209-210\n',
    });
    expect(run(['fd', 'read', 'fd:1', '--lines', '210-']).stdout).toContain(`total_lines="210">\n${quantumLines(210, 210)}\n<`);
  });

  it('--all reads everything; --format raw gives the text only; --format json carries it', () => {
    const { run } = workspace();
    run(['fd', 'read'], { input: QUANTUM });
    expect(run(['fd', 'read', 'fd:1', '--all']).stdout).toBe(
      `<fd_content fd="fd:1" page="all" pages="5" continued="false" truncated="false" lines="1-210" total_lines="210">\n${QUANTUM}\n</fd_content>\n`,
    );
    expect(run(['fd', 'read', 'fd:1', '--all', '--format', 'raw'])).toEqual({ code: 0, stdout: QUANTUM, stderr: '' });
    const json = JSON.parse(run(['fd', 'read', 'fd:1', '--page', '5', '--format', 'json']).stdout);
    expect(json).toEqual({
      version: 1,
      type: 'fd_content',
      fd: 'fd:1',
      page: 5,
      pages: 5,
      continued: false,
      truncated: false,
      lines: '169-210',
      line_start: 169,
      line_end: 210,
      total_lines: 210,
      content: quantumLines(169, 210),
    });
  });

  it('--page-size changes the pages, and the hint carries it', () => {
    const { run } = workspace();
    const r = run(['fd', 'read', '--page-size', '950'], { input: QUANTUM });
    expect(r.stdout.split('\n')[0]).toBe('<fd_result fd="fd:1" pages="21" truncated="false" lines="1-10" total_lines="210">');
    expect(r.stdout).toContain('Use `refcat fd read fd:1 --page 2 --page-size 950` to read more pages.');
    expect(run(['fd', 'read', 'fd:1', '--page', '2', '--page-size', '950']).stdout.split('\n')[0]).toBe(
      '<fd_content fd="fd:1" page="2" pages="21" continued="false" truncated="false" lines="11-20" total_lines="210">',
    );
    // The index for the default size is still there: page 2 of 4000 is unchanged.
    expect(run(['fd', 'read', 'fd:1', '--page', '2']).stdout.split('\n')[0]).toContain('lines="43-84"');
  });

  it('pages a file without storing it; its path is the handle; attributes are escaped', () => {
    const name = 'a&b "q" <x>.txt';
    const { run, store } = workspace({ [name]: QUANTUM });
    const first = run(['fd', 'read', name]);
    expect(first.stdout.split('\n').slice(0, 2)).toEqual([
      '<fd_result fd="a&amp;b &quot;q&quot; &lt;x&gt;.txt" pages="5" truncated="false" lines="1-42" total_lines="210">',
      `  <message>Output exceeds 4000 characters. Use \`refcat fd read 'a&amp;b "q" &lt;x&gt;.txt' --page 2\` to read more pages.</message>`,
    ]);
    expect(run(['fd', 'read', name, '--page', '3']).stdout).toContain(`lines="85-126" total_lines="210">\n${quantumLines(85, 126)}`);
    expect(fs.existsSync(store)).toBe(false);
  });

  it('a ref spec is a source: its lines are the content', () => {
    const { run } = workspace({ 'papers.txt': QUANTUM });
    expect(run(['fd', 'read', '@papers.txt#L3-L4'])).toEqual({ code: 0, stdout: quantumLines(3, 4), stderr: '' });
    const r = run(['fd', 'read', '@papers.txt#L1-L100', '--page-size', '1000']);
    expect(r.stdout.split('\n')[0]).toBe('<fd_result fd="@papers.txt#L1-L100" pages="10" truncated="false" lines="1-10" total_lines="100">');
    expect(r.stdout).toContain("Use `refcat fd read '@papers.txt#L1-L100' --page 2 --page-size 1000`");
    expect(run(['fd', 'read', '@papers.txt#L1-L2', '--save']).stdout).toContain('<fd_result fd="fd:1" pages="1"');
    expect(run(['fd', 'read', '@papers.txt#/nothing here/'])).toEqual({
      code: 1,
      stdout: '<fd_error type="pattern_not_found" fd="@papers.txt#/nothing here/"><message>Pattern /nothing here/ not found in @papers.txt#/nothing here/</message></fd_error>\n',
      stderr: '',
    });
  });

  it('a symlink loop is unreadable, not "not found"', () => {
    const { run, cwd } = workspace();
    fs.symlinkSync('loop2.txt', path.join(cwd, 'loop1.txt'));
    fs.symlinkSync('loop1.txt', path.join(cwd, 'loop2.txt'));
    expect(run(['fd', 'read', 'loop1.txt'])).toEqual({
      code: 1,
      stdout: '<fd_error type="unreadable" fd="loop1.txt"><message>Cannot read loop1.txt: a symlink loop (each link leads to another, never to a file)</message></fd_error>\n',
      stderr: '',
    });
  });

  it('a ref by name is a source too: its grammar is loaded first (a fresh home: no table kept)', () => {
    const { run } = workspace({ 'app.py': 'def main():\n    return 1\n\n\ndef other():\n    pass\n' });
    expect(run(['fd', 'read', '@app.py#main'])).toEqual({ code: 0, stdout: 'def main():\n    return 1\n', stderr: '' });
  });

  it('the default store is ~/.sdqctl/fd ($SDQCTL_HOME/fd); --store overrides REFCAT_STORE', () => {
    const home = freshHome();
    const cwd = tmpDir();
    expect(refcat(['fd', 'read'], { cwd, home, input: QUANTUM }).code).toBe(0);
    expect(fs.existsSync(path.join(home, '.sdqctl', 'fd', '1', 'meta.json'))).toBe(true);
    const other = path.join(cwd, 'elsewhere');
    const r = refcat(['fd', 'read', '--store', other], { cwd, home, input: QUANTUM, env: { REFCAT_STORE: path.join(cwd, 'ignored') } });
    expect(r.stdout).toContain(`Use \`refcat fd read fd:1 --page 2 --store ${other}\``);
    expect(fs.existsSync(path.join(other, '1', 'content'))).toBe(true);
    expect(fs.existsSync(path.join(cwd, 'ignored'))).toBe(false);
  });
});

describe('refcat fd list / close / write', () => {
  it('lists, closes (never reusing the number) and reports closed fds', () => {
    const { run } = workspace();
    run(['fd', 'read'], { input: QUANTUM });
    run(['fd', 'read'], { input: QUANTUM });
    const list = JSON.parse(run(['fd', 'list', '--json']).stdout);
    expect(list.entries.map((e: { id: string; lines: number; source: string }) => [e.id, e.lines, e.source])).toEqual([
      ['fd:1', 210, 'stdin'],
      ['fd:2', 210, 'stdin'],
    ]);
    expect(run(['fd', 'list']).stdout).toMatch(/^fd:1 {2}210 lines {2}\d+ chars {2}\S+ {2}stdin\nfd:2 /);
    expect(run(['fd', 'close', 'fd:2'])).toEqual({
      code: 0,
      stdout: '<fd_close fd="fd:2" success="true">\n  <message>File descriptor fd:2 has been closed.</message>\n</fd_close>\n',
      stderr: '',
    });
    expect(run(['fd', 'read', 'fd:2']).stdout).toBe('<fd_error type="not_found" fd="fd:2"><message>File descriptor fd:2 has been closed</message></fd_error>\n');
    expect(run(['fd', 'close', 'fd:2']).code).toBe(1);
    expect(run(['fd', 'read'], { input: QUANTUM }).stdout).toContain('fd="fd:3"');
  });

  it('fd list on an empty store says so on stderr', () => {
    const { run, store } = workspace();
    expect(run(['fd', 'list'])).toEqual({ code: 0, stdout: '', stderr: `No fds or refs stored in ${store}\n` });
  });

  it('writes an fd to a file byte for byte, and never over an existing one without --force', () => {
    const { run, cwd } = workspace({ 'keep.txt': 'precious\n' });
    run(['fd', 'read'], { input: QUANTUM });
    expect(run(['fd', 'write', 'fd:1', '--to', 'out/papers.txt'])).toEqual({
      code: 0,
      stdout: '<fd_write fd="fd:1" path="out/papers.txt" mode="write" success="true">\n  <message>Wrote 210 lines to out/papers.txt.</message>\n</fd_write>\n',
      stderr: '',
    });
    expect(fs.readFileSync(path.join(cwd, 'out/papers.txt'), 'utf8')).toBe(QUANTUM);
    expect(run(['fd', 'write', 'fd:1', '--to', 'keep.txt'])).toEqual({ code: 1, stdout: '', stderr: 'Error: keep.txt exists (use --force to overwrite)\n' });
    expect(run(['fd', 'write', 'fd:1', '--to', '../escape.txt'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: ../escape.txt is outside ${cwd} (use --allow-outside to write there anyway)\n`,
    });
    expect(fs.readFileSync(path.join(cwd, 'keep.txt'), 'utf8')).toBe('precious\n');
    expect(run(['fd', 'write', 'fd:1', '--to', 'keep.txt', '--line', '1']).stdout).toContain('Inserted 210 lines into keep.txt.');
    expect(fs.readFileSync(path.join(cwd, 'keep.txt'), 'utf8')).toBe(QUANTUM + 'precious\n');
    expect(run(['fd', 'write', 'fd:7', '--to', 'x.txt']).stdout).toBe(
      `<fd_error type="not_found" fd="fd:7"><message>File descriptor fd:7 not found in ${path.join(cwd, '.store')}</message></fd_error>\n`,
    );
  });

  it.each<[string, string[], string]>([
    ['no --to', ['fd:1'], "Error: required option '--to <path>' not specified\n"],
    ['an unknown flag and no --to', ['fd:1', '--bogus'], "Error: unknown option '--bogus'\n"],
    ['--line with --mode append', ['fd:1', '--to', 'x', '--mode', 'append', '--line', '2'], 'Error: --line and --after insert; they do not go with --mode append\n'],
    ['--mode insert alone', ['fd:1', '--to', 'x', '--mode', 'insert'], 'Error: --mode insert needs --line N or --after /regex/\n'],
    ['a bad regex', ['fd:1', '--to', 'x', '--after', '/(/'], "Error: option '--after <regex>' argument '/(/' is invalid. invalid regex: Invalid regular expression: /(/: Unterminated group.\n"],
  ])('fd write: %s is a usage error', (_name, args, stderr) => {
    const { run } = workspace();
    expect(run(['fd', 'write', ...args])).toEqual({ code: 2, stdout: '', stderr });
  });
});

describe('refcat fd: a broken store', () => {
  it.each<[string, string[], string | undefined]>([
    ['fd read (stdin)', ['fd', 'read'], 'QUANTUM'],
    ['fd read fd:1', ['fd', 'read', 'fd:1'], undefined],
    ['fd read ref:x', ['fd', 'read', 'ref:x'], undefined],
    ['fd list', ['fd', 'list'], undefined],
    ['fd close', ['fd', 'close', 'fd:1'], undefined],
    ['fd write', ['fd', 'write', 'fd:1', '--to', 'out.txt'], undefined],
    ['ref scan', ['ref', 'scan', 'answer.md'], undefined],
    ['ref list', ['ref', 'list'], undefined],
  ])('--store naming a regular file: %s exits 1 with one line on stderr', (_name, args, input) => {
    const { cwd } = workspace({ 'not-a-folder': 'x\n', 'answer.md': '<ref id="x">\nhi\n</ref>\n' });
    const file = path.join(cwd, 'not-a-folder');
    const r = refcat([...args, '--store', file], { cwd, input: input === 'QUANTUM' ? QUANTUM : input });
    expect(r).toEqual({ code: 1, stdout: '', stderr: `Error: The store ${file} is not a folder (set --store or REFCAT_STORE to a folder)\n` });
    expect(fs.readFileSync(file, 'utf8')).toBe('x\n');
  });
});

describe('refcat fd write: odd targets', () => {
  it('a folder target (existing, or ending in /) is a usage error; a FIFO is refused at once', () => {
    const { run, cwd } = workspace({ 'sub/keep.txt': 'x\n' });
    run(['fd', 'read', '--save'], { input: 'hello\n' });
    expect(run(['fd', 'write', 'fd:1', '--to', 'sub'])).toEqual({ code: 2, stdout: '', stderr: 'Error: --to names a folder (sub); give a file path\n' });
    expect(run(['fd', 'write', 'fd:1', '--to', 'new/'])).toEqual({ code: 2, stdout: '', stderr: 'Error: --to names a folder (new/); give a file path\n' });
    if (process.platform !== 'win32') {
      spawnSync('mkfifo', [path.join(cwd, 'pipe')]);
      expect(run(['fd', 'write', 'fd:1', '--to', 'pipe', '--mode', 'append'])).toEqual({
        code: 1,
        stdout: '',
        stderr: 'Error: pipe is not a regular file (a FIFO); refcat only writes regular files\n',
      });
    }
    expect(fs.readdirSync(cwd).sort()).toEqual(['.store', 'pipe', 'sub'].filter((f) => f !== 'pipe' || process.platform !== 'win32'));
  });
});

describe('refcat fd: help', () => {
  it.each([['fd'], ['fd', 'read'], ['fd', 'list'], ['fd', 'close'], ['fd', 'write']])('%s --help', (...args) => {
    const r = refcat([...args, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: refcat fd/);
  });
});
