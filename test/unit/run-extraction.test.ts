import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTool, TOOLS } from '../../src/core/agents/mcp-tools.js';
import { PatternBudget } from '../../src/core/regex/pattern-search.js';
import { DEFAULT_RENDER_OPTIONS, type OutputFormat } from '../../src/core/output/render-extraction.js';
import { readFd } from '../../src/core/paging/fd-read.js';
import { Store } from '../../src/core/paging/fd-store.js';
import { runExtraction, TextSink } from '../../src/core/pipeline/run-extraction.js';
import { citeComment, CITE_COMMENTS } from '../../src/core/snippets/cite-comment.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

const numbered = (n: number, word = 'line') => Array.from({ length: n }, (_, i) => `${word} ${i + 1}`).join('\n') + '\n';

const FILES = {
  'src/app.py': numbered(30),
  'src/util.ts': 'export function one() {\n  return 1;\n}\n\nexport const two = 2;\n',
  'big.txt': numbered(3000, 'row'),
  'ticks.md': 'text\n```js\ncode\n```\n`````\nfive\n',
  'empty.txt': '',
};

describe('the CLI and refcat mcp give the same text for the same refs', () => {
  const extractTool = TOOLS.find((t) => t.name === 'extract')!;
  // [refs, MCP arguments beyond refs, CLI flags beyond refs]
  const cases: [string[], Record<string, unknown>, string[]][] = [
    [['@src/app.py#L2-L4'], {}, []],
    [['@src/app.py', '@src/util.ts#/export function/:function'], {}, []],
    [['@src/*.{py,ts}#L1-L2'], {}, []],
    [['@src/app.py#L40'], {}, []],
    [['@src/missing.py', '@src/app.py#L1'], {}, []],
    [['@src/app.py#L1-L2', '@ticks.md'], { context: 1 }, ['-C', '1']],
    [['@big.txt#L1-L400', '@src/app.py'], { max_tokens: 300 }, ['--max-tokens', '300']],
    [['@src/app.py#L3', '@src/util.ts'], { format: 'json' }, ['--json']],
    [['@src/app.py#L3', '@src/missing.py'], { format: 'json' }, ['--json']],
    [['@src/app.py#L3-L5', '@ticks.md', '@src/util.ts#/two/', '@empty.txt'], { format: 'cite' }, ['--cite']],
  ];
  it.each(cases)('%j %j', async (refs, args, flags) => {
    const dir = tmpDir(FILES);
    const ctx = testCtx(dir);
    const mcp = await runTool(extractTool, { refs, ...args }, { ctx, store: path.join(dir, '.store') });
    const cli = await refcatInProcess([...refs, ...flags, '--tokens'], { cwd: dir });
    expect(mcp.isError).toBe(cli.code !== 0);
    if (args.format === 'json') {
      // The JSON carries its diagnostics: the answer is the CLI's --json report as it streams (no
      // per-ref counts, which need every selection in memory), then the tokens of that JSON.
      const plain = await refcatInProcess([...refs, ...flags], { cwd: dir });
      const n = /"json": (\d+)\n {2}\}\n\}\n$/.exec(mcp.text)?.[1];
      expect(Number(n)).toBeGreaterThan(0);
      expect(mcp.text).toBe(plain.stdout.slice(0, -3) + `,\n  "tokens": {\n    "encoding": "o200k_base",\n    "json": ${n}\n  }\n}\n`);
    } else {
      expect(mcp.text).toBe(cli.stdout + (cli.stdout ? '\n' : '') + cli.stderr);
    }
  });
});

describe('a selection past the end', () => {
  // Streamed JSON (--json) is the JSON built in memory (--json --tokens, which adds counts)
  // (docs/reference.md#streaming-and-memory); the lines a window or -C would add before the end
  // are not selected in either.
  it.each([[['@src/app.py#L31', '-C', '3']], [['@src/app.py#L50:-30..+0']], [['@src/app.py#L40:-20..']]])('%j selects nothing in every format', async (args) => {
    const dir = tmpDir(FILES);
    const streamed = await refcatInProcess([...args, '--json'], { cwd: dir });
    const inMemory = await refcatInProcess([...args, '--json', '--tokens'], { cwd: dir });
    const json = JSON.parse(streamed.stdout);
    expect(json.refs.map((r: { content: string }) => r.content)).toEqual(['']);
    // The same but for the counts --tokens adds.
    const counted = JSON.parse(inMemory.stdout);
    delete counted.tokens;
    for (const r of counted.refs) delete r.tokens;
    expect(json).toEqual(counted);
    for (const flag of ['-q', '--spec', '--cite']) expect((await refcatInProcess([...args, flag], { cwd: dir })).stdout).toBe('');
  });
});

