import { describe, expect, it } from 'vitest';
import { fencedBlocks } from '../../src/core/snippets/fenced-blocks.js';
import { findCitations } from '../../src/core/snippets/find-citations.js';

const known = new Set(['loop', 'trio', 'oref0', 'loopfollow']);
const existing = new Set(['snippets/sample.py', 'snippets/sample.ts', 'app.js', 'Makefile']);

function cite(md: string) {
  const lines = md.split('\n').map((l) => l.replace(/\r$/, ''));
  return findCitations((i) => lines[i] ?? '', fencedBlocks(md), { isKnownAlias: (a) => known.has(a), bareFileExists: (p) => existing.has(p) }).map((c) => ({
    form: c.form,
    line: c.line,
    fenceLine: c.fenceLine,
    text: c.text,
    ref: c.ref,
    snippet: c.snippet,
  }));
}

describe('fencedBlocks follows CommonMark', () => {
  it.each<[string, string, { open: number; close: number | null; info: string; lines: string[] }[]]>([
    ['backticks', '```js\na\n```\n', [{ open: 0, close: 2, info: 'js', lines: ['a'] }]],
    ['tildes', '~~~\na\n~~~\n', [{ open: 0, close: 2, info: '', lines: ['a'] }]],
    ['a longer closing fence', '```\na\n``````\n', [{ open: 0, close: 2, info: '', lines: ['a'] }]],
    ['a shorter fence inside does not close it', '````\n```\na\n````\n', [{ open: 0, close: 3, info: '', lines: ['```', 'a'] }]],
    ['left open to the end of the file', 'x\n\n```py\na\nb\n', [{ open: 2, close: null, info: 'py', lines: ['a', 'b'] }]],
    ['an info string with attributes', '```js {numberLines}\na\n```', [{ open: 0, close: 2, info: 'js {numberLines}', lines: ['a'] }]],
    ['in a list item', '- item\n\n  ```js\n  a\n    b\n  ```\n', [{ open: 2, close: 5, info: 'js', lines: ['a', '  b'] }]],
    ['in a block quote', '> quote\n> ```js\n> a\n> ```\n', [{ open: 1, close: 3, info: 'js', lines: ['a'] }]],
    ['a quote ends the block at its end', '> ```js\n> a\n\nafter\n', [{ open: 0, close: null, info: 'js', lines: ['a'] }]],
    ['a 4-space-indented pseudo-fence is an indented code block', 'para\n\n    ```js\n    a\n    ```\n', []],
    ['no fence at all', 'just text with `code`\n', []],
    ['CRLF', '```js\r\na\r\n```\r\n', [{ open: 0, close: 2, info: 'js', lines: ['a'] }]],
  ])('%s', (_name, md, expected) => {
    expect(fencedBlocks(md)).toMatchObject(expected);
  });
});

describe('in-fence citations, in each comment style', () => {
  it.each<[string, string, { text: string; ref: string; snippet: string[] } | null]>([
    ['//', '```swift\n// loop:Sources/A.swift#L3-L9\nlet a = 1\n```', { text: 'loop:Sources/A.swift#L3-L9', ref: 'loop:Sources/A.swift#L3-L9', snippet: ['let a = 1'] }],
    ['// with words after', '```swift\n// trio:Trio/X.swift#L10-L20 (simplified)\nx\n```', { text: 'trio:Trio/X.swift#L10-L20', ref: 'trio:Trio/X.swift#L10-L20', snippet: ['x'] }],
    ['# with @', '```py\n# @src/app.py#L1-L2\nx\n```', { text: '@src/app.py#L1-L2', ref: '@src/app.py#L1-L2', snippet: ['x'] }],
    ['--', '```sql\n-- @db/schema.sql#L1\nx\n```', { text: '@db/schema.sql#L1', ref: '@db/schema.sql#L1', snippet: ['x'] }],
    [";", "```ini\n; @conf/a.ini#L1\nx\n```", { text: "@conf/a.ini#L1", ref: "@conf/a.ini#L1", snippet: ["x"] }],
    ["%", "```erlang\n% @src/a.erl#L1\nx\n```", { text: "@src/a.erl#L1", ref: "@src/a.erl#L1", snippet: ["x"] }],
    ['%%', '```mermaid\n%% @doc/a.md#L1\nx\n```', { text: '@doc/a.md#L1', ref: '@doc/a.md#L1', snippet: ['x'] }],
    ["'", "```vb\n' @src/a.bas#L1\nx\n```", { text: '@src/a.bas#L1', ref: '@src/a.bas#L1', snippet: ['x'] }], // any extension, with a selector
    ["an @ word without a selector naming no file is a comment", "```java\n// @Override\nx\n```", null],
    ["' with a bare path that exists", "```puml\n' app.js\nx\n```", { text: 'app.js', ref: '@app.js', snippet: ['x'] }],
    ['/* */', '```css\n/* @src/a.css#L1-L3 */\nx\n```', { text: '@src/a.css#L1-L3', ref: '@src/a.css#L1-L3', snippet: ['x'] }],
    ['<!-- -->', '```html\n<!-- @src/a.html#L2 -->\nx\n```', { text: '@src/a.html#L2', ref: '@src/a.html#L2', snippet: ['x'] }],
    ['after blank lines', '```js\n\n// @a.js#L1\nx\n```', { text: '@a.js#L1', ref: '@a.js#L1', snippet: ['x'] }],
    ['a bare path with a selector', '```ts\n// src/app.ts#L20-L30\nx\n```', { text: 'src/app.ts#L20-L30', ref: '@src/app.ts#L20-L30', snippet: ['x'] }],
    ['a bare path that exists', '```py\n# snippets/sample.py\nprint(1)\n```', { text: 'snippets/sample.py', ref: '@snippets/sample.py', snippet: ['print(1)'] }],
    ['a bare label that names no file is a comment', '```js\n// server.js\nx\n```', null],
    ['a bare file name followed by words is a comment', '```make\n# Makefile handles tool execution, see below\nx\n```', null],
    ['a bare path that exists, followed by words, is a comment', '```py\n# snippets/sample.py prints one\nprint(1)\n```', null],
    ['a bare word with no / or . is a comment even when it names a file', '```make\n# Makefile\nx\n```', null],
    ['a bare path with a selector may be followed by words', '```ts\n// src/app.ts#L20-L30 (simplified)\nx\n```', { text: 'src/app.ts#L20-L30', ref: '@src/app.ts#L20-L30', snippet: ['x'] }],
    ['a comment whose first word is not a ref', '```js\n// see @a.js#L1\nx\n```', null],
    ['a first line that is code', '```js\nconst a = "@a.js#L1"\n```', null],
    ['#include is no citation', '```c\n#include <stdio.h>\n```', null],
    ['a URL is no citation', '```js\n// https://example.com/a.js#L1\nx\n```', null],
    ['an unknown alias without a slash is prose', '```yaml\n# key:value.txt\nx\n```', null],
    ['in a list item', '1. Step\n\n   ```swift\n   // loop:Sources/A.swift#L3\n   let a = 1\n   ```', { text: 'loop:Sources/A.swift#L3', ref: 'loop:Sources/A.swift#L3', snippet: ['let a = 1'] }],
    ['in a block quote', '> ```js\n> // @a.js#L1-L2\n> x\n> ```', { text: '@a.js#L1-L2', ref: '@a.js#L1-L2', snippet: ['x'] }],
    ['a pseudo-fence in an indented code block', 'p\n\n    ```js\n    // @a.js#L1\n    x\n    ```', null],
  ])('%s', (_name, md, expected) => {
    const found = cite(md);
    if (expected === null) expect(found).toEqual([]);
    else expect(found).toEqual([expect.objectContaining({ form: 'in-fence', ...expected })]);
  });

  it('gives the lines of the ref and of the fence', () => {
    expect(cite('# T\n\n```js\n\n// @a.js#L1\nx\n```\n')).toEqual([expect.objectContaining({ line: 5, fenceLine: 3 })]);
  });
});

