import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, FIXTURES, freshHome, refcat, refcatAsync, type RunOptions } from '../helpers/cli.js';
import { tmpDir } from '../helpers/tmp.js';

const T = path.join(FIXTURES, 'transcripts');
const fixture = (name: string) => fs.readFileSync(path.join(T, name), 'utf8');

/** A working folder holding the transcripts, with a store of its own. */
function workspace(files: Record<string, string> = {}) {
  const cwd = tmpDir({
    'fibonacci.md': fixture('fibonacci.md'),
    'csv.md': fixture('csv.md'),
    'json-utils.md': fixture('json-utils.md'),
    ...files,
  });
  const store = path.join(cwd, '.store');
  const run = (args: string[], opts: RunOptions = {}) => refcat(args, { cwd, ...opts, env: { REFCAT_STORE: store, ...opts.env } });
  const read = (rel: string) => fs.readFileSync(path.join(cwd, rel), 'utf8');
  return { cwd, store, run, read };
}

const exported = (id: string, to: string, lines: number, mode = 'write', verb = 'Wrote', prep = 'to') =>
  `<ref_export id="${id}" path="${to}" mode="${mode}" success="true">\n  <message>${verb} ${lines} lines ${prep} ${to}.</message>\n</ref_export>\n`;

describe('the response-reference RFC transcripts export the right files', () => {
  it.each<[string, string, string, string, number]>([
    ['fibonacci.md', 'fib_iterative', 'fibonacci.py', 'fibonacci.py', 8],
    ['csv.md', 'csv_reader_function', 'csv_reader.py', 'csv_reader.py', 17],
    ['csv.md', 'csv_module_full', 'csv_utils.py', 'csv_utils.py', 42],
    ['json-utils.md', 'parse_json_function', 'utils/json_utils.py', 'json_utils.py', 17],
  ])('%s: %s -> %s', (transcript, id, to, expected, lines) => {
    const { run, read } = workspace();
    expect(run(['ref', 'export', id, '--from', transcript, '--to', to])).toEqual({ code: 0, stdout: exported(id, to, lines), stderr: '' });
    expect(read(to)).toBe(fixture(`expected/${expected}`));
  });

  it('lists the refs of a transcript (XML and JSON)', () => {
    const { run } = workspace();
    expect(run(['ref', 'list', '--from', 'csv.md'])).toEqual({
      code: 0,
      stdout:
        '<ref_list count="4">\n' +
        '  <ref id="csv_module_imports" line="5" lines="3" chars="80" />\n' +
        '  <ref id="csv_reader_function" line="11" lines="17" chars="587" />\n' +
        '  <ref id="csv_writer_function" line="31" lines="20" chars="650" />\n' +
        '  <ref id="csv_module_full" line="54" lines="42" chars="1321" />\n' +
        '</ref_list>\n',
      stderr: '',
    });
    expect(JSON.parse(run(['ref', 'list', '--from', 'fibonacci.md', '--json']).stdout)).toEqual({
      version: 1,
      count: 2,
      refs: [
        { id: 'fib_recursive', line: 5, lines: 4, chars: 122 },
        { id: 'fib_iterative', line: 14, lines: 8, chars: 145 },
      ],
    });
  });

  it('the RFC itself holds only examples: its refs sit in fenced blocks and inline code', () => {
    expect(refcat(['ref', 'list', '--from', path.join(T, 'rfc-response-refs.md')])).toEqual({
      code: 0,
      stdout: '<ref_list count="0">\n</ref_list>\n',
      stderr: '',
    });
  });
});

