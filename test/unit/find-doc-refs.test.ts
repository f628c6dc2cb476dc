import { describe, expect, it } from 'vitest';
import { findDocRefs, regionMarker } from '../../src/core/doc-refs/find-doc-refs.js';

const known = new Set(['loop', 'crm']);
const scan = (text: string, markdown = true) =>
  findDocRefs(text, { markdown, isKnownAlias: (n) => known.has(n) }).map((r) => (r.text === r.ref ? r.ref : `${r.text} -> ${r.ref}`));

// docs/reference.md#verify-refs: what counts as a ref in docs, and the look-alikes that do not.
describe('findDocRefs: refs', () => {
  it.each<[string, string[]]>([
    ['see @src/app.py', ['@src/app.py']],
    ['@src/app.py#L10-L20 at the start of a line', ['@src/app.py#L10-L20']],
    ['lines @a.py#L10, @b.ts#L-5 and @c.go#L7-.', ['@a.py#L10', '@b.ts#L-5', '@c.go#L7-']],
    ['window @a.py#L50:-10.. and @a.py#L50:..+20', ['@a.py#L50:-10..', '@a.py#L50:..+20']],
    ['pattern @a.py#/def main/:+3 here', ['@a.py#/def main/:+3']],
    ['in code: `@a.py#/def main/:function` (spaces kept)', ['@a.py#/def main/:function']],
    ['`loop:Sources/A.swift#L3-L9`', ['loop:Sources/A.swift#L3-L9']],
    ['known alias without a folder: loop:A.swift', ['loop:A.swift']],
    ['unknown alias with a folder: old:lib/server.js', ['old:lib/server.js']],
    ['@loop:Sources/A.swift is an alias ref too', ['@loop:Sources/A.swift']],
    ['[link text](@docs/guide.md) and [loop:Sources/B.swift](x)', ['@docs/guide.md', 'loop:Sources/B.swift']],
    ['**@bold.md** and _@em.md_', ['@bold.md', '@em.md']],
    ['~~@old.py~~ and ~~@old.py#L1~~ and ~~@a.py#f~2~~ and @a.py#f~~', ['@old.py', '@old.py#L1', '@a.py#f~2', '@a.py#f']],
    ['quoted "@a.yaml" \'@b.yml\' (@c.json) [@d.toml] {@e.txt} <@f.md>', ['@a.yaml', '@b.yml', '@c.json', '@d.toml', '@e.txt', '@f.md']],
    ['heading anchor @docs/GUIDE.md#install-steps', ['@docs/GUIDE.md#install-steps -> @docs/GUIDE.md']],
    ['end of sentence @a.md.', ['@a.md']],
    ['upper-case extension @Makefile.MK', ['@Makefile.MK']],
    ['glob @src/*.py', ['@src/*.py']],
    ['two on a line: @a.py and crm:lib/x.js', ['@a.py', 'crm:lib/x.js']],
    // Only `path/to/` is a placeholder (sdqctl's); a folder named path is a folder.
    ['unknown alias into a folder named path: unknown:path/file.py', ['unknown:path/file.py']],
    ['a folder named path: @path/file.py#L10-L50', ['@path/file.py#L10-L50']],
  ])('%s', (line, expected) => {
    expect(scan(line)).toEqual(expected);
  });
});

describe('findDocRefs: look-alikes that are not refs', () => {
  it.each([
    ['e-mail', 'mail dev@example.com or <ops@example.org>'],
    ['mailto', 'mailto:someone@site.io'],
    ['URL with @ and an extension', 'https://example.com/@user/repo.md and http://x.io/a.py#L1'],
    ['JSDoc', '@param name the name, @returns the value, @see other'],
    ['decorators', '@dataclass, @pytest.fixture, @app.route("/"), @Component({})'],
    ['npm scope', 'npm i @types/node @vitest/coverage-v8'],
    ['version pins', 'left-pad@1.3.0, actions/checkout@v4, @1.2.3, pkg@^2.0'],
    ['host:port', 'localhost:8080/index.html, redis:6379, 127.0.0.1:80, db.example.com:5432/x.sql'],
    ['timestamps', '12:30:45, HH:mm:ss, mm:ss.SSS'],
    ['yaml-ish key:value without a folder', 'key:value.txt and name:app.py'],
    ['Windows drives', 'C:\\Users\\me\\notes.txt and D:/data/x.csv'],
    ['git revisions', 'git show HEAD:src/gone.py'],
    ['URL schemes as aliases', 'file:docs/x.md, s3:bucket/key.json'],
    ['path/to placeholders', '@path/to/file.py and loop:path/to/x.swift and @src/path/to/y.md'],
    ['bare placeholder names', '@file.py#L10 @foo.ts @example.md @filename.txt'],
    ['ellipsis', '@src/.../x.py and @src/…/y.py'],
    ['no extension', '@README and @src/app and loop:Sources'],
    ['unknown extension', '@config.weird and @a.b'],
    ['mid-word @', 'foo@bar.py and x.y:z/w.md'],
    ['file:line citations', 'see app.py:12 and src/app.py:10-20'],
    ['C++ scope', 'std::vector and a::b/c.h'],
  ])('%s', (_name, line) => {
    expect(scan(line)).toEqual([]);
  });
});

