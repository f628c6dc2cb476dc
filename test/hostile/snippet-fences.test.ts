import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDocument } from '../../src/core/editor/check-document.js';
import { EditorSession } from '../../src/core/editor/editor-session.js';
import { fencedBlocks } from '../../src/core/snippets/fenced-blocks.js';
import { GitRepo } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// Code that now holds a line of three backticks (or tildes), refreshed into a fence of three,
// closed it early: the rest of the code became live markdown (a heading, a link) in the doc, and
// the next run said PASSED. The refresh lengthens the fence as --cite chooses it
// (docs/snippets.md#--fix-snippets), in the CLI and in the editor's "Refresh snippet".

const OLD = ['function doc() {', '  return "plain";', '}'];
const NEW = ['function doc() {', '  return `', '```', '# Injected heading', '[click](https://evil.example)', '~~~~', '`;', '}'];
const code = (lines: string[]) => lines.join('\n') + '\n';

/** The blocks of `md` and the lines outside every block that are not blank. */
function outsideBlocks(md: string): string[] {
  const lines = md.split('\n');
  const inside = new Set<number>();
  for (const b of fencedBlocks(md)) for (let i = b.open; i < b.end; i++) inside.add(i);
  return lines.filter((l, i) => !inside.has(i) && l.trim() !== '');
}

describe('--fix-snippets: new code holding a fence marker', () => {
  const cases: [string, (body: string[]) => string, string, string][] = [
    ['a ``` fence', (body) => ['# Doc', '', '```js', ...body, '```', 'after', ''].join('\n'), '````js', '````'],
    ['a ~~~ fence', (body) => ['# Doc', '', '~~~js', ...body, '~~~', 'after', ''].join('\n'), '~~~~~js', '~~~~~'],
    ['a ``` fence in a block quote', (body) => ['# Doc', '', ...['```js', ...body, '```'].map((l) => `> ${l}`), '', 'after', ''].join('\n'), '> ````js', '> ````'],
  ];

  it.each(cases)('%s is lengthened, open and close; the code stays inside it, and a second run passes', async (_name, docOf, open, close) => {
    const repo = GitRepo.init({ 'src/doc.js': code(OLD) });
    repo.commit('docs', { 'docs/a.md': docOf(['// @src/doc.js#L1-L3', ...OLD]) });
    repo.commit('template', { 'src/doc.js': code(NEW) });
    const r = await refcatInProcess(['verify', 'refs', 'docs', '--fix-snippets'], { cwd: repo.dir });
    expect(r.stdout).toContain('  REFRESHED docs/a.md:4: @src/doc.js#L1-L3 → @src/doc.js#L1-L8 (snippet 3 → 8 lines)');
    const after = repo.read('docs/a.md');
    const lines = after.split('\n');
    expect(lines).toContain(open);
    expect(lines).toContain(close);
    // Only the title and the line after the block are markdown; the heading and link are code.
    expect(outsideBlocks(after)).toEqual(['# Doc', 'after']);
    const [block] = fencedBlocks(after);
    expect(block!.lines.slice(1)).toEqual(NEW);
    const again = await refcatInProcess(['verify', 'refs', 'docs', '--fix-snippets'], { cwd: repo.dir });
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain('snippets: 1 verbatim, 0 excerpt, 0 stale');
    expect(repo.read('docs/a.md')).toBe(after);
  });

  it('a fence already longer than any run in the code is left as it is', async () => {
    const repo = GitRepo.init({ 'src/doc.js': code(OLD) });
    const doc = ['`````js', '// @src/doc.js#L1-L3', ...OLD, '`````', ''].join('\n');
    repo.commit('docs', { 'docs/a.md': doc });
    repo.commit('template', { 'src/doc.js': code(NEW) });
    await refcatInProcess(['verify', 'refs', 'docs', '--fix-snippets'], { cwd: repo.dir });
    expect(repo.read('docs/a.md')).toBe(['`````js', '// @src/doc.js#L1-L8', ...NEW, '`````', ''].join('\n'));
  });
});

describe('the editor\'s "Refresh snippet" uses the same edits', () => {
  it('its edit lengthens the fence too, and the edited doc keeps the code inside it', async () => {
    const root = tmpDir({ 'src/doc.js': code(NEW) });
    const text = ['# Doc', '', '```js', '// @src/doc.js#L1-L8', ...OLD, '```', 'after', ''].join('\n');
    const file = path.join(root, 'docs', 'a.md');
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, text);
    const session = new EditorSession(testCtx(root));
    const findings = await checkDocument({ path: file, kind: 'markdown', text, version: 1 }, session);
    const stale = findings.find((f) => f.code === 'stale_snippet')!;
    expect(stale.fixes.map((f) => f.title)).toEqual(['Refresh snippet from @src/doc.js#L1-L8']);
    const [edit] = stale.fixes[0]!.edits;
    const lines = text.split('\n');
    const { startLine, endLine } = edit!.span;
    const edited = [...lines.slice(0, startLine), ...edit!.newText.split('\n').slice(0, -1), ...lines.slice(endLine)].join('\n');
    expect(edited).toBe(['# Doc', '', '````js', '// @src/doc.js#L1-L8', ...NEW, '````', 'after', ''].join('\n'));
    expect(outsideBlocks(edited)).toEqual(['# Doc', 'after']);
    // Applied, the snippet is verbatim: nothing is reported for it.
    const again = await checkDocument({ path: file, kind: 'markdown', text: edited, version: 2 }, session);
    expect(again.filter((f) => f.code === 'stale_snippet')).toEqual([]);
  });
});
