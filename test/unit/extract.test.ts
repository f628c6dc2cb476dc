import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { extract, type ExtractOptions } from '../../src/core/extract/extract.js';
import { PatternBudget } from '../../src/core/regex/pattern-search.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';
import { refcatInProcess } from '../helpers/in-process.js';

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

function run(files: Record<string, string | Buffer>, ref: string, options: ExtractOptions = {}) {
  const dir = tmpDir(files);
  return extract([ref], testCtx(dir), options);
}

function lines(files: Record<string, string | Buffer>, ref: string, options: ExtractOptions = {}) {
  const report = run(files, ref, options);
  expect(report.errors).toEqual([]);
  const [r] = report.results;
  return { start: r!.lineStart, end: r!.lineEnd, lines: r!.lines, total: r!.totalLines, clamped: r!.wasClamped };
}

// docs/reference.md#reading-files: line terminators, BOM, empty files.
describe('reading lines', () => {
  it.each([
    ['LF', 'a\nb\nc\n', ['a', 'b', 'c']],
    ['no final newline', 'a\nb\nc', ['a', 'b', 'c']],
    ['CRLF', 'a\r\nb\r\nc\r\n', ['a', 'b', 'c']],
    ['mixed CRLF and LF', 'a\r\nb\nc\r\n', ['a', 'b', 'c']],
    ['lone CR is content', 'a\rb\nc\n', ['a\rb', 'c']],
    ['CR at end without LF', 'a\nb\r', ['a', 'b\r']],
    ['UTF-8 BOM is not part of line 1', '\uFEFFa\nb\n', ['a', 'b']],
    ['empty file has 0 lines', '', []],
    ['a lone newline is one empty line', '\n', ['']],
    ['blank lines kept', 'a\n\n\nb\n', ['a', '', '', 'b']],
    ['multi-byte text', 'héllo\n日本語\n🎉\n', ['héllo', '日本語', '🎉']],
  ])('%s', (_name, content, expected) => {
    const r = lines({ 'f.txt': content }, '@f.txt');
    expect(r.lines).toEqual(expected);
    expect(r.total).toBe(expected.length);
  });

  it('handles a line longer than the read buffer', () => {
    const long = 'x'.repeat(300_000);
    expect(lines({ 'f.txt': `a\n${long}\nb\n` }, '@f.txt#L2-L3').lines).toEqual([long, 'b']);
  });

  it('handles a multi-byte character split across read chunks', () => {
    const content = 'a'.repeat(65535) + 'é\nnext\n';
    expect(lines({ 'f.txt': content }, '@f.txt#L1-L2').lines).toEqual(['a'.repeat(65535) + 'é', 'next']);
  });
});

describe('line ranges', () => {
  const file = { 'f.txt': numbered(100) };
  it.each([
    ['#L10-L12', 10, 12],
    ['#L10', 10, 10],
    ['#L98-', 98, 100],
    ['#L-3', 1, 3],
    ['#L50:-5..+10', 45, 60],
    ['#L50:-10..', 40, 100],
    ['#L50:..+20', 50, 70],
    ['#L10-L12:-1..+1', 9, 13],
    ['#L3:-10..+1', 1, 4],
  ])('%s selects %i-%i', (sel, start, end) => {
    const r = lines(file, `@f.txt${sel}`);
    expect([r.start, r.end]).toEqual([start, end]);
    expect(r.lines[0]).toBe(`line ${start}`);
    expect(r.lines.at(-1)).toBe(`line ${end}`);
    expect(r.clamped).toBe(false);
  });

  it.each([
    ['#L10-L12', 2, 8, 14],
    ['#L1', 3, 1, 4],
    ['#L99-', 5, 94, 100],
  ])('%s with context %i selects %i-%i', (sel, context, start, end) => {
    const r = lines(file, `@f.txt${sel}`, { context });
    expect([r.start, r.end]).toEqual([start, end]);
  });

  it('counts the rest of a small file for total_lines', () => {
    expect(lines(file, '@f.txt#L2-L3').total).toBe(100);
  });

  it.each([
    ['a pattern', '@f.txt#/line 7$/'],
    ['a pattern with an extent', '@f.txt#/line 7$/:+2'],
    ['a pattern with a window', '@f.txt#/line 7$/:-1..+1'],
  ])('counts total_lines after %s, as after a range', (_name, ref) => {
    expect(lines(file, ref).total).toBe(100);
  });

  it('does not count the rest of a big file after a pattern either', () => {
    expect(lines({ 'big.txt': numbered(200_000) }, '@big.txt#/^line 2$/:+1').total).toBeNull();
  });

  it('does not count the rest of a big file', () => {
    expect(lines({ 'big.txt': numbered(200_000) }, '@big.txt#L2-L3').total).toBeNull();
  });

  it('selects nothing for a start past the end, whatever -C adds', () => {
    const report = run({ 'f.txt': numbered(18) }, '@f.txt#L40', { context: 30 });
    expect(report.results[0]).toMatchObject({ lineStart: 40, lineEnd: 39, lines: [] });
    expect(report.warnings[0]!.details).toEqual(['File has 18 lines, nothing left to select']);
  });

  it('says "1 line", not "1 lines"', () => {
    expect(run({ 'f.txt': 'only\n' }, '@f.txt#L1-L3').warnings[0]!.details).toEqual(['File has 1 line, will clamp to L1-L1']);
  });

  it('uses the u flag for Unicode property escapes', () => {
    expect(lines({ 'f.txt': '123\nÉté\n' }, '@f.txt#/^\\p{L}+$/').lines).toEqual(['Été']);
  });
});