describe('an answer past its cap', () => {
  const request = (dir: string, format: OutputFormat, cap?: number) => {
    const ctx = testCtx(dir);
    return {
      ctx,
      request: {
        batches: [{ inputs: ['@big.txt#L1-L2000', '@src/app.py'] }],
        extract: { base: dir, context: 0, patternBudget: new PatternBudget() },
        format,
        render: DEFAULT_RENDER_OPTIONS,
        cap: cap === undefined ? undefined : { chars: cap, store: () => Store.at(ctx, path.join(dir, '.store')) },
      },
    };
  };

  it.each<[OutputFormat, number]>([
    ['markdown', 1000],
    ['markdown', 17],
    ['raw', 5000],
    ['json', 3000],
    ['cite', 100],
  ])('%s, cap %i: the lines that fit, then the whole output stored', async (format, cap) => {
    const dir = tmpDir(FILES);
    const whole = new TextSink();
    const plain = request(dir, format);
    await runExtraction(plain.request, whole, plain.ctx);

    const capped = request(dir, format, cap);
    const shown = new TextSink();
    const outcome = await runExtraction(capped.request, shown, capped.ctx);
    expect(outcome.code).toBe(0);
    expect(shown.text.length).toBeLessThanOrEqual(cap);
    expect(whole.text.startsWith(shown.text)).toBe(true);
    expect(shown.text === '' || shown.text.endsWith('\n')).toBe(true);
    const stored = outcome.stored!;
    expect(stored).toMatchObject({ cap, shownLines: shown.text.split('\n').length - 1, totalLines: whole.text.split('\n').length - 1, chars: whole.text.length });
    const view = await readFd({ source: stored.fd, all: true, store: path.join(dir, '.store') }, capped.ctx, (async function* () {})());
    const content = [...view.text].join('');
    view.close();
    expect(content).toBe(whole.text);
    // The page named holds the first line not shown.
    const page = await readFd({ source: stored.fd, page: stored.nextPage, store: path.join(dir, '.store') }, capped.ctx, (async function* () {})());
    expect(page.lineStart).toBeLessThanOrEqual(stored.shownLines + 1);
    expect(page.lineEnd).toBeGreaterThanOrEqual(stored.shownLines + 1);
    page.close();
  });

  it('an answer within its cap is stored nowhere', async () => {
    const dir = tmpDir(FILES);
    const { ctx, request: req } = request(dir, 'markdown', 1_000_000);
    const outcome = await runExtraction(req, new TextSink(), ctx);
    expect(outcome.stored).toBeNull();
  });

  it('the MCP answer says how to read on with fd_read', async () => {
    const dir = tmpDir({ 'huge.txt': numbered(60_000, 'a line of the huge file') });
    const r = await runTool(TOOLS.find((t) => t.name === 'extract')!, { refs: ['@huge.txt'] }, { ctx: testCtx(dir), store: path.join(dir, '.store') });
    expect(r.isError).toBe(false);
    const [shown, rest] = r.text.split('\n… cut: ');
    expect(shown!.length).toBeLessThanOrEqual(400_000);
    expect(rest).toMatch(
      /^this answer stops at the cap of 400,000 characters, after line [\d,]+ of 60,003\. The whole answer \([\d,]+ characters\) is stored as fd:1: fd_read \{"fd":"fd:1","lines":"[\d]+-"\} reads on from line [\d,]+ \(by pages: line [\d,]+ is on page [\d,]+ of [\d,]+, 4,000 characters a page\)\.\n\nrefcat: 1 ref, [\d,]+ tokens \(o200k_base\)\n$/,
    );
    // The call named reads on from the very line after the last one shown.
    const call = JSON.parse(/fd_read (\{.*?\}) reads on/.exec(rest!)![1]!) as { fd: string; lines: string };
    const lastShown = shown!.trimEnd().split('\n').pop()!;
    const on = await runTool(TOOLS.find((t) => t.name === 'fd_read')!, call, { ctx: testCtx(dir), store: path.join(dir, '.store') });
    expect(on.isError).toBe(false);
    const first = on.text.split('\n').find((l) => l.includes('a line of the huge file'))!;
    expect(Number(/(\d+)/.exec(first)![1])).toBe(Number(/(\d+)/.exec(lastShown)![1]) + 1);
  });
});