describe('captions', () => {
  it.each<[string, string, { text: string; line: number; snippet: string[] } | null]>([
    ['**Source**: `alias:path`', '**Source**: `oref0:lib/iob/total.js#L67-L92`\n```js\nx\n```', { text: 'oref0:lib/iob/total.js#L67-L92', line: 1, snippet: ['x'] }],
    ['File: @ref, with one blank line', 'File: @src/app.ts#L3-L9\n\n```ts\nx\n```', { text: '@src/app.ts#L3-L9', line: 1, snippet: ['x'] }],
    ['two blank lines: not a caption', 'File: @src/app.ts#L3-L9\n\n\n```ts\nx\n```', null],
    ['four words and a ref', 'From the dose server `@src/dose.py#L4-L8`:\n```py\nx\n```', { text: '@src/dose.py#L4-L8', line: 1, snippet: ['x'] }],
    ['a sentence is not a caption', 'The function below, from @src/app.ts#L3, parses every input line:\n```ts\nx\n```', null],
    ['two refs are not a caption', 'See @a.ts#L1 and @b.ts#L2\n```ts\nx\n```', null],
    ['a heading', '### `loop:Sources/A.swift#L3-L9`\n```swift\nx\n```', { text: 'loop:Sources/A.swift#L3-L9', line: 1, snippet: ['x'] }],
    ['in a list item', '- Source: @src/a.ts#L1\n\n  ```ts\n  x\n  ```', { text: '@src/a.ts#L1', line: 1, snippet: ['x'] }],
    ['in a block quote', '> Source: @src/a.ts#L1\n> ```ts\n> x\n> ```', { text: '@src/a.ts#L1', line: 1, snippet: ['x'] }],
    ['embedme caption', '<!-- embedme snippets/sample.json -->\n\n```json\n{}\n```', { text: 'snippets/sample.json', line: 1, snippet: ['{}'] }],
    ['embedme caption with a selector', '<!-- embedme src/a.ts#L3-L9 -->\n```ts\nx\n```', { text: 'src/a.ts#L3-L9', line: 1, snippet: ['x'] }],
    ['a closing fence is no caption', '```\n@a.ts#L1\n```\n```ts\nx\n```', null],
  ])('%s', (_name, md, expected) => {
    const found = cite(md);
    if (expected === null) expect(found).toEqual([]);
    else expect(found).toEqual([expect.objectContaining({ form: 'caption', ...expected })]);
  });

  it('an in-fence ref wins over a caption', () => {
    expect(cite('Source: @b.js#L1\n```js\n// @a.js#L1\nx\n```')).toEqual([expect.objectContaining({ form: 'in-fence', text: '@a.js#L1' })]);
  });
});

describe('embedme-ignore-next', () => {
  it.each(['<!-- embedme-ignore-next -->', '<!-- embedme ignore-next -->'])('%s skips the next block', (marker) => {
    expect(cite(`${marker}\n\`\`\`ts\n// src/a.ts#L1\nx\n\`\`\`\n\n\`\`\`ts\n// src/b.ts#L2\ny\n\`\`\``)).toEqual([
      expect.objectContaining({ text: 'src/b.ts#L2' }),
    ]);
  });
});
