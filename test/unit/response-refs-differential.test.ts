import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseResponseRefs } from '../../src/core/response-refs/parse-response-refs.js';
import { parseResponseRefsBefore } from '../helpers/parse-response-refs-before.js';

// The linear <ref> parser against the one it replaced (test/helpers/parse-response-refs-before.ts):
// the same refs, contents, lines, attributes and warnings, in the same order, on any answer.

/** Tags and near-tags, and code and layout, glued together with no separator. */
const TAG_PIECES = ['<ref id="a">', '<ref id="b">', "<ref id='c' lang=py>", '<ref\n  id="d" title="a > b">', '</ref>', '</ref >', '</ref\n>'];
const OTHER_PIECES = [
  '<ref>',
  '<ref id="a b">',
  '<ref id="s" />',
  '<refs id="x">',
  '```',
  '````',
  '~~~',
  '```py',
  '```a`',
  '   ```',
  '    ~~~',
  '`',
  '``',
  '`code`',
  '``a`b``',
  '`<ref id="e">`',
  'x',
  'text ',
  ' ',
  '\t',
  '\n',
  '\r\n',
  '\r',
  '\n\n',
  '<',
  '>',
  '"',
  '=',
];
const glued = fc
  .array(fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...TAG_PIECES) }, { weight: 2, arbitrary: fc.constantFrom(...OTHER_PIECES) }), { maxLength: 80 })
  .map((xs) => xs.join(''));

/** Lines as answers have them: fences, tags alone on their line (indented or not), prose with code. */
const tag = fc.oneof(
  fc.constantFrom('a', 'b', 'c', 'd').map((id) => `<ref id="${id}">`),
  fc.constant('</ref>'),
  fc.constantFrom('<ref>', '<ref id="s"/>', '</ref >'),
);
const ticks = fc.integer({ min: 1, max: 4 }).map((n) => '`'.repeat(n));
const blank = fc.constantFrom('', ' ', '  ', '\t', ' \t');
const line = fc.oneof(
  { weight: 2, arbitrary: fc.tuple(blank, tag, blank, fc.constantFrom('', '\r', '\r\r', ' \r')).map((xs) => xs.join('')) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('', ' ', '   ', '    '), fc.constantFrom('```', '````', '~~~', '```js', '``` `x`')).map((xs) => xs.join('')) },
  { weight: 3, arbitrary: fc.array(fc.oneof(tag, ticks, blank, fc.constantFrom('x', 'code', '<', '>')), { maxLength: 16 }).map((xs) => xs.join('')) },
);
const lines = fc.array(line, { maxLength: 30 }).map((xs) => xs.join('\n'));

/** One long line of tags and backtick runs: what the old parser was slow on. */
const oneLine = fc
  .array(fc.oneof(tag, tag, ticks, blank, fc.constant('x')), { maxLength: 120 })
  .map((xs) => `<ref id="o">${xs.join('')}</ref>\n`);

describe('parseResponseRefs gives what the parser before it gave', () => {
  it.each([
    ['glued pieces', glued],
    ['lines', lines],
    ['one long line', oneLine],
  ])('on generated answers: %s (property)', (_name, answer) => {
    let refs = 0;
    fc.assert(
      fc.property(answer, (text) => {
        const actual = parseResponseRefs(text);
        expect(actual).toEqual(parseResponseRefsBefore(text));
        refs += actual.refs.length;
      }),
      { numRuns: 1500 },
    );
    // The generators reach the interesting cases: answers with refs, not only noise.
    expect(refs).toBeGreaterThan(100);
  });

  it("on this repository's docs, fixtures and tests that hold <ref> tags", () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const files = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) return e.name === 'node_modules' ? [] : files(p);
        return /\.(md|txt|ts)$/.test(e.name) ? [p] : [];
      });
    let checked = 0;
    for (const file of [...files(path.join(root, 'docs')), ...files(path.join(root, 'fixtures')), ...files(path.join(root, 'test'))]) {
      const text = fs.readFileSync(file, 'utf8');
      if (!text.includes('<ref')) continue;
      expect(parseResponseRefs(text), file).toEqual(parseResponseRefsBefore(text));
      checked++;
    }
    expect(checked).toBeGreaterThan(5);
  });
});