describe('--cite', () => {
  // [file, its content, the comment line refcat writes]
  const table: [string, string, string][] = [
    ['a.ts', 'let a = 1;\n', '// @a.ts'],
    ['a.js', 'x\n', '// @a.js'],
    ['a.c', 'x\n', '// @a.c'],
    ['a.hpp', 'x\n', '// @a.hpp'],
    ['a.swift', 'x\n', '// @a.swift'],
    ['a.kt', 'x\n', '// @a.kt'],
    ['a.go', 'x\n', '// @a.go'],
    ['a.rs', 'x\n', '// @a.rs'],
    ['A.java', 'x\n', '// @A.java'],
    ['a.py', 'x\n', '# @a.py'],
    ['a.sh', 'x\n', '# @a.sh'],
    ['a.rb', 'x\n', '# @a.rb'],
    ['a.yml', 'x\n', '# @a.yml'],
    ['a.toml', 'x\n', '# @a.toml'],
    ['a.R', 'x\n', '# @a.R'],
    ['a.pl', 'x\n', '# @a.pl'],
    ['a.sql', 'x\n', '-- @a.sql'],
    ['a.lua', 'x\n', '-- @a.lua'],
    ['a.hs', 'x\n', '-- @a.hs'],
    ['a.html', 'x\n', '<!-- @a.html -->'],
    ['a.xml', 'x\n', '<!-- @a.xml -->'],
    ['a.md', 'x\n', '<!-- @a.md -->'],
    ['a.css', 'x\n', '/* @a.css */'],
    ['a.lisp', 'x\n', '; @a.lisp'],
    ['a.clj', 'x\n', '; @a.clj'],
    ['a.ini', 'x\n', '; @a.ini'],
    ['a.asm', 'x\n', '; @a.asm'],
    ['a.tex', 'x\n', '% @a.tex'],
    ['a.erl', 'x\n', '% @a.erl'],
    ['a.json', 'x\n', '// @a.json'],
    ['a.unknownext', 'x\n', '// @a.unknownext'],
    ['Makefile', 'x\n', '// @Makefile'],
  ];
  it.each(table)('%s: %s', async (file, content, comment) => {
    const dir = tmpDir({ [file]: content });
    const r = await refcatInProcess([`@${file}`, '--cite'], { cwd: dir });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^```\S+$/);
    expect(lines[1]).toBe(comment);
    expect(lines.slice(2).join('\n')).toBe(content + '```\n');
  });

  it('every syntax of the table is one verify refs reads', () => {
    for (const syntax of CITE_COMMENTS) expect(['//', '#', '--', '<!--', '/*', ';', '%']).toContain(syntax.open);
    expect(citeComment('PYTHON', '@x.py#L1')).toBe('# @x.py#L1');
  });

  // [args, stdout]
  const cases: [string[], string][] = [
    [['@src/app.py#L2-L3', '--cite'], '```python\n# @src/app.py#L2-L3\nline 2\nline 3\n```\n'],
    // The normalized ref: a pattern becomes the lines it selected, context included.
    [['@src/util.ts#/function one/:function', '--cite'], '```typescript\n// @src/util.ts#L1-L3\nexport function one() {\n  return 1;\n}\n```\n'],
    [['@src/app.py#L5', '-C', '1', '--format', 'cite'], '```python\n# @src/app.py#L4-L6\nline 4\nline 5\nline 6\n```\n'],
    // Fences longer than any backtick run of the content.
    [['@ticks.md', '--cite'], '``````markdown\n<!-- @ticks.md -->\ntext\n```js\ncode\n```\n`````\nfive\n``````\n'],
    // A glob: one citation per file, each with its own ref; blocks apart by a blank line.
    [['@src/*#L1', '--cite'], '```python\n# @src/app.py#L1\nline 1\n```\n\n```typescript\n// @src/util.ts#L1\nexport function one() {\n```\n'],
    // Line numbers, headers and attribution are not part of a citation.
    [['@src/app.py#L1', '--cite', '--no-line-numbers', '--no-attribution'], '```python\n# @src/app.py#L1\nline 1\n```\n'],
    [['@empty.txt', '--cite'], '```txt\n// @empty.txt\n```\n'],
  ];
  it.each(cases)('%j', async (args, stdout) => {
    const dir = tmpDir(FILES);
    const r = await refcatInProcess(args, { cwd: dir });
    expect(r).toMatchObject({ code: 0, stdout, stderr: '' });
  });

  it('--absolute writes absolute refs; a selection past the end is no citation, only a warning', async () => {
    const dir = tmpDir(FILES);
    const abs = await refcatInProcess(['@src/app.py#L1', '--cite', '--absolute'], { cwd: dir });
    expect(abs.stdout.split('\n')[1]).toBe(`# @${path.join(dir, 'src/app.py')}#L1`);
    const past = await refcatInProcess(['@src/app.py#L99', '@src/app.py#L1', '--cite'], { cwd: dir });
    expect(past).toMatchObject({ code: 0, stdout: '```python\n# @src/app.py#L1\nline 1\n```\n' });
    expect(past.stderr).toContain('Warning: REFCAT line range exceeds file bounds: @src/app.py#L99');
  });

  it('--tokens counts the citations; --max-tokens, --json and --validate-only are refused', async () => {
    const dir = tmpDir(FILES);
    const counted = await refcatInProcess(['@src/app.py#L1-L2', '--cite', '--tokens'], { cwd: dir });
    expect(counted.stderr).toMatch(/^refcat: 1 ref, \d+ tokens \(o200k_base\)\n$/);
    expect(await refcatInProcess(['@src/app.py', '--cite', '--max-tokens', '100'], { cwd: dir })).toMatchObject({
      code: 2,
      stderr: 'Error: --max-tokens budgets the markdown output: it does not combine with --format cite\n',
    });
    expect(await refcatInProcess(['@src/app.py', '--cite', '--json'], { cwd: dir })).toMatchObject({ code: 2, stderr: 'Error: Conflicting output formats: json and cite (pick one)\n' });
    expect((await refcatInProcess(['@src/app.py', '--cite', '--validate-only'], { cwd: dir })).code).toBe(2);
  });
});
