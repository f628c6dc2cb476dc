import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseResponseRefs, stripFence } from '../../src/core/response-refs/parse-response-refs.js';

const ids = (text: string) => parseResponseRefs(text).refs.map((r) => [r.id, r.content]);
const warnings = (text: string) => parseResponseRefs(text).warnings.map((w) => w.message);

describe('parseResponseRefs (docs/reference.md#refcat-ref-list--show--scan--export)', () => {
  it.each<[string, string, [string, string][]]>([
    ['the basic form', '<ref id="a">\nx = 1\n</ref>', [['a', 'x = 1']]],
    ['inline', 'see <ref id="a">inline text</ref> here', [['a', 'inline text']]],
    ['single quotes', "<ref id='a'>\nx\n</ref>", [['a', 'x']]],
    ['other attributes, any order', '<ref lang="py" id="a" title=\'t\'>\nx\n</ref>', [['a', 'x']]],
    ['bare attribute and value', '<ref important id=a>\nx\n</ref>', [['a', 'x']]],
    ['attribute values holding > and spaces', '<ref title="a > b" id="k">\nx\n</ref>', [['k', 'x']]],
    ['id charset', '<ref id="A-z_0.9:x">\nx\n</ref>', [['A-z_0.9:x', 'x']]],
    ['only one newline is dropped on each side', '<ref id="a">\n\nx\n\n</ref>', [['a', '\nx\n']]],
    ['CRLF newlines', '<ref id="a">\r\nx\r\ny\r\n</ref>', [['a', 'x\r\ny']]],
    ['trailing spaces after the tag and an indented closing tag', '  <ref id="a">  \n  x\n  </ref>', [['a', '  x']]],
    ['empty content', '<ref id="a"></ref><ref id="b">\n</ref>', [['a', ''], ['b', '']]],
    ['spaces in the closing tag', '<ref id="a">\nx\n</ref >', [['a', 'x']]],
    ['not a ref: <refs> or <reference>', '<refs id="a">x</refs><reference id="b">y</reference>', []],
    ['self-closing tags (a ref_list) are not sections', '<ref_list count="1">\n  <ref id="x" line="1" />\n</ref_list>', []],
    [
      'nested: both found, the outer keeps the inner text without its tags',
      '<ref id="outer">\nintro\n<ref id="inner">\ncode\n</ref>\noutro\n</ref>',
      [['outer', 'intro\ncode\noutro'], ['inner', 'code']],
    ],
    ['nested inline', '<ref id="o">a <ref id="i">b</ref> c</ref>', [['o', 'a b c'], ['i', 'b']]],
    [
      'tags in a fenced code block outside refs are examples',
      'Example:\n```xml\n<ref id="example">\nnot a ref\n</ref>\n```\n<ref id="real">\nyes\n</ref>',
      [['real', 'yes']],
    ],
    ['tilde fences too', '~~~\n<ref id="x">no</ref>\n~~~\n', []],
    ['a longer fence is closed only by one as long', '````\n```\n<ref id="x">no</ref>\n````\n<ref id="y">yes</ref>', [['y', 'yes']]],
    [
      'a fence inside a ref is content',
      '<ref id="code">\n```python\nprint(1)\n```\n</ref>',
      [['code', '```python\nprint(1)\n```']],
    ],
    ['unclosed fence outside: everything after it is an example', '```\n<ref id="x">no</ref>', []],
    ['CRLF fences', '```\r\n<ref id="x">no</ref>\r\n```\r\n<ref id="y">\r\nyes\r\n</ref>', [['y', 'yes']]],
    ['inline code outside refs is an example too', 'Wrap it in `<ref id="x">text</ref>` tags.\n<ref id="y">\nreal\n</ref>', [['y', 'real']]],
    ['inline code inside a ref is content, and its tags count', '<ref id="o">\nsee `<ref id="i">x</ref>`\n</ref>', [['o', 'see `x`'], ['i', 'x']]],
  ])('%s', (_name, text, expected) => {
    expect(ids(text)).toEqual(expected);
  });

  it('reports lines, line counts, code points and attributes', () => {
    const text = 'intro\n\n<ref id="a" lang="py">\nx😀\ny\n</ref>\n';
    expect(parseResponseRefs(text).refs).toEqual([
      { id: 'a', content: 'x😀\ny', line: 3, endLine: 6, lines: 2, chars: 4, attributes: { id: 'a', lang: 'py' } },
    ]);
  });

  it('duplicates: the last one wins, a warning names both lines', () => {
    const text = '<ref id="a">\nfirst\n</ref>\n<ref id="b">\nb\n</ref>\n<ref id="a">\nsecond\n</ref>';
    const r = parseResponseRefs(text);
    expect(r.refs.map((x) => [x.id, x.content, x.line])).toEqual([
      ['b', 'b', 4],
      ['a', 'second', 7],
    ]);
    expect(r.warnings.map((w) => w.message)).toEqual(["Duplicate ref id 'a' at lines 1 and 7: the one closed last (line 7) wins"]);
  });

  it('a duplicate id nested in its namesake: the outer one, closed last, wins, and the warning says so', () => {
    const r = parseResponseRefs('<ref id="a">\nouter\n<ref id="a">\ninner\n</ref>\n</ref>\n');
    expect(r.refs.map((x) => [x.id, x.content, x.line])).toEqual([['a', 'outer\ninner', 1]]);
    expect(r.warnings.map((w) => w.message)).toEqual(["Duplicate ref id 'a' at lines 1 and 3: the one closed last (line 1) wins"]);
  });

  it.each([
    ['an unclosed tag', 'a\n<ref id="x">\nno end', ['Unclosed <ref id="x"> at line 2: ignored']],
    ['a stray closing tag', 'x\n</ref>', ['</ref> without an opening <ref> at line 2: ignored']],
    ['a ref without id', '<ref>\nx\n</ref>', ['<ref> without an id at line 1: ignored']],
    ['a bad id', '<ref id="a b">\nx\n</ref>', ["Invalid ref id 'a b' at line 1 (ids are made of A-Z a-z 0-9 _ . : -): ignored"]],
  ])('warns about %s and ignores it', (_name, text, expected) => {
    expect(ids(text)).toEqual([]);
    expect(warnings(text)).toEqual(expected);
  });

  it('an unclosed tag is ignored as if absent: later fenced examples stay examples', () => {
    const text = 'Here: <ref id="draft">\n\n```xml\n<ref id="example">\nnot a ref\n</ref>\n```\n<ref id="real">\nyes\n</ref>\n';
    expect(ids(text)).toEqual([['real', 'yes']]);
    expect(warnings(text)).toEqual(['Unclosed <ref id="draft"> at line 1: ignored']);
  });

  it.each([
    ['x', 1],
    ['x\n', 1],
    ['\na\n', 2],
    ['\n', 1],
    ['a\nb', 2],
  ])('counts lines as docs/reference.md#reading-files does (%j: %i)', (content, n) => {
    // Content keeps its inner newlines: one newline on each side is the tag layout.
    const r = parseResponseRefs(`<ref id="a">\n${content}\n</ref>`).refs[0]!;
    expect(r.content).toBe(content);
    expect(r.lines).toBe(n);
  });

  it('an unclosed outer tag does not hide a closed inner one', () => {
    const text = '<ref id="outer">\n<ref id="inner">\nx\n</ref>\n';
    expect(ids(text)).toEqual([['inner', 'x']]);
    expect(warnings(text)).toEqual(['Unclosed <ref id="outer"> at line 1: ignored']);
  });
});