describe('clamping (docs/reference.md#reading-files)', () => {
  it('clamps an end past EOF with the exact warning', () => {
    const report = run({ 'file.py': numbered(200) }, '@file.py#L1-L500');
    expect(report.errors).toEqual([]);
    expect(report.results[0]).toMatchObject({ lineStart: 1, lineEnd: 200, totalLines: 200, wasClamped: true });
    expect(report.warnings).toEqual([
      {
        code: 'clamped',
        ref: '@file.py#L1-L500',
        message: 'REFCAT line range exceeds file bounds: @file.py#L1-L500',
        details: ['File has 200 lines, will clamp to L1-L200'],
      },
    ]);
  });

  it('selects nothing for a start past EOF, with the same warning', () => {
    const report = run({ 'file.py': numbered(200) }, '@file.py#L250-L300');
    expect(report.results[0]).toMatchObject({ lineStart: 250, lineEnd: 249, lines: [], wasClamped: true, spec: null });
    expect(report.warnings[0]!.message).toBe('REFCAT line range exceeds file bounds: @file.py#L250-L300');
    expect(report.warnings[0]!.details).toEqual(['File has 200 lines, nothing left to select']);
  });

  it('clamps a single line on an empty file', () => {
    const report = run({ 'e.txt': '' }, '@e.txt#L1');
    expect(report.warnings[0]!.details).toEqual(['File has 0 lines, nothing left to select']);
  });

  it('clamps relative windows and context silently', () => {
    const report = run({ 'f.txt': numbered(10) }, '@f.txt#L9:-2..+5', { context: 3 });
    expect(report.warnings).toEqual([]);
    expect(report.results[0]).toMatchObject({ lineStart: 4, lineEnd: 10 });
  });
});

describe('patterns', () => {
  const py = [
    'import os', // 1
    '', // 2
    'def helper(x):', // 3
    '    y = x + 1', // 4
    '', // 5
    '    return y', // 6
    '', // 7
    '', // 8
    'class Foo:', // 9
    '    def bar(self):', // 10
    '        pass', // 11
    'x = 1', // 12
  ].join('\n');

  it.each([
    ['#/def helper/', 3, 4],
    ['#/def helper/:+2', 3, 5],
    ['#/return/:-2..+1', 4, 7],
    ['#/return/:..+1', 6, 7],
    ['#/return/:-1..', 5, 12],
    ['#/def helper/:function', 3, 6],
    ['#/class Foo/:class', 9, 11],
    ['#/def bar/:block', 10, 11],
    ['#/^x = /', 12, 12],
  ])('%s selects %i-%i', (sel, start, end) => {
    const r = lines({ 'm.py': py }, `@m.py${sel}`);
    expect([r.start, r.end]).toEqual([start, end]);
  });

  it('adds context around a pattern selection', () => {
    const r = lines({ 'm.py': py }, '@m.py#/def helper/', { context: 1 });
    expect([r.start, r.end]).toEqual([2, 5]);
  });

  it('reports a pattern that matches nothing', () => {
    const report = run({ 'm.py': py }, '@m.py#/nothing here/');
    expect(report.errors).toEqual([
      {
        code: 'pattern_not_found',
        ref: '@m.py#/nothing here/',
        message: 'Pattern /nothing here/ not found in @m.py#/nothing here/',
        details: [],
      },
    ]);
  });

  it('finds a match beyond the first regex batch', () => {
    const r = lines({ 'big.txt': numbered(20_000) + 'needle\nafter\n' }, '@big.txt#/^needle$/:-1..+1');
    expect([r.start, r.end]).toEqual([20_000, 20_002]);
    expect(r.lines).toEqual(['line 20000', 'needle', 'after']);
  });

  it('refuses :function on a line that is not a function', () => {
    const report = run({ 'm.py': py }, '@m.py#/import os/:function');
    expect(report.errors[0]!.code).toBe('not_a_declaration');
    expect(report.errors[0]!.message).toBe(
      'Line 1 matched by /import os/ does not look like a function declaration: import os (in @m.py#/import os/:function)',
    );
  });

  it('stops a catastrophic regex with a timeout error', () => {
    const evil = ('a'.repeat(30) + 'b\n').repeat(2000);
    const report = run({ 'evil.txt': evil }, '@evil.txt#/^(a+)+$/', { patternBudget: new PatternBudget(200) });
    expect(report.errors[0]!.code).toBe('pattern_timeout');
    expect(report.errors[0]!.message).toBe('Pattern /^(a+)+$/ timed out after 0.2 s of CPU time in @evil.txt#/^(a+)+$/');
  });
});

