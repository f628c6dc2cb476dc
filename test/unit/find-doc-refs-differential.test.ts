import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DocRef, findDocRefs, PLACEHOLDER_ALIASES, refsInLine, type ScanOptions } from '../../src/core/doc-refs/find-doc-refs.js';
import { findDocRefsBefore } from '../helpers/find-doc-refs-before.js';

// The single-pass scanner against the per-line regex scanner it replaced (test/helpers/find-doc-refs-before.ts):
// the same refs on docs full of look-alikes. The only differences allowed are the alias rules added
// since (docs/reference.md#what-verify-refs-counts-as-a-ref): placeholder aliases are not refs, and an
// unknown alias with a selector is one.

/** Pieces real docs are made of: refs, near-refs, look-alikes and markdown structure. */
const PIECES = [
  'See `@src/app.py#L10-L20` for the handler.',
  'The mapping lives in loop:Sources/A.swift#L3-L9, compare @lib/x.js.',
  '[guide](@docs/GUIDE.md#install) and **@bold.md** and _@em.md_',
  'https://github.com/org/repo/blob/main/a.md#L10 and http://x.io/@user/b.py',
  'mail dev@example.com or <ops@example.org>, mailto:team@site.io',
  'x@y.com@a.md and a@b.c.loop:x/y.md',
  '@param name the name, @returns the value, @dataclass, @app.route("/api")',
  'npm i @types/node@20, left-pad@1.3.0, actions/checkout@v4, @1.2.3',
  'localhost:8080/index.html, redis:6379, 127.0.0.1:80, db.example.com:5432/x.sql',
  'HH:mm:ss (12:30:45), key:value.txt, name:app.py, app.py:120',
  'C:\\Users\\me\\notes.txt and D:/data/x.csv and git show HEAD:src/gone.py',
  '@path/to/file.py and loop:path/to/x.swift and @path/x.py#L1 and @src/.../x.py',
  '@file.py#L10 @foo.ts @example.md and `alias:example/path.md`, project:a/b.md, extract:x.md#L2',
  '| `@a.md` | crm:lib/server.js#L5 | note:foo.txt#L3 | trio:README.md |',
  'pattern @a.py#/def main/:+3 and `@a.py#/def main/:function` and @b.py#/unclosed here/ end',
  'window @a.py#L50:-10.. and @a.py#L50:..+20; end of sentence @a.md.',
  'foo:/x=loop:a/b.md and @a.md*@b.md and a:b=c:d/x.md and 1_bar:x/y.md',
  'std::vector and a::b/c.h and x.y:z/w.md and @a::b.md and @loop:Sources/A.swift',
  'std::vector and @loop:Sources/A.swift#a and @docs/GUIDE.md#install and @a.swift#L~1',
  '\u00a0@nbsp.md\u3000loop:wide/space.md and caf\u00e9:x/y.md',
  '<!-- verify-refs: off -->',
  '<!-- verify-refs: on -->',
  '```bash',
  '```',
  '~~~~',
  '   ~~~',
  '    ```',
  '// alias:path#L1-L9',
  '- item with @list.md',
  '> quoted @quote.md and > loop:q/x.swift',
  '',
];
const CHARS = [...'@:/#.-_ aLx1`*\'"()[]|,;=~>\\\t\r', 'md', 'py', 'loop', 'crm', 'http://', 'mailto:'];

const line = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PIECES) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...CHARS, ...PIECES), { maxLength: 12 }).map((xs) => xs.join('')) },
);
const doc = fc.array(line, { maxLength: 40 }).map((lines) => lines.join('\n'));

const known = new Set(['loop', 'crm', 'trio']);
const show = (refs: DocRef[]) => refs.map((r) => `${r.line} ${r.text} -> ${r.ref}`);
/** Refs the alias rules now decide otherwise, whatever the scanner. */
const aliasOf = (text: string) => /^@?([A-Za-z][A-Za-z0-9_-]*):(?![/\\])/.exec(text)?.[1];
const placeholder = (r: DocRef, isKnown: (n: string) => boolean) => {
  const alias = aliasOf(r.text);
  return alias !== undefined && PLACEHOLDER_ALIASES.has(alias) && !isKnown(alias);
};