describe('findDocRefs: markdown structure', () => {
  it('skips fenced code blocks (``` and ~~~, longer fences, indented up to 3)', () => {
    const text = [
      '@a.md',
      '```bash',
      'refcat @in-fence.py#L1',
      '```',
      '@b.md',
      '````',
      '```',
      '@still-in-fence.md',
      '````',
      '   ~~~',
      '@tilde-fence.md',
      '   ~~~',
      '@c.md',
    ].join('\n');
    expect(findDocRefs(text, { markdown: true, isKnownAlias: () => false }).map((r) => `${r.line} ${r.ref}`)).toEqual([
      '1 @a.md',
      '5 @b.md',
      '13 @c.md',
    ]);
  });

  it('does not treat fences as special outside markdown', () => {
    expect(scan('```\n@a.md\n```', false)).toEqual(['@a.md']);
  });

  it('skips regions between verify-refs: off and verify-refs: on', () => {
    const text = 'x @a.md\n<!-- verify-refs: off -->\n@b.md\n# verify-refs: on\n@c.md';
    expect(scan(text)).toEqual(['@a.md', '@c.md']);
  });

  it('reads a marker shown in inline code or in a fenced block as text, not as a marker', () => {
    // A doc that explains the marker still has its later refs checked.
    expect(scan('Use `<!-- verify-refs: off -->` to stop.\n\n@a.md')).toEqual(['@a.md']);
    expect(scan('Use ``<!-- verify-refs: off -->`` or `x`.\n@a.md')).toEqual(['@a.md']);
    expect(scan('```html\n<!-- verify-refs: off -->\n```\n@a.md')).toEqual(['@a.md']);
    expect(scan('~~~\n<!-- verify-refs: off -->\n~~~\n@a.md')).toEqual(['@a.md']);
    // A marker outside the code on the same line still counts; so does one outside markdown's rules.
    expect(scan('`x` <!-- verify-refs: off -->\n@a.md\n<!-- verify-refs: on -->\n@b.md')).toEqual(['@b.md']);
    expect(scan('```\n# verify-refs: off\n```\n@a.md', false)).toEqual([]);
    // In an off region, an `on` marker shown in a fence does not end it.
    expect(scan('<!-- verify-refs: off -->\n```\n<!-- verify-refs: on -->\n```\n@a.md\n<!-- verify-refs: on -->\n@b.md')).toEqual(['@b.md']);
  });

  it.each<[string, 'off' | 'on' | null]>([
    ['<!-- verify-refs: off -->', 'off'],
    ['# verify-refs: on', 'on'],
    ['// verify-refs: off', 'off'],
    ['<!-- verify-refs: off --> <!-- verify-refs: on -->', 'on'],
    ['`<!-- verify-refs: off -->`', null],
    ['``<!-- verify-refs: off -->``', null],
    ['`` a ` <!-- verify-refs: off --> ``', null],
    ['` <!-- verify-refs: off -->', 'off'],
    ['``x` <!-- verify-refs: off -->', 'off'],
    ['`a` <!-- verify-refs: off --> `b`', 'off'],
    ['`a`` <!-- verify-refs: off --> `', null],
    ['verify-refs: offset', 'off'],
    ['no marker here', null],
  ])('regionMarker(%j) is %j', (line, marker) => {
    expect(regionMarker(line)).toBe(marker);
  });

  it('reads a line of many backtick runs in time linear in it', () => {
    const runs = Array.from({ length: 300 }, (_, i) => '`'.repeat(i + 1)).join(' x ');
    expect(regionMarker(`${runs} <!-- verify-refs: off -->`)).toBe('off');
    // 50,000 one-backtick spans, closed in pairs: the marker after them is outside.
    expect(regionMarker(`${'` '.repeat(50_000)}<!-- verify-refs: off -->`)).toBe('off');
    expect(regionMarker(`\`${'x '.repeat(50_000)}<!-- verify-refs: off -->\``)).toBe(null);
  });

  it('counts lines from 1, CRLF included', () => {
    const refs = findDocRefs('title\r\n\r\nsee @a.md\r\n', { markdown: true, isKnownAlias: () => false });
    expect(refs).toEqual([{ line: 3, text: '@a.md', ref: '@a.md' }]);
  });
});

describe('findDocRefs: unknown aliases and placeholder aliases', () => {
  // [line, refs when unknown aliases are prose, refs when reportUnknownAlias says they may be typos]
  it.each<[string, string[], string[]]>([
    ['tiro:README.md', [], ['tiro:README.md']],
    ['note:setup.txt#L3 (a selector)', ['note:setup.txt#L3'], ['note:setup.txt#L3']],
    ['note:setup.txt#/main/', ['note:setup.txt#/main/'], ['note:setup.txt#/main/']],
    ['note:setup.md#usage (an anchor, not a selector)', [], ['note:setup.md#usage -> note:setup.md']],
    ['old:lib/server.js (a folder)', ['old:lib/server.js'], ['old:lib/server.js']],
    ['`alias:example/path.md`', [], []],
    ['project:docs/x.md#L2 and extract:src/app.py', [], []],
    ['@alias:example/path.md and @project:a/b.md', [], []],
    ['loop:README.md (known)', ['loop:README.md'], ['loop:README.md']],
    ['key:value.txt (prose unless aliases are set up)', [], ['key:value.txt']],
  ])('%s', (line, prose, typos) => {
    const run = (reportUnknownAlias: boolean) =>
      findDocRefs(line, { markdown: true, isKnownAlias: (n) => known.has(n), reportUnknownAlias: () => reportUnknownAlias }).map((r) =>
        r.text === r.ref ? r.ref : `${r.text} -> ${r.ref}`,
      );
    expect(run(false)).toEqual(prose);
    expect(run(true)).toEqual(typos);
  });

  it('a placeholder word that is a defined alias is an alias', () => {
    const refs = findDocRefs('alias:src/a.py and @project:b.md', { markdown: true, isKnownAlias: (n) => n === 'alias' || n === 'project' });
    expect(refs.map((r) => r.ref)).toEqual(['alias:src/a.py', '@project:b.md']);
  });
});