describe('blocks in brace languages', () => {
  const fixtures = path.resolve(__dirname, '../../fixtures/basic');
  const ctx = testCtx(fixtures);
  const sel = (ref: string) => {
    const report = extract([ref], ctx);
    expect(report.errors).toEqual([]);
    return [report.results[0]!.lineStart, report.results[0]!.lineEnd];
  };

  it.each([
    ['@src/app.ts#/export function greet/:function', 8, 14],
    ['@src/app.ts#/class Counter/:class', 16, 23],
    ['@src/app.ts#/increment/:function', 19, 22],
    ['@src/app.ts#/export const load/:function', 25, 28],
    ['@src/app.ts#/interface Options/:block', 3, 6],
    ['@src/app.py#/def multi_line_signature/:function', 23, 28],
    ['@src/app.py#/class Greeter/:class', 6, 13],
    ['@src/Widget.java#/public class Widget/:class', 3, 16],
    ['@src/Widget.java#/describe/:function', 12, 15],
  ])('%s selects %i-%i', (ref, start, end) => {
    expect(sel(ref)).toEqual([start, end]);
  });
});

describe('file errors', () => {
  it('reports a missing file with every place searched', () => {
    const dir = tmpDir();
    const report = extract(['@nope.py#L1'], testCtx(dir), { searchDirs: [path.join(dir, 'wf'), dir] });
    expect(report.errors).toEqual([
      {
        code: 'not_found',
        ref: '@nope.py#L1',
        message: 'REFCAT ref not found: @nope.py#L1',
        details: [`Searched: ${path.join(dir, 'wf', 'nope.py')}`, `Searched: ${path.join(dir, 'nope.py')}`],
      },
    ]);
  });

  it.each([
    ['NUL byte', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x0a])],
    ['invalid UTF-8', Buffer.from([0x61, 0x0a, 0xff, 0xfe, 0x0a])],
  ])('reports a binary file (%s)', (_name, bytes) => {
    const report = run({ 'b.bin': bytes }, '@b.bin');
    expect(report.errors).toEqual([{ code: 'binary', ref: '@b.bin', message: 'Binary file: @b.bin', details: [] }]);
  });

  it.each(['@b.txt', '@b.txt#L1', '@b.txt#L4', '@b.txt#/ok4/'])('judges the bytes read the same whatever the selector (%s)', (ref) => {
    const bytes = Buffer.concat([Buffer.from('ok\nok2\n'), Buffer.from([0xff, 0xfe]), Buffer.from(' bad\nok4\n')]);
    expect(run({ 'b.txt': bytes }, ref).errors.map((e) => e.code)).toEqual(['binary']);
    expect(run({ 'b.txt': bytes }, ref, { checkOnly: true }).errors.map((e) => e.code)).toEqual(['binary']);
  });

  it('accepts a multi-byte character split across read chunks, and refuses one cut by the end of file', () => {
    expect(lines({ 'f.txt': 'a'.repeat(65535) + '€\nz\n' }, '@f.txt#L2').lines).toEqual(['z']);
    expect(run({ 'f.txt': Buffer.from([0x61, 0x0a, 0xe2, 0x82]) }, '@f.txt#L1').errors.map((e) => e.code)).toEqual(['binary']);
  });

  it.each([
    ['@one.txt', 'Selection larger than 1 MiB: @one.txt'],
    ['@one.txt#L1', 'Selection larger than 1 MiB: @one.txt#L1'],
    ['@one.txt#/y/', 'A line longer than 1 MiB stopped the search for /y/ in @one.txt#/y/'],
  ])('refuses a line past the size cap without holding it (%s)', (ref, message) => {
    const report = run({ 'one.txt': 'y'.repeat(3 * 1024 * 1024) }, ref, { maxSelectionChars: 1024 * 1024 });
    expect(report.errors.map((e) => [e.code, e.message])).toEqual([['too_large', message]]);
  });

  it('streams through a huge line it only skips or counts', () => {
    const files = { 'one.txt': 'y'.repeat(3 * 1024 * 1024) + '\nsecond\n' };
    expect(lines(files, '@one.txt#L2', { maxSelectionChars: 1024 * 1024 }).lines).toEqual(['second']);
    const counted = run(files, '@one.txt', { maxSelectionChars: 1024 * 1024, checkOnly: true });
    expect(counted.results[0]).toMatchObject({ lineStart: 1, lineEnd: 2, totalLines: 2 });
  });

  it('reports a directory', () => {
    const report = run({ 'd/x.txt': 'x' }, '@d');
    expect(report.errors[0]).toMatchObject({ code: 'is_directory', message: 'Is a directory: @d' });
  });

  it('reports a symlink loop in words, not errno', () => {
    const dir = tmpDir({});
    fs.symlinkSync('loop', path.join(dir, 'loop'));
    const report = extract(['@loop'], testCtx(dir));
    expect(report.errors[0]).toMatchObject({ code: 'unreadable', message: 'Cannot read @loop: a symlink loop (each link leads to another, never to a file)' });
  });

  it.each(['@big.txt', '@big.txt#L2-', '@big.txt#/line 3/:-1..', '@big.txt#/line 1$/:+999'])(
    'refuses a selection past the size cap (%s)',
    (ref) => {
      const report = run({ 'big.txt': numbered(1000) }, ref, { maxSelectionChars: 2000 });
      expect(report.results).toEqual([]);
      expect(report.errors).toEqual([
        {
          code: 'too_large',
          ref,
          message: `Selection larger than 0 MiB: ${ref}`,
          details: ['Select a line range (#L1-L500), or page through it with `refcat fd read`'],
        },
      ]);
    },
  );

  it('keeps going after a failed ref', () => {
    const dir = tmpDir({ 'a.txt': 'a\n', 'c.txt': 'c\n' });
    const report = extract(['@a.txt', '@missing.txt', '@#bad', '@c.txt'], testCtx(dir));
    expect(report.results.map((r) => r.displayPath)).toEqual(['a.txt', 'c.txt']);
    expect(report.errors.map((e) => e.code)).toEqual(['not_found', 'invalid_ref']);
  });
});