describe('findDocRefs: the single-pass scanner finds what the per-line regex scanner found', () => {
  it.each<[string, (n: string) => boolean]>([
    ['every alias defined', () => true],
    ['no alias defined', () => false],
    ['some aliases defined', (n) => known.has(n)],
  ])('on the corpus, %s', (_name, isKnownAlias) => {
    for (const markdown of [true, false]) {
      const options: ScanOptions = { markdown, isKnownAlias };
      const text = PIECES.join('\n');
      const expected = findDocRefsBefore(text, options).filter((r) => !placeholder(r, isKnownAlias));
      const actual = findDocRefs(text, options);
      expect(show(actual.filter((r) => !addedBySelector(r, isKnownAlias) && !addedByRevision(r, isKnownAlias)))).toEqual(show(expected));
    }
  });

  it("on this repository's own docs and fixtures", () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const docs = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) return e.name === 'node_modules' ? [] : docs(p);
        return /\.(md|txt|ya?ml)$/.test(e.name) ? [p] : [];
      });
    const files = [...docs(path.join(root, 'docs')), ...docs(path.join(root, 'fixtures')), path.join(root, 'README.md'), path.join(root, 'CONTRIBUTING.md')];
    let refs = 0;
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      const isKnownAlias = (n: string) => known.has(n);
      const options: ScanOptions = { markdown: !/\.ya?ml$/.test(file), isKnownAlias };
      const expected = findDocRefsBefore(text, options).filter((r) => !placeholder(r, isKnownAlias));
      const actual = findDocRefs(text, options).filter((r) => !addedBySelector(r, isKnownAlias) && !addedByRevision(r, isKnownAlias));
      expect(show(actual), file).toEqual(show(expected));
      refs += actual.length;
    }
    expect(refs).toBeGreaterThan(20);
  });

  it('a ref the old scanner found inside a revision ref is part of it now', () => {
    const text = 'x@y.com@a.md and a@b.c.loop:x/y.mdx@y.com@a.md and a@b.c.loop:x/y.md\n';
    const options: ScanOptions = { markdown: false, isKnownAlias: () => true };
    const found = findDocRefs(text, options);
    expect(found.filter((r) => addedByRevision(r, () => true)).map((r) => r.text)).toEqual(['a@b.c.loop:x/y.mdx@y.com@a.md', 'a@b.c.loop:x/y.md']);
    expect(show(found.filter((r) => !addedByRevision(r, () => true)))).toEqual(show(insideRevision(findDocRefsBefore(text, options), found, () => true)));
  });

  it('on generated docs (property)', () => {
    fc.assert(
      fc.property(doc, fc.boolean(), fc.constantFrom('all', 'none', 'some'), (text, markdown, which) => {
        const isKnownAlias = which === 'all' ? () => true : which === 'none' ? () => false : (n: string) => known.has(n);
        const options: ScanOptions = { markdown, isKnownAlias };
        const found = findDocRefs(text, options);
        const expected = insideRevision(findDocRefsBefore(text, options).filter((r) => !placeholder(r, isKnownAlias)), found, isKnownAlias);
        const actual = found.filter((r) => !addedBySelector(r, isKnownAlias) && !addedByRevision(r, isKnownAlias));
        expect(show(actual)).toEqual(show(expected));
      }),
      { numRuns: 600 },
    );
  });

  it('refsInLine gives each ref of a line with its column', () => {
    const options: ScanOptions = { markdown: true, isKnownAlias: (n) => known.has(n) };
    const text = 'See `@src/app.py#L10-L20` and loop:Sources/A.swift, not dev@example.com @b.md';
    const refs = refsInLine(text, options);
    expect(refs).toEqual([
      { text: '@src/app.py#L10-L20', ref: '@src/app.py#L10-L20', at: 5 },
      { text: 'loop:Sources/A.swift', ref: 'loop:Sources/A.swift', at: 30 },
      { text: '@b.md', ref: '@b.md', at: 72 },
    ]);
    for (const r of refs) expect(text.slice(r.at, r.at + r.text.length)).toBe(r.text);
  });
});

/** A revision ref through a known alias or `.` (docs/refs.md#revision-refs): not a ref to the old scanner. */
/**
 * The old scanner's refs that lie inside a revision ref of the same line (`a@rev:x.md@y.com@a.md`
 * holds `@a.md`): the revision ref takes the whole run of path characters now.
 */
function insideRevision(expected: DocRef[], actual: DocRef[], isKnown: (n: string) => boolean): DocRef[] {
  // As many of a line's refs as its revision refs hold copies of (DocRef has no column).
  const key = (line: number, text: string) => `${line}\0${text}`;
  const held = new Map<string, number>();
  const texts = new Set(expected.map((e) => key(e.line, e.text)));
  for (const r of actual.filter((a) => addedByRevision(a, isKnown))) {
    for (const k of texts) {
      const [line, text] = k.split('\0') as [string, string];
      if (Number(line) !== r.line || text === r.text) continue;
      held.set(k, (held.get(k) ?? 0) + r.text.split(text).length - 1);
    }
  }
  return expected.filter((e) => {
    const n = held.get(key(e.line, e.text)) ?? 0;
    if (n > 0) held.set(key(e.line, e.text), n - 1);
    return n === 0;
  });
}

function addedByRevision(r: DocRef, isKnown: (n: string) => boolean): boolean {
  const alias = /^([A-Za-z][\w-]*|\.)@[^:]*:/.exec(r.text)?.[1];
  return alias !== undefined && (alias === '.' || isKnown(alias));
}

/** An unknown alias without a folder, with a selector: not a ref to the old scanner. */
function addedBySelector(r: DocRef, isKnown: (n: string) => boolean): boolean {
  const alias = /^([A-Za-z][A-Za-z0-9_-]*):/.exec(r.text)?.[1];
  if (alias === undefined || isKnown(alias)) return false;
  const hash = r.text.indexOf('#');
  return hash !== -1 && !r.text.slice(0, hash).includes('/') && /^(?:L\d|L-|\/)/.test(r.text.slice(hash + 1));
}