describe('parseResponseRefs: properties', () => {
  const contentArb = fc
    .string({ unit: fc.constantFrom('a', 'b', ' ', '\n', '\t', '`', '~', 'é', '😀', '>', '"', '/'), maxLength: 60 })
    .filter((s) => !s.endsWith('\r'));
  const idArb = fc.stringMatching(/^[A-Za-z0-9_.:-]{1,12}$/);

  it('the content of a wrapped text is the text, whatever it holds', () => {
    fc.assert(
      fc.property(contentArb, idArb, fc.string({ unit: fc.constantFrom('x', ' ', '\n'), maxLength: 10 }), (content, id, around) => {
        const text = `${around}\n<ref id="${id}">\n${content}\n</ref>\n${around}`;
        const r = parseResponseRefs(text);
        expect(r.refs).toHaveLength(1);
        expect(r.refs[0]!.id).toBe(id);
        expect(r.refs[0]!.content).toBe(content);
        expect(r.warnings).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it('several refs and nesting: every one is found with its own content', () => {
    fc.assert(
      fc.property(fc.uniqueArray(idArb, { minLength: 1, maxLength: 5 }), fc.array(contentArb, { minLength: 5, maxLength: 5 }), (list, contents) => {
        // outer wraps the others (each on its own lines), which sit one after another.
        const [outer, ...rest] = list;
        const inner = rest.map((id, i) => `<ref id="${id}">\n${contents[i]}\n</ref>`);
        const text = `<ref id='${outer}' kind="outer">\n${[contents[4], ...inner].join('\n')}\n</ref>`;
        const r = parseResponseRefs(text);
        expect(r.warnings).toEqual([]);
        expect(r.refs.map((x) => x.id)).toEqual(list);
        rest.forEach((id, i) => expect(r.refs.find((x) => x.id === id)!.content).toBe(contents[i]));
        expect(r.refs[0]!.content).toBe([contents[4], ...rest.map((_, i) => contents[i])].join('\n'));
      }),
      { numRuns: 300 },
    );
  });

  it('never throws and only reports ids of the allowed charset', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('<', 'r', 'e', 'f', ' ', 'i', 'd', '=', '"', '>', '/', '\n', '`', 'x'), maxLength: 120 }), (text) => {
        for (const ref of parseResponseRefs(text).refs) expect(ref.id).toMatch(/^[A-Za-z0-9_.:-]+$/);
      }),
      { numRuns: 500 },
    );
  });
});

describe('stripFence', () => {
  it.each<[string, string | null]>([
    ['```python\nprint(1)\n```', 'print(1)'],
    ['```\na\n\nb\n```', 'a\n\nb'],
    ['```python\r\nprint(1)\r\nprint(2)\r\n```', 'print(1)\r\nprint(2)'],
    ['```\r\n```', ''],
    ['~~~~\ncode\n~~~~', 'code'],
    ['```\n```', ''],
    ['text\n```\ncode\n```', null],
    ['```\na\n```\nmore\n```\nb\n```', null],
    ['```\nunclosed', null],
    ['plain text', null],
  ])('%j', (content, expected) => {
    expect(stripFence(content)).toBe(expected);
  });
});