describe('refcat ref show / scan', () => {
  it('shows a ref (XML or raw) and says which ids exist when one is unknown', () => {
    const { run } = workspace();
    const code = fixture('expected/fibonacci.py');
    expect(run(['ref', 'show', 'fib_iterative', '--from', 'fibonacci.md'])).toEqual({
      code: 0,
      stdout: `<ref_content id="fib_iterative">\n${code}</ref_content>\n`,
      stderr: '',
    });
    expect(run(['ref', 'show', 'fib_iterative', '--from', 'fibonacci.md', '--raw']).stdout).toBe(code);
    expect(run(['ref', 'show', 'fib', '--from', 'fibonacci.md'])).toEqual({
      code: 1,
      stdout: '',
      stderr: "Error: Unknown ref id 'fib' in fibonacci.md (known: fib_recursive, fib_iterative)\n",
    });
  });

  it('reads a transcript from stdin with --from -', () => {
    const { run } = workspace();
    expect(run(['ref', 'show', 'a', '--from', '-', '--raw'], { input: 'x <ref id="a">\nhello\n</ref>' }).stdout).toBe('hello\n');
  });

  it('scan stores every ref as ref:ID: fd read, ref show, ref export without --from', () => {
    const { run, read, store } = workspace();
    expect(run(['ref', 'scan', 'csv.md'])).toEqual({
      code: 0,
      stdout:
        `<ref_list count="4" store="${store}">\n` +
        '  <ref id="csv_module_imports" fd="ref:csv_module_imports" line="5" lines="3" chars="80" />\n' +
        '  <ref id="csv_reader_function" fd="ref:csv_reader_function" line="11" lines="17" chars="587" />\n' +
        '  <ref id="csv_writer_function" fd="ref:csv_writer_function" line="31" lines="20" chars="650" />\n' +
        '  <ref id="csv_module_full" fd="ref:csv_module_full" line="54" lines="42" chars="1321" />\n' +
        '</ref_list>\n',
      stderr: '',
    });
    const imports = 'import csv\nimport os\nfrom typing import List, Dict, Any, Optional, Union, TextIO';
    expect(run(['fd', 'read', 'ref:csv_module_imports'])).toEqual({ code: 0, stdout: imports + '\n', stderr: '' });
    expect(run(['fd', 'read', 'ref:csv_module_full', '--page-size', '500']).stdout.split('\n')[0]).toBe(
      '<fd_result fd="ref:csv_module_full" pages="3" truncated="false" lines="1-15" total_lines="42">',
    );
    expect(run(['ref', 'list']).stdout).toContain('<ref id="csv_reader_function" line="11" lines="17" chars="587" />');
    expect(run(['ref', 'show', 'csv_module_imports', '--raw']).stdout).toBe(imports + '\n');
    expect(run(['ref', 'export', 'csv_module_full', '--to', 'csv_utils.py']).code).toBe(0);
    expect(read('csv_utils.py')).toBe(fixture('expected/csv_utils.py'));
    // A new scan replaces what an id held.
    fs.writeFileSync(path.join(path.dirname(store), 'v2.md'), '<ref id="csv_module_imports">\nimport csv\n</ref>\n');
    run(['ref', 'scan', 'v2.md']);
    expect(run(['fd', 'read', 'ref:csv_module_imports']).stdout).toBe('import csv\n');
    expect(run(['fd', 'list', '--json']).stdout).toContain('"id": "ref:csv_writer_function"');
  });

  it('readers never see a ref half-replaced while scans replace it again and again', async () => {
    // A ref's content ends before the newline that precedes `</ref>`.
    const a = 'A'.repeat(3000);
    const b = 'B'.repeat(5000);
    const { cwd, store } = workspace({ 'a.md': `<ref id="x">\n${a}\n</ref>\n`, 'b.md': `<ref id="x">\n${b}\n</ref>\n` });
    const env = { REFCAT_STORE: store };
    await refcatAsync(['ref', 'scan', 'a.md'], { cwd, env });
    const scans = Array.from({ length: 6 }, (_, i) => refcatAsync(['ref', 'scan', i % 2 ? 'a.md' : 'b.md'], { cwd, env }));
    const reads = Array.from({ length: 10 }, () => refcatAsync(['fd', 'read', 'ref:x', '--all', '--format', 'raw'], { cwd, env }));
    for (const r of await Promise.all(scans)) expect(r.code).toBe(0);
    for (const r of await Promise.all(reads)) {
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect([a, b]).toContain(r.stdout);
    }
    // However the races went, one version is current and young leftovers at most remain.
    const [dir] = fs.readdirSync(path.join(store, 'refs'));
    const current = fs.readFileSync(path.join(store, 'refs', dir!, 'current'), 'utf8').trim();
    expect(fs.readdirSync(path.join(store, 'refs', dir!))).toContain(current);
  });

  it('ids never become paths in the store', () => {
    const { run, store } = workspace({ 'odd.md': '<ref id="..">\nup\n</ref>\n<ref id="a:b">\ncolon\n</ref>\n' });
    run(['ref', 'scan', 'odd.md']);
    expect(run(['fd', 'read', 'ref:..']).stdout).toBe('up\n');
    expect(run(['fd', 'read', 'ref:a:b']).stdout).toBe('colon\n');
    expect(fs.readdirSync(path.join(store, 'refs')).every((d) => /^[0-9a-f]{32}$/.test(d))).toBe(true);
    expect(fs.existsSync(path.join(path.dirname(store), 'up'))).toBe(false);
  });

  it('warns about duplicates and unclosed tags on stderr', () => {
    const { run } = workspace({ 'dup.md': '<ref id="a">\none\n</ref>\n<ref id="a">\ntwo\n</ref>\n<ref id="b">\nopen' });
    expect(run(['ref', 'list', '--from', 'dup.md'])).toEqual({
      code: 0,
      stdout: '<ref_list count="1">\n  <ref id="a" line="4" lines="1" chars="3" />\n</ref_list>\n',
      stderr: "Warning: Duplicate ref id 'a' at lines 1 and 4: the one closed last (line 4) wins\nWarning: Unclosed <ref id=\"b\"> at line 7: ignored\n",
    });
  });
});