describe('streaming (docs/reference.md#reading-files: a range near the top of a huge file stops reading)', () => {
  it('reads only the first chunk of a 1 GiB file for #L10-L20', () => {
    const dir = tmpDir();
    const file = path.join(dir, 'huge.txt');
    // 16 KiB of real lines, then a sparse tail: the file is 1 GiB but takes no disk space.
    fs.writeFileSync(file, numbered(2000));
    fs.truncateSync(file, 1024 ** 3);
    const spy = vi.spyOn(fs, 'readSync');
    try {
      const report = extract(['@huge.txt#L10-L20'], testCtx(dir));
      expect(report.errors).toEqual([]);
      expect(report.results[0]!.lines).toEqual(numbered(20).trim().split('\n').slice(9));
      const bytesRead = spy.mock.results.reduce((n, r) => n + (r.value as number), 0);
      expect(bytesRead).toBeLessThanOrEqual(64 * 1024);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('GitIgnore sources', () => {
  it.each([
    ['a repository: .git/info/exclude applies, .gitignore may re-include', { '.git/info/exclude': '*.tmp\nlocal/\n', '.gitignore': '!keep.tmp\n' }],
    [
      'a linked worktree: exclude of the common git folder',
      { '.git': 'gitdir: ../store/worktrees/wt\n', '../store/worktrees/wt/commondir': '../..\n', '../store/info/exclude': '*.tmp\nlocal/\n', '.gitignore': '!keep.tmp\n' },
    ],
  ])('%s', async (_name, layout) => {
    const { GitIgnore } = await import('../../src/core/walk/gitignore.js');
    const base = tmpDir();
    const repo = path.join(base, 'repo');
    for (const [rel, content] of Object.entries(layout)) {
      const file = path.join(repo, rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
    }
    const ignore = new GitIgnore(repo);
    expect(ignore.ignores(path.join(repo, 'a.tmp'))).toBe(true);
    expect(ignore.ignores(path.join(repo, 'keep.tmp'))).toBe(false);
    expect(ignore.ignores(path.join(repo, 'local/x.txt'))).toBe(true);
    expect(ignore.ignores(path.join(repo, 'a.txt'))).toBe(false);
  });
});

describe('checkOnly with probeWholeFiles (--list-files)', () => {
  it.each([
    ['a text file: found, not counted', { 'a.txt': numbered(5) }, { totalLines: null }, []],
    ['a binary file: listed, not read (extraction refuses it)', { 'a.txt': Buffer.from([0x61, 0, 0x62]) }, { totalLines: null }, []],
    ['an empty file', { 'a.txt': '' }, { totalLines: null }, []],
  ])('%s', (_name, files, result, errors) => {
    const report = run(files, '@a.txt', { checkOnly: true, probeWholeFiles: true });
    expect(report.errors.map((e) => e.code)).toEqual(errors);
    if (result) expect(report.results[0]).toMatchObject(result);
    else expect(report.results).toEqual([]);
  });

  it('opens no whole file', () => {
    const open = vi.spyOn(fs, 'openSync');
    const read = vi.spyOn(fs, 'readSync');
    try {
      const report = run({ 'a.txt': 'x\n'.repeat(200_000) }, '@a.txt', { checkOnly: true, probeWholeFiles: true });
      expect(report.results.map((r) => r.relPath)).toEqual(['a.txt']);
      expect([open.mock.calls.length, read.mock.calls.length]).toEqual([0, 0]);
    } finally {
      open.mockRestore();
      read.mockRestore();
    }
  });

  it.each([
    ['a folder', 'sub', 'is_directory'],
    ['a missing file', 'gone.txt', 'not_found'],
  ])('still refuses %s named directly', (_name, ref, code) => {
    const report = run({ 'sub/x.txt': 'x\n' }, ref, { checkOnly: true, probeWholeFiles: true });
    expect(report.errors.map((e) => e.code)).toEqual([code]);
  });
});

describe('a ref that starts past the end of its file', () => {
  const files = { 'f.txt': numbered(18), 'g.txt': numbered(2) };

  it('leaves a visible note in markdown where its block would be', async () => {
    const r = await refcatInProcess(['@g.txt#L1', '@f.txt#L40-L45', '@g.txt#L2', '--no-cwd'], { cwd: tmpDir(files) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        '## From: g.txt:1',
        '```txt',
        '1 | line 1',
        '```',
        '',
        '## From: f.txt:40',
        '> Nothing selected: line 40 is past the end of the file (18 lines).',
        '',
        '## From: g.txt:2',
        '```txt',
        '2 | line 2',
        '```',
        '',
      ].join('\n'),
    );
    expect(r.stderr).toContain('File has 18 lines, nothing left to select');
  });

  it('keeps the note without attribution, and raw output stays lines only', async () => {
    const dir = tmpDir(files);
    expect((await refcatInProcess(['@f.txt#L40', '--no-attribution'], { cwd: dir })).stdout).toBe(
      '> Nothing selected: line 40 is past the end of the file (18 lines).\n',
    );
    expect((await refcatInProcess(['@f.txt#L40', '@g.txt#L1', '-q'], { cwd: dir })).stdout).toBe('line 1\n');
  });
});

describe('the library extracts a workflow like the CLI does', () => {
  it('workflowRefs + extractBatches, from the package entry', async () => {
    const lib = await import('../../src/index.js');
    const dir = tmpDir({ 'flow.conv': 'MODEL x\nREFCAT @a.txt#L2 @nope.txt\nPROMPT hi\n', 'a.txt': 'one\ntwo\n' });
    const ctx = testCtx(dir);
    const aliases = new lib.AliasResolver(ctx);
    const { batches, errors } = lib.workflowRefs(path.join(dir, 'flow.conv'), ctx, aliases);
    const { report, code } = lib.extractBatches(batches, errors, ctx, { patternBudget: new lib.PatternBudget() });
    expect(report.results.map((r) => r.lines)).toEqual([['two']]);
    expect(report.errors.map((e) => [e.code, e.details.at(-1)])).toEqual([['not_found', 'at flow.conv:2']]);
    expect(code).toBe(1);
  });
});
