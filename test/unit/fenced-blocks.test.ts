import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastState, fencedBlocks, parsedFences, scanFences, stretchParser, topLevelFences } from '../../src/core/snippets/fenced-blocks.js';
import { HTML_BLOCK_TAG, nestedFences } from '../../src/core/snippets/nested-fences.js';
import { lineStarts } from '../../src/shared/line-starts.js';
import { REPO } from '../helpers/cli.js';

// fencedBlocks() reads fences at column 0 without a parse (scanFences), and the stretches
// around any other fence with a trimmed markdown-it: paragraphs and setext headings skipped rather than collected, no inline
// pass. These hold it equal to markdown-it's full
// CommonMark parse, fence for fence (lines, info string, content), on real docs and on generated
// ones built from the constructs that decide where a fence is: containers, lazy lines, indented
// code, HTML blocks, setext underlines, thematic breaks.

type Token = { type: string; map: [number, number] | null; info: string; content: string };
type Marks = Record<'bMarks' | 'eMarks' | 'tShift' | 'sCount' | 'bsCount', number[]> & { lineMax: number };
type State = new (src: string, md: unknown, env: object, tokens: Token[]) => Marks;
const MarkdownIt = createRequire(import.meta.url)('markdown-it') as new (preset: string) => { parse(src: string, env: object): Token[]; block: { State: State } };
const full = new MarkdownIt('commonmark');

/** The fences of a full parse, in the shape fencedBlocks() gives. */
function fullParseFences(text: string) {
  return full
    .parse(text, {})
    .filter((t) => t.type === 'fence' && t.map)
    .map((t) => {
      const [open, end] = t.map!;
      const lines = t.content === '' ? [] : t.content.slice(0, t.content.endsWith('\n') ? -1 : undefined).split('\n');
      return { open, close: end - open >= lines.length + 2 ? end - 1 : null, end, info: t.info.trim(), lines };
    });
}

function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === '.git' || e.name === 'dist' || e.name.startsWith('.bench')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...markdownFiles(p));
    else if (/\.(md|markdown)$/i.test(e.name)) out.push(p);
  }
  return out;
}