describe('refcat ref export: file safety (docs/reference.md#writing-files-ref-export-and-fd-write)', () => {
  it('never overwrites silently; --force does, keeping the mode', () => {
    const { run, read, cwd } = workspace({ 'fibonacci.py': 'my own work\n' });
    fs.chmodSync(path.join(cwd, 'fibonacci.py'), 0o600);
    expect(run(['ref', 'export', 'fib_iterative', '--from', 'fibonacci.md', '--to', 'fibonacci.py'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: fibonacci.py exists (use --force to overwrite)\n',
    });
    expect(read('fibonacci.py')).toBe('my own work\n');
    expect(run(['ref', 'export', 'fib_iterative', '--from', 'fibonacci.md', '--to', 'fibonacci.py', '--force']).code).toBe(0);
    expect(read('fibonacci.py')).toBe(fixture('expected/fibonacci.py'));
    expect(fs.statSync(path.join(cwd, 'fibonacci.py')).mode & 0o777).toBe(0o600);
  });

  it('appends, and inserts by line or after a pattern', () => {
    const { run, read, cwd } = workspace({ 'lib.py': 'import csv\nimport os\n\nprint("main")\n' });
    const fib = fixture('expected/fibonacci.py');
    expect(run(['ref', 'export', 'fib_iterative', '--from', 'fibonacci.md', '--to', 'lib.py', '--mode', 'append']).stdout).toBe(
      exported('fib_iterative', 'lib.py', 8, 'append', 'Appended'),
    );
    expect(read('lib.py')).toBe('import csv\nimport os\n\nprint("main")\n' + fib);
    const r = run(['ref', 'export', 'csv_module_imports', '--from', 'csv.md', '--to', 'lib.py', '--after', '/^import os/']);
    expect(r.stdout).toBe(exported('csv_module_imports', 'lib.py', 3, 'insert', 'Inserted', 'into'));
    expect(read('lib.py')).toBe(
      'import csv\nimport os\nimport csv\nimport os\nfrom typing import List, Dict, Any, Optional, Union, TextIO\n\nprint("main")\n' + fib,
    );
    run(['ref', 'export', 'fib_recursive', '--from', 'fibonacci.md', '--to', 'lib.py', '--line', '1']);
    expect(read('lib.py').startsWith('def fibonacci_recursive(n):\n')).toBe(true);
    expect(run(['ref', 'export', 'fib_recursive', '--from', 'fibonacci.md', '--to', 'lib.py', '--after', '/^class /'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: Pattern /^class / not found in lib.py\n',
    });
    // Errors leave neither a temp file nor the lock behind.
    expect(fs.readdirSync(cwd).filter((f) => f.startsWith('.refcat-') || f.endsWith('.refcat-lock'))).toEqual([]);
  });

  it('refuses ../ targets and symlinks that lead outside', () => {
    const outside = tmpDir({ 'victim.py': 'safe\n' });
    const { run, cwd } = workspace();
    fs.symlinkSync(outside, path.join(cwd, 'out'));
    const args = ['ref', 'export', 'fib_iterative', '--from', 'fibonacci.md', '--to'];
    expect(run([...args, '../fibonacci.py'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: ../fibonacci.py is outside ${cwd} (use --allow-outside to write there anyway)\n`,
    });
    expect(run([...args, 'out/victim.py', '--force'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: out/victim.py leads outside ${cwd} through a symlink (use --allow-outside to write there anyway)\n`,
    });
    expect(fs.readFileSync(path.join(outside, 'victim.py'), 'utf8')).toBe('safe\n');
    expect(fs.existsSync(path.join(path.dirname(cwd), 'fibonacci.py'))).toBe(false);
  });

  it('--strip-fence exports the code inside a ref that is one fenced block', () => {
    const { run, read } = workspace({ 'fenced.md': 'Here:\n<ref id="code">\n```python\nprint("hi")\n```\n</ref>\n<ref id="prose">\ntext\n</ref>' });
    run(['ref', 'export', 'code', '--from', 'fenced.md', '--to', 'hi.py', '--strip-fence']);
    expect(read('hi.py')).toBe('print("hi")\n');
    expect(run(['ref', 'export', 'prose', '--from', 'fenced.md', '--to', 'p.txt', '--strip-fence']).stderr).toBe(
      "Warning: Ref 'prose' is not exactly one fenced code block: exported whole\n",
    );
    expect(read('p.txt')).toBe('text\n');
  });

  it('a CRLF answer exports CRLF files: written, appended, with --strip-fence (docs/reference.md#writing-files-ref-export-and-fd-write)', () => {
    const answer = 'Here:\r\n<ref id="code">\r\n```python\r\nprint("hi")\r\nprint("bye")\r\n```\r\n</ref>\r\n<ref id="more">\r\nx = 1\r\ny = 2\r\n</ref>\r\n<ref id="one">\r\nz = 3\r\n</ref>\r\n';
    const { run, read } = workspace({ 'crlf.md': answer, 'lib.py': 'import os\r\nimport re' });
    expect(run(['ref', 'export', 'code', '--from', 'crlf.md', '--to', 'hi.py', '--strip-fence']).code).toBe(0);
    expect(read('hi.py')).toBe('print("hi")\r\nprint("bye")\r\n');
    expect(run(['ref', 'export', 'more', '--from', 'crlf.md', '--to', 'lib.py', '--mode', 'append']).code).toBe(0);
    expect(read('lib.py')).toBe('import os\r\nimport re\r\nx = 1\r\ny = 2\r\n');
    // A ref of one line holds no line end of its own: it ends as the answer's lines do.
    expect(run(['ref', 'export', 'one', '--from', 'crlf.md', '--to', 'one.py']).code).toBe(0);
    expect(read('one.py')).toBe('z = 3\r\n');
  });

  it('an export killed between the temp write and the rename leaves the old file intact', () => {
    const { cwd, store, read } = workspace({ 'csv_utils.py': 'old content\n' });
    const r = spawnSync(process.execPath, [BIN, 'ref', 'export', 'csv_module_full', '--from', 'csv.md', '--to', 'csv_utils.py', '--force'], {
      cwd,
      env: { PATH: process.env.PATH, HOME: freshHome(), REFCAT_STORE: store, NO_COLOR: '1', REFCAT_TEST_CRASH: 'before-rename' },
      encoding: 'utf8',
    });
    expect(r.signal).toBe('SIGKILL');
    expect(r.stdout).toBe('');
    expect(read('csv_utils.py')).toBe('old content\n');
    // The complete new text was in the temp file next to it when the crash came.
    const temps = fs.readdirSync(cwd).filter((f) => /^\.refcat-\d+-[0-9a-f]{12}\.tmp$/.test(f));
    expect(temps).toHaveLength(1);
    expect(read(temps[0]!)).toBe(fixture('expected/csv_utils.py'));
    // The killed writer's lock stays behind; its pid is gone, so the next export takes it over.
    expect(fs.existsSync(path.join(cwd, 'csv_utils.py.refcat-lock'))).toBe(true);
    const again = refcat(['ref', 'export', 'csv_module_full', '--from', 'csv.md', '--to', 'csv_utils.py', '--force'], { cwd, env: { REFCAT_STORE: store } });
    expect(again.code).toBe(0);
    expect(read('csv_utils.py')).toBe(fixture('expected/csv_utils.py'));
    expect(fs.existsSync(path.join(cwd, 'csv_utils.py.refcat-lock'))).toBe(false);
    // ... and the next write into that folder reclaims the killed writer's temp file.
    expect(fs.readdirSync(cwd).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('concurrent appends to one file lose no update (the lock file)', async () => {
    const { cwd, store, read } = workspace({ 'log.md': '' });
    const transcript = Array.from({ length: 8 }, (_, i) => `<ref id="r${i}">\nline ${i}\n</ref>\n`).join('');
    fs.writeFileSync(path.join(cwd, 'many.md'), transcript);
    const runs = Array.from({ length: 8 }, (_, i) =>
      refcatAsync(['ref', 'export', `r${i}`, '--from', 'many.md', '--to', 'log.md', '--mode', 'append'], { cwd, env: { REFCAT_STORE: store } }),
    );
    const results = await Promise.all(runs);
    expect(results.map((r) => [r.code, r.stderr])).toEqual(Array.from({ length: 8 }, () => [0, '']));
    expect(read('log.md').split('\n').filter(Boolean).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `line ${i}`));
    expect(fs.readdirSync(cwd).filter((f) => f.startsWith('.refcat-') || f.endsWith('.refcat-lock'))).toEqual([]);
  });

  it('concurrent plain writes of a new file: exactly one wins, the others are refused', async () => {
    const { cwd, store, read } = workspace();
    const runs = Array.from({ length: 6 }, () =>
      refcatAsync(['ref', 'export', 'fib_iterative', '--from', 'fibonacci.md', '--to', 'fib.py'], { cwd, env: { REFCAT_STORE: store } }),
    );
    const results = await Promise.all(runs);
    expect(results.filter((r) => r.code === 0)).toHaveLength(1);
    for (const r of results.filter((r) => r.code !== 0)) expect(r).toEqual({ code: 1, stdout: '', stderr: 'Error: fib.py exists (use --force to overwrite)\n' });
    expect(read('fib.py')).toBe(fixture('expected/fibonacci.py'));
    expect(fs.readdirSync(cwd).filter((f) => f.startsWith('.refcat-'))).toEqual([]);
  });

  it.each<[string, string]>([
    ['out/', 'Error: --to names a folder (out/); give a file path\n'],
    ['sub', 'Error: --to names a folder (sub); give a file path\n'],
  ])('--to %s names a folder: usage error', (to, stderr) => {
    const { run, cwd } = workspace({ 'sub/keep.txt': 'x\n' });
    expect(run(['ref', 'export', 'fib_iterative', '--from', 'fibonacci.md', '--to', to])).toEqual({ code: 2, stdout: '', stderr });
    expect(fs.existsSync(path.join(cwd, 'out'))).toBe(false);
  });

  it.skipIf(process.platform === 'win32')('a FIFO target is refused at once, with one line', () => {
    const { run, cwd } = workspace();
    spawnSync('mkfifo', [path.join(cwd, 'pipe')]);
    for (const mode of ['write', 'append']) {
      expect(run(['ref', 'export', 'fib_iterative', '--from', 'fibonacci.md', '--to', 'pipe', '--mode', mode])).toEqual({
        code: 1,
        stdout: '',
        stderr: 'Error: pipe is not a regular file (a FIFO); refcat only writes regular files\n',
      });
    }
  });

  it.each([['ref'], ['ref', 'list'], ['ref', 'show'], ['ref', 'scan'], ['ref', 'export']])('%s --help', (...args) => {
    const r = refcat([...args, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: refcat ref/);
  });
});