/** Every markdown file below `dir`, node_modules included. */
function markdownFilesUnder(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile() && /\.(md|markdown)$/i.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

describe('fencedBlocks: the same fences as a full CommonMark parse', () => {
  it('on every markdown file of this repository (docs, fixtures, tests)', () => {
    const files = markdownFiles(REPO);
    expect(files.length).toBeGreaterThan(20);
    let fences = 0;
    let unparsed = 0;
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      const expected = fullParseFences(text);
      fences += expected.length;
      expect(fencedBlocks(text), path.relative(REPO, file)).toEqual(expected);
      expect(parsedFences(text), path.relative(REPO, file)).toEqual(expected);
      if (expected.length > 0 && topLevelFences(text, lineStarts(text)) !== null) unparsed++;
    }
    expect(fences).toBeGreaterThan(50);
    // Most of them need no parse.
    expect(unparsed).toBeGreaterThan(10);
  });

  it('on every markdown file under node_modules', () => {
    const files = markdownFilesUnder(path.join(REPO, 'node_modules'));
    expect(files.length).toBeGreaterThan(20);
    let nested = 0;
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      const expected = fullParseFences(text);
      expect(fencedBlocks(text), path.relative(REPO, file)).toEqual(expected);
      const lines = text.split('\n');
      nested += expected.filter((b) => !/^(```|~~~)/.test(lines[b.open]!)).length;
    }
    // Fences in list items and block quotes are among them.
    expect(nested).toBeGreaterThan(5);
  });

  const cases: [string, string][] = [
    ['setext underline after a paragraph', 'Title\n=====\n```js\nx\n```\n'],
    ['dash underline, then a fence', 'Title\n---\n```\ny\n```\n'],
    ['lazy continuation in a block quote', '> quoted\nlazy\n```\nz\n```\n'],
    ['indented fence after a paragraph is text', 'para\n    ```\n    code\n```\nw\n```\n'],
    ['fence in a list item after a paragraph', '- item\n  ```py\n  a = 1\n  ```\n'],
    ['html block swallows a fence until a blank line', '<div>\n```\nnot a fence\n</div>\n\n```\nyes\n```\n'],
    ['thematic break looking like a list', '- - -\n      ```js\n      x\n      ```\n'],
    ['reference definition then a fence', '[a]: /url\n```\nq\n```\n'],
    ['ordered list interrupting a paragraph only from 1', 'text\n2. two\n```\nr\n```\n'],
    ['unclosed fence in a block quote', '> ```\n> open\nafter\n'],
    // Found by the property below: the underline ends the paragraph, so `2.` may start a list.
    ['setext underline, then a list item only a heading lets start', 'Some prose here.\n=====\n2. second\n   ```\nSome prose here.\n'],
    ['underline with trailing spaces, in a list item', '- item\n  text\n  ---  \n  ```\n  a\n  ```\n'],
    ['lazy underline in a block quote stays text', '> quoted\n===\n```\nb\n```\n'],
    ['an HTML comment hides a fence until -->', '<!--\n```\n-->\n```js\nx\n```\n'],
    ['a one-line comment hides nothing', '<!-- note -->\n```\ny\n```\n'],
    ['<!--> ends where it starts', '<!-->\n```\nz\n```\n'],
    ['an unclosed comment runs to the end', 'text\n<!-- open\n```\nq\n'],
    ['a column-0 fence ends a list and a quote', '- item\n```\na\n```\n> q\n```\nb\n```\n'],
    ['closing runs: longer, indented, tabbed, with text after', '````\n```\n ```` x\n\t````\n   `````  \n'],
    ['backtick in a backtick info string, not in a tilde one', '```a`b\n~~~a`b\nc\n~~~\n'],
    ['unclosed at the end, last line only spaces', '```\nx\n   '],
    ['opening on the last line', 'p\n```'],
    ['CRLF and a lone CR', 'p\r\n```js\r\nx\r\n```\r\nq\rr\n'],
    // A comment indented into a list item ends with the item: the column-0 fence after it is one.
    ['a comment in a list item ends with it', '- item\n  <!--\n```js\nx\n```\n-->\n'],
    ['fences in list items, loose and tight, and in a quote', '1. one\n\n   ```sh\n   a\n   ```\n2. two\n- b\n  ~~~\n  c\n  ~~~\n> ```js\n> d\n> ```\n\ntext\n```\ne\n```\n'],
    ['a fence in a list item stays open across a blank line', '- a\n  ```\n  x\n\n  y\n  ```\n\nafter\n'],
    ['an unclosed fence in a list item ends with the item', '- a\n  ```\n  x\n\nfoo\n```\ny\n```\n'],
    ['an indented top-level fence runs past a blank line and column 0', '  ```\nx\n\nfoo\n```\nafter\n\n- ```\n  z\n'],
    ['an indented top-level fence never closed', '   ~~~\nx\n\nfoo\n\nbar\n'],
    ['an HTML block that spans blank lines', '<pre>\n\nfoo\n```\n</pre>\n```js\nq\n```\n'],
    ['an HTML block ends at a blank line', '<div>\n```\nno\n\n```\nyes\n```\n'],
    ['an indented comment runs to -->', ' <!--\n\n```\n-->\n```\nw\n```\n'],
    ['a lazy line in a quote, then a fence', '> - item\n>   text\nlazy\n>   ```\n>   code\n'],
    ['tabs before a fence in a list item', '-\t```js\n\tx\n\t```\n*\ttext\n\n\t```\n\tcode\n\t```\n'],
    ['a quote in a list item, a fence in both', '- item\n  > ```\n  > a\n  > ```\n\n  > ```\n  b\n'],
    ['a fence in a list item after blank lines and a col-0 fence', '- a\n\n\n  ```\n  x\n  ```\n```\nz\n```\n'],
    ['a list item opening with a blank line', '-\n  ```\n  x\n  ```\n'],
    ['a fence in a list at the end, last line only spaces', 'text\n\n- ```\n  x\n   '],
    ['a fence deeper than the nesting limit', '>>>>>>>>>>>>>>>>>>>>>>>> ```\n> x\n\n```\ny\n```\n'],
  ];
  it.each(cases)('%s', (_name, text) => {
    expect(fencedBlocks(text)).toEqual(fullParseFences(text));
  });

  it('on generated documents (fast-check)', () => {
    const line = fc.constantFrom(
      'Some prose here.',
      'Title',
      '=====',
      '  ==  ',
      '= =',
      '---',
      '-',
      '***',
      '- - -',
      '',
      '',
      '```',
      '```js',
      '~~~',
      '````',
      '    ```',
      '   ```',
      '    indented code',
      '> quoted',
      '> ```',
      '>',
      '- item',
      '  ```',
      '  continued',
      '1. first',
      '2. second',
      '   ```py',
      '* star',
      '<div>',
      '</div>',
      '<!-- note -->',
      '[ref]: /url',
      '# Heading',
      '| a | b |',
      '|---|---|',
      '// @src/app.ts#L1-L3',
      '\t```',
      '  ',
      '\t',
      ' \t> x',
      '\t- tabbed item',
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), fc.boolean(), (lines, newlineAtEnd) => {
        const text = lines.join('\n') + (newlineAtEnd ? '\n' : '');
        const expected = fullParseFences(text);
        expect(fencedBlocks(text)).toEqual(expected);
        expect(parsedFences(text)).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('without a parse, on documents whose fences open at column 0 (fast-check)', () => {
    // Most of these need no parse: the shortcut must answer for them, and answer right.
    const line = fc.constantFrom(
      'Some prose with ``` inside.',
      'Title',
      '=====',
      '---',
      '',
      '',
      '```',
      '```js',
      '```a`b',
      '~~~',
      '~~~ x',
      '````',
      '   ```',
      '    ```',
      '\t```',
      '```  ',
      '- item',
      '  continued',
      '1. first',
      '> quoted',
      '    indented code',
      '<!-- note -->',
      '<!--',
      '-->',
      'a --> b',
      '<!-->',
      '<div>',
      '[ref]: /url',
      '[ref]:',
      "'title",
      '// @src/app.ts#L1-L3',
      '  ',
      '\t',
      'é',
    );
    let answered = 0;
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.boolean(), (lines, newlineAtEnd) => {
        const text = lines.join('\n') + (newlineAtEnd ? '\n' : '');
        const quick = topLevelFences(text, lineStarts(text));
        if (quick === null) return;
        answered++;
        expect(quick).toEqual(fullParseFences(text));
      }),
      { numRuns: 3000 },
    );
    expect(answered).toBeGreaterThan(500);
  });

  // Blocks nested to a random depth, each line behind its containers' markers (or lazily
  // without them), with fences open across blank lines, tabs and indented fences.
  const nestedDoc = (() => {
    const leaf = fc.constantFrom(
      ['```js', 'x = 1', '```'],
      ['~~~', '```', '~~~'],
      ['````', '', '```', '````'],
      ['```', 'open to the end'],
      ['   ```', '  a', '   ```'],
      ['\t```', 'b'],
      ['Some prose here.', 'more prose'],
      ['Title', '---'],
      ['    indented code'],
      ['<div>', '```', '</div>'],
      ['<!--', '```', '-->'],
      ['<pre>', '', '```', '</pre>'],
      [''],
      [''],
      ['// @src/app.ts#L1-L3'],
      ['(see a:B.swift#L1-L3)'],
      ['"Quoted" and \'quoted\'', '@src/a.ts#L1 . , ; : ! ? ) $ % &'],
      ['[a]: /url', '| a | b |', '| - | - |'],
      ['2024 was', '<span>text</span>'],
      ['```', 'a', '      ', '   ', '```'],
      ['    > not a quote here'],
      ['   > x'],
      ['<details>', '<summary>More</summary>', '```'],
      ['<img src="a.png">', '```'],
      ['<span>', '```js', '</span>'],
      ['</DIV>', 'text'],
      ['<p>'],
    );
    const marker = fc.constantFrom('- ', '* ', '1. ', '2) ', '> ', '>', '-\t', '  ', '\t', '>  ', '   > ', '-    ');
    type Doc = string[];
    const block: fc.Arbitrary<Doc> = fc.letrec<{ block: Doc }>((tie) => ({
      block: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.tuple(marker, fc.array(tie('block'), { minLength: 1, maxLength: 3 }), fc.nat(9)).map(([m, inner, lazy]) => {
          const lines = inner.flat();
          const pad = m.startsWith('>') ? m.replace(/[^>]/g, '') + ' ' : m === '-\t' ? '\t' : ' '.repeat(m.length);
          // A lazy line drops its markers now and then.
          return lines.map((l, i) => (i === 0 ? m + l : lazy === i ? l : l === '' && !m.startsWith('>') ? '' : pad + l));
        }),
      ),
    })).block;
    return fc.tuple(fc.array(block, { maxLength: 12 }), fc.boolean()).map(([blocks, newlineAtEnd]) => blocks.flat().join('\n') + (newlineAtEnd ? '\n' : ''));
  })();

  it('on generated documents with lists, quotes and fences nested in them (fast-check)', () => {
    fc.assert(
      fc.property(nestedDoc, (text) => {
        expect(fencedBlocks(text)).toEqual(fullParseFences(text));
      }),
      { numRuns: 3000 },
    );
  });

  /** nestedFences() read over a whole document (its top is a line where no block is open), to its last line markdown-it counts. */
  const readWhole = (text: string) => {
    const starts = lineStarts(text);
    const lineMax = starts.length > 0 && /^[ \t]*$/.test(text.slice(starts.at(-1)!)) ? starts.length - 1 : starts.length;
    return nestedFences(text, starts, 0, lineMax, lineMax);
  };

  it('without markdown-it, on fences in lists and quotes: the same fences, or "not sure" (fast-check)', () => {
    let answered = 0;
    let nested = 0;
    fc.assert(
      fc.property(nestedDoc, (text) => {
        if (text.includes('\r')) return;
        const quick = readWhole(text);
        if (quick === null) return;
        answered++;
        const expected = fullParseFences(text);
        expect(quick).toEqual(expected);
        const lines = text.split('\n');
        if (expected.some((b) => !/^(```|~~~)/.test(lines[b.open]!))) nested++;
      }),
      { numRuns: 5000 },
    );
    // It answers for a good share of them, fences in containers included.
    expect(answered).toBeGreaterThan(500);
    expect(nested).toBeGreaterThan(30);
  });

  // The same documents with leading spaces of random lines turned into a tab (a list item's
  // lines, a fence's, its content), and fences holding tabbed code.
  const tabbedDoc = fc
    .tuple(nestedDoc, fc.array(fc.nat(3), { maxLength: 60 }), fc.boolean())
    .map(([text, flips, code]) => {
      const lines = text.split('\n').map((l, i) => (flips[i] === 1 ? l.replace(/^ {1,4}/, '\t') : flips[i] === 2 ? l.replace(/^( *) {2}/, '$1\t') : l));
      if (code) lines.push('- go', '\t```go', '\tfunc f() {', '\t\tx := 1\t// a', ' \t}', '\t```', '  ```', '\t\t', '```\t', '\t```');
      return lines.join('\n');
    });

  it('with tabs: the same fences as markdown-it, read with it or without (fast-check)', () => {
    let answered = 0;
    fc.assert(
      fc.property(tabbedDoc, (text) => {
        expect(fencedBlocks(text)).toEqual(fullParseFences(text));
        if (text.includes('\r') || !text.includes('\t')) return;
        const quick = readWhole(text);
        if (quick === null) return;
        answered++;
        expect(quick).toEqual(fullParseFences(text));
      }),
      { numRuns: 4000 },
    );
    expect(answered).toBeGreaterThan(40);
  });

  it.each([
    ['a lazy line in a list item', '- a\nb\n  ```\n  x\n  ```\n'],
    ['a lazy line that opens with a parenthesis', '- a\n  ```\n  x\n  ```\n- b\n(see c:D.swift#L1-L3)\n  ```\n  y\n  ```\n'],
    ['a lazy line in a quote', '> a\nb\n> ```\n> c\n> ```\n'],
    ['a lazy line after an ordered item from 2', '1. a\n\n   ```\n   ```\n2. b\nCompare c.\n'],
    ['a tab-indented fence in a bullet item', '* a\n\n\t```kotlin\n\tlet v = 1\n\t```\n'],
    ['a tab-indented fence in an ordered item, its code tabbed', '1. a\n\n\t```go\n\tfunc f() {\n\t\tx := 1\t// y\n\t}\n\t```\n'],
    ['a tab the item takes part of', '- a\n  ```\n\t\tx\n \ty\n  ```\n'],
  ])('nestedFences reads %s as markdown-it does', (_name, text) => {
    const quick = readWhole(text);
    expect(quick).not.toBeNull();
    expect(quick).toEqual(fullParseFences(text));
  });

  it.each([
    ['a quote marker indented 4 columns (markdown-it still continues the quote)', '> ```\n> a\n    > ```\n```\n'],
    ['a blank line in a list item fence keeps what is past the item', '- ```\n      \n  ```\n'],
    ['a setext underline in a list item', '- a\n  ---\n  2. b\n     ```\n     x\n     ```\n'],
    ['a reference definition, then an ordered item from 2', '[a]: /url\n2. b\n   ```\n   x\n   ```\n'],
    ['an ordered item from 2 after a paragraph in a quote', '> a\n2. b\n   ```\n'],
    ['an empty item', '-\n  ```\n  x\n  ```\n'],
    ['an item opening with indented code', '-     ```\n  x\n'],
    ['a heading in an item', '- # T\n  ```\n  x\n  ```\n'],
    ['HTML in an item', '- <div>\n  ```\n  x\n  ```\n'],
    ['a fence with a backtick in its info string', '- ```a`b\n  x\n  ```\n'],
    ['tilde fence closed by a longer run', '> ~~~\n> x\n> ~~~~~  \n'],
    ['a top-level indented fence open at the end of a stretch', '  ```\n  x\n\nfoo\n'],
  ])('nestedFences on %s: the same fences, or not sure', (_name, text) => {
    const starts = lineStarts(text);
    const quick = nestedFences(text, starts, 0, starts.length, starts.length);
    if (quick !== null) expect(quick).toEqual(fullParseFences(text));
    expect(fencedBlocks(text)).toEqual(fullParseFences(text));
  });

  it("knows markdown-it's HTML block tag names", async () => {
    const { default: names } = (await import('markdown-it/lib/common/html_blocks.mjs' as string)) as { default: string[] };
    expect(names.length).toBeGreaterThan(50);
    for (const name of names) expect(HTML_BLOCK_TAG.test(`<${name}>`), name).toBe(true);
    expect(HTML_BLOCK_TAG.test('<img src="x">')).toBe(false);
    expect(HTML_BLOCK_TAG.test('<details2>')).toBe(false);
  });

  it('without markdown-it on the fences in lists and quotes of common shapes', () => {
    const docs = [
      '1. Install:\n\n   ```sh\n   npm i\n   ```\n2. Run:\n   ```sh\n   npx x\n   ```\n',
      '- a\n  - b\n\n    ```js\n    x\n\n    y\n    ```\n- c\n',
      '> **Note**: text\n>\n> ```swift\n> let x = 1\n> ```\n',
      '> - item\n>\n>   ```\n>   code\n>   ```\n',
      '- **Source**: `a:b.ts#L1`\n\n  ```ts\n  x\n  ```\n',
      '- open\n  ```\n  never closed\n- next\n',
      '<details>\n<summary>More</summary>\n```\nnot a fence\n\n- a\n  ```\n  b\n  ```\n</details>\n',
      '- item\n  <div>\n  ```\n  no\n\n  ```\n  yes\n  ```\n',
    ];
    for (const text of docs) {
      const starts = lineStarts(text);
      expect(nestedFences(text, starts, 0, starts.length, starts.length), text).toEqual(fullParseFences(text));
    }
  });

  it('parses only the stretches around fences that do not open at column 0', () => {
    const tail = Array.from({ length: 50 }, (_, i) => `Para ${i}.\n\n\`\`\`js\nx${i}\n\`\`\`\n`).join('\n');
    const text = `# T\n\nIntro.\n\n- step\n\n  \`\`\`sh\n  run\n  \`\`\`\n- next\n\nBack at the top.\n\n${tail}`;
    const starts = lineStarts(text);
    const parse = stretchParser(text, starts);
    const parsed: [number, number][] = [];
    const blocks = scanFences(text, starts, undefined, (from, to) => {
      parsed.push([from, to]);
      return parse(from, to);
    });
    expect(blocks).toEqual(fullParseFences(text));
    // The list alone, from its first line to the paragraph after it.
    expect(parsed).toEqual([[4, 11]]);
  });

  it("marks lines as markdown-it's own block state does (fast-check)", () => {
    const Base = full.block.State;
    const Fast = fastState(Base as never) as unknown as State;
    const text = fc.array(fc.constantFrom('a', ' ', '  ', '\t', '\n', '\n\n', '> ', '- ', 'é', '```'), { maxLength: 50 }).map((xs) => xs.join(''));
    fc.assert(
      fc.property(text, (src) => {
        const want = new Base(src, full, {}, []);
        const got = new Fast(src, full, {}, []);
        for (const key of ['bMarks', 'eMarks', 'tShift', 'sCount', 'bsCount', 'lineMax'] as const) expect(got[key], key).toEqual(want[key]);
      }),
      { numRuns: 3000 },
    );
  });
});
