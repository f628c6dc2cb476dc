import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatRef } from '../../src/core/ref-spec/format-ref-spec.js';
import { parseRef } from '../../src/core/ref-spec/parse-ref-spec.js';
import type { RefSpec } from '../../src/core/ref-spec/ref-spec.js';
import { RefParseError } from '../../src/shared/errors.js';

type Expected = Omit<RefSpec, 'raw'>;
const range = (start: number, end: number | null, window: { before: number; after: number | null } | null = null) => ({
  kind: 'range' as const,
  start,
  end,
  window,
});

const symbol = (path: string, index: number | null = null, window: { before: number; after: number | null } | null = null) => ({
  kind: 'symbol' as const,
  path,
  index,
  window,
});

// Every form of docs/reference.md#ref-specs grammar: input, parsed form, canonical format.
const valid: [string, Expected, string][] = [
  // Refs by name (docs/symbols.md): a range is `L` then a digit or `-`; `/` a pattern; else a name.
  ['@src/app.ts#parseRef', { alias: null, path: 'src/app.ts', selector: symbol('parseRef') }, '@src/app.ts#parseRef'],
  ['@a.ts#Store.save', { alias: null, path: 'a.ts', selector: symbol('Store.save') }, '@a.ts#Store.save'],
  ['@a.rs#Store::save', { alias: null, path: 'a.rs', selector: symbol('Store.save') }, '@a.rs#Store.save'],
  ['@app.py#Store.save~2', { alias: null, path: 'app.py', selector: symbol('Store.save', 2) }, '@app.py#Store.save~2'],
  ['@a.swift#Loop', { alias: null, path: 'a.swift', selector: symbol('Loop') }, '@a.swift#Loop'],
  ['@a.swift#LoopDataManager', { alias: null, path: 'a.swift', selector: symbol('LoopDataManager') }, '@a.swift#LoopDataManager'],
  ['@f.py#Lx', { alias: null, path: 'f.py', selector: symbol('Lx') }, '@f.py#Lx'],
  ['@f.py#L~1', { alias: null, path: 'f.py', selector: symbol('L', 1) }, '@f.py#L~1'],
  ['@f.py#10', { alias: null, path: 'f.py', selector: symbol('10') }, '@f.py#10'],
  ['@a.rb#valid?', { alias: null, path: 'a.rb', selector: symbol('valid?') }, '@a.rb#valid?'],
  ['@a.rb#Store.save!', { alias: null, path: 'a.rb', selector: symbol('Store.save!') }, '@a.rb#Store.save!'],
  ['@a.js#$init_x', { alias: null, path: 'a.js', selector: symbol('$init_x') }, '@a.js#$init_x'],
  ['@a.kt#Größe', { alias: null, path: 'a.kt', selector: symbol('Größe') }, '@a.kt#Größe'],
  ['@a.ts#parseRef:-2..+2', { alias: null, path: 'a.ts', selector: symbol('parseRef', null, { before: 2, after: 2 }) }, '@a.ts#parseRef:-2..+2'],
  ['@a.ts#A.b~3:..+4', { alias: null, path: 'a.ts', selector: symbol('A.b', 3, { before: 0, after: 4 }) }, '@a.ts#A.b~3:-0..+4'],
  [
    'trio:Trio/Sources/APS/APSManager.swift#BaseAPSManager.loop',
    { alias: 'trio', path: 'Trio/Sources/APS/APSManager.swift', selector: symbol('BaseAPSManager.loop') },
    'trio:Trio/Sources/APS/APSManager.swift#BaseAPSManager.loop',
  ],
  // Refs at a version (docs/refs.md#refs-at-a-version).
  ['trio@v0.2.5:Trio/A.swift#L10-L20', { alias: 'trio', rev: 'v0.2.5', path: 'Trio/A.swift', selector: range(10, 20) }, 'trio@v0.2.5:Trio/A.swift#L10-L20'],
  ['loop@4319ce5:Loop/README.md', { alias: 'loop', rev: '4319ce5', path: 'Loop/README.md', selector: null }, 'loop@4319ce5:Loop/README.md'],
  ['.@HEAD~2:src/x.ts#L3', { alias: '.', rev: 'HEAD~2', path: 'src/x.ts', selector: range(3, 3) }, '.@HEAD~2:src/x.ts#L3'],
  ['@loop@release/1.x^2:@a.py', { alias: 'loop', rev: 'release/1.x^2', path: 'a.py', selector: null }, 'loop@release/1.x^2:a.py'],
  ['git@github.com:org/repo.git', { alias: 'git', rev: 'github.com', path: 'org/repo.git', selector: null }, 'git@github.com:org/repo.git'],
  ['.:x.py', { alias: null, path: '.:x.py', selector: null }, '@.:x.py'],
  ['@src/app.py', { alias: null, path: 'src/app.py', selector: null }, '@src/app.py'],
  ['src/app.py', { alias: null, path: 'src/app.py', selector: null }, '@src/app.py'],
  ['@src/app.py#L10-L50', { alias: null, path: 'src/app.py', selector: range(10, 50) }, '@src/app.py#L10-L50'],
  ['@src/app.py#L10-50', { alias: null, path: 'src/app.py', selector: range(10, 50) }, '@src/app.py#L10-L50'],
  ['@f.py#L10', { alias: null, path: 'f.py', selector: range(10, 10) }, '@f.py#L10'],
  ['@f.py#L10-L10', { alias: null, path: 'f.py', selector: range(10, 10) }, '@f.py#L10'],
  ['@f.py#L10-', { alias: null, path: 'f.py', selector: range(10, null) }, '@f.py#L10-'],
  ['@f.py#L-50', { alias: null, path: 'f.py', selector: range(1, 50) }, '@f.py#L1-L50'],
  ['@f.py#L-L50', { alias: null, path: 'f.py', selector: range(1, 50) }, '@f.py#L1-L50'],
  ['@f.py#L50:-5..+10', { alias: null, path: 'f.py', selector: range(50, 50, { before: 5, after: 10 }) }, '@f.py#L50:-5..+10'],
  ['@f.py#L50:5..10', { alias: null, path: 'f.py', selector: range(50, 50, { before: 5, after: 10 }) }, '@f.py#L50:-5..+10'],
  ['@f.py#L50:+5..-10', { alias: null, path: 'f.py', selector: range(50, 50, { before: 5, after: 10 }) }, '@f.py#L50:-5..+10'],
  ['@f.py#L50:-10..', { alias: null, path: 'f.py', selector: range(50, 50, { before: 10, after: null }) }, '@f.py#L50:-10..'],
  ['@f.py#L50:..+20', { alias: null, path: 'f.py', selector: range(50, 50, { before: 0, after: 20 }) }, '@f.py#L50:-0..+20'],
  ['@f.py#L10-L20:-2..+3', { alias: null, path: 'f.py', selector: range(10, 20, { before: 2, after: 3 }) }, '@f.py#L10-L20:-2..+3'],
  [
    '@f.py#/def main/',
    { alias: null, path: 'f.py', selector: { kind: 'pattern', source: 'def main', extent: { kind: 'paragraph' } } },
    '@f.py#/def main/',
  ],
  [
    '@f.py#/class Foo/:+50',
    { alias: null, path: 'f.py', selector: { kind: 'pattern', source: 'class Foo', extent: { kind: 'lines', count: 50 } } },
    '@f.py#/class Foo/:+50',
  ],
  [
    '@f.py#/x/:-3..+4',
    {
      alias: null,
      path: 'f.py',
      selector: { kind: 'pattern', source: 'x', extent: { kind: 'window', window: { before: 3, after: 4 } } },
    },
    '@f.py#/x/:-3..+4',
  ],
  [
    '@f.py#/x/:..+4',
    {
      alias: null,
      path: 'f.py',
      selector: { kind: 'pattern', source: 'x', extent: { kind: 'window', window: { before: 0, after: 4 } } },
    },
    '@f.py#/x/:-0..+4',
  ],
  [
    '@f.py#/def.*/:function',
    { alias: null, path: 'f.py', selector: { kind: 'pattern', source: 'def.*', extent: { kind: 'semantic', unit: 'function' } } },
    '@f.py#/def.*/:function',
  ],
  [
    '@f.py#/Foo/:class',
    { alias: null, path: 'f.py', selector: { kind: 'pattern', source: 'Foo', extent: { kind: 'semantic', unit: 'class' } } },
    '@f.py#/Foo/:class',
  ],
  [
    '@f.py#/if x/:block',
    { alias: null, path: 'f.py', selector: { kind: 'pattern', source: 'if x', extent: { kind: 'semantic', unit: 'block' } } },
    '@f.py#/if x/:block',
  ],
  [
    '@f.ts#/a\\/b/',
    { alias: null, path: 'f.ts', selector: { kind: 'pattern', source: 'a\\/b', extent: { kind: 'paragraph' } } },
    '@f.ts#/a\\/b/',
  ],
  [
    '@f.ts#/[/]x/',
    { alias: null, path: 'f.ts', selector: { kind: 'pattern', source: '[/]x', extent: { kind: 'paragraph' } } },
    '@f.ts#/[/]x/',
  ],
  [
    '@f.md#/^#\sTitle#1/',
    { alias: null, path: 'f.md', selector: { kind: 'pattern', source: '^#\sTitle#1', extent: { kind: 'paragraph' } } },
    '@f.md#/^#\sTitle#1/',
  ],
  [
    'loop:Sources/A.swift#L3-L9',
    { alias: 'loop', path: 'Sources/A.swift', selector: range(3, 9) },
    'loop:Sources/A.swift#L3-L9',
  ],
  ['loop:@Sources/A.swift', { alias: 'loop', path: 'Sources/A.swift', selector: null }, 'loop:Sources/A.swift'],
  ['@loop:Sources/A.swift#L3', { alias: 'loop', path: 'Sources/A.swift', selector: range(3, 3) }, 'loop:Sources/A.swift#L3'],
  ['my_repo-2:x.c', { alias: 'my_repo-2', path: 'x.c', selector: null }, 'my_repo-2:x.c'],
  ['C:/Users/me/a.py#L1', { alias: null, path: 'C:/Users/me/a.py', selector: range(1, 1) }, '@C:/Users/me/a.py#L1'],
  ['@C:\\src\\a.py', { alias: null, path: 'C:\\src\\a.py', selector: null }, '@C:\\src\\a.py'],
  ['@/abs/path/a.py#L2-L3', { alias: null, path: '/abs/path/a.py', selector: range(2, 3) }, '@/abs/path/a.py#L2-L3'],
  ['@src/**/*.ts#L1', { alias: null, path: 'src/**/*.ts', selector: range(1, 1) }, '@src/**/*.ts#L1'],
  ['@a@b.txt', { alias: null, path: 'a@b.txt', selector: null }, '@a@b.txt'],
  ['@./note:1.txt#L2', { alias: null, path: './note:1.txt', selector: range(2, 2) }, '@./note:1.txt#L2'],
];

describe('parseRef: valid refs', () => {
  it.each(valid)('%s', (input, expected, canonical) => {
    const parsed = parseRef(input);
    expect(parsed).toEqual({ raw: input, ...expected });
    expect(formatRef(parsed)).toBe(canonical);
    // Round trip: the canonical form parses to the same selection.
    const again = parseRef(canonical);
    expect({ ...again, raw: input }).toEqual(parsed);
  });
});

// Every error names its reason.
const invalid: [string, string][] = [
  ['', 'empty ref'],
  ['@', 'empty path'],
  ['@#L1', 'empty path'],
  ['loop:', "no path after alias 'loop:'"],
  ['@@x.py', "more than one '@'"],
  ['loop@-x:a.py', "the revision '-x' begins with '-'"],
  ['loop@--output=f:a.py', "the revision '--output=f' begins with '-'"],
  ['loop@stash@{0}:a.py', "the revision 'stash@{0}' is a reflog entry ('@{'), not a branch, tag or commit"],
  ['.@:a.py', "an empty revision after '@'"],
  ['loop@a..b:a.py', "the revision 'a..b' is no branch, tag or commit name"],
  ['loop@HEAD^{tree}:a.py', "the revision 'HEAD^{tree}' holds characters a branch, tag or commit name does not (letters, digits, . _ / -, then ~N or ^N)"],
  ['@a b.py', 'whitespace inside the ref'],
  ['@f.py#L1 -L2', 'whitespace inside the ref'],
  ['@f.py#/a b/ :+3', 'whitespace inside the ref'],
  ['@f.py#/a b', 'whitespace inside the ref'],
  ['@f.py#', "empty selector after '#'"],
  ['@f.py#L', "a line range needs a number after 'L' (L10); a declaration named L is L~1"],
  ['@f.py#L:+3', "a line range needs a number after 'L' (L10); a declaration named L is L~1"],
  ['@f.py#a-b', "selector must be a line range (L10), a pattern (/re/) or a symbol name (Class.method), got 'a-b'"],
  ['@f.py#install-guide', "selector must be a line range (L10), a pattern (/re/) or a symbol name (Class.method), got 'install-guide'"],
  ['@f.py#Store.', "selector must be a line range (L10), a pattern (/re/) or a symbol name (Class.method), got 'Store.'"],
  ['@f.py#.save', "selector must be a line range (L10), a pattern (/re/) or a symbol name (Class.method), got '.save'"],
  ['@f.py#a~', "selector must be a line range (L10), a pattern (/re/) or a symbol name (Class.method), got 'a~'"],
  ['@f.py#a~0', '~N counts from 1: ~1 is the first declaration'],
  ['@f.py#a:+5', "bad relative window ':+5' (expected :-5..+10, :-10.. or :..+20)"],
  ['@f.py#a:function', "bad relative window ':function' (expected :-5..+10, :-10.. or :..+20)"],
  ['@f.py#L0', 'line numbers start at 1; L0 is not a line'],
  ['@f.py#L0-L5', 'line numbers start at 1; L0 is not a line'],
  ['@f.py#L5-L0', 'line numbers start at 1; L0 is not a line'],
  ['@f.py#L20-L10', 'start line 20 is after end line 10'],
  ['@f.py#L10-L', "bad line range 'L10-L' (expected L10, L10-L20, L10-, or L-20)"],
  ['@f.py#L-', "bad line range 'L-' (expected L10, L10-L20, L10-, or L-20)"],
  ['@f.py#L1-L2-L3', "bad line range 'L1-L2-L3' (expected L10, L10-L20, L10-, or L-20)"],
  ['@f.py#L10:+5', "':+5' applies to patterns; around a line range write ':..+5'"],
  ['@f.py#L10:..', "bad relative window ':..' (expected :-5..+10, :-10.. or :..+20)"],
  ['@f.py#L10:5', "bad relative window ':5' (expected :-5..+10, :-10.. or :..+20)"],
  ['@f.py#L10:block', "bad relative window ':block' (expected :-5..+10, :-10.. or :..+20)"],
  ['@f.py#//', 'empty pattern'],
  ['@f.py#/abc', "pattern has no closing '/'"],
  ['@f.py#/(/', 'invalid regex /(/: Unterminated group'],
  ['@f.py#/a/i', "unexpected 'i' after the pattern (write a '/' inside it as '\\/')"],
  ['@f.py#/a/:func', "bad pattern suffix ':func' (expected :+N, :-B..+A, :block, :function or :class)"],
  ['@f.py#/a/:+x', "bad pattern suffix ':+x' (expected :+N, :-B..+A, :block, :function or :class)"],
  ['@f.py#L99999999999999999999', 'line number 99999999999999999999 is too large'],
];

describe('parseRef: errors', () => {
  it.each(invalid)('%j', (input, reason) => {
    let error: unknown;
    try {
      parseRef(input);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(RefParseError);
    const e = error as RefParseError;
    expect(e.reason).toBe(reason);
    expect(e.message).toBe(`Cannot parse ref: ${input} (${reason})`);
    expect(e.exitCode).toBe(2);
    expect(e.code).toBe('invalid_ref');
  });
});

describe('formatRef with a concrete span', () => {
  it.each([
    [{ alias: null, path: 'a.py', selector: null }, undefined, '@a.py'],
    [{ alias: null, path: 'a.py', selector: null }, { start: 5, end: 5 }, '@a.py#L5'],
    [{ alias: null, path: 'a.py', selector: null }, { start: 10, end: 20 }, '@a.py#L10-L20'],
    [{ alias: 'loop', path: 'Sources/A.swift', selector: null }, { start: 3, end: 9 }, 'loop:Sources/A.swift#L3-L9'],
    [{ alias: null, path: 'note:1.txt', selector: null }, { start: 1, end: 1 }, '@./note:1.txt#L1'],
    [{ alias: null, path: 'C:/x.txt', selector: null }, undefined, '@C:/x.txt'],
  ] as const)('%j %j -> %s', (ref, span, out) => {
    expect(formatRef(ref, span)).toBe(out);
  });
});

describe('paths holding #, % or whitespace', () => {
  it.each([
    ['txt/hash#name.txt', '@txt/hash%23name.txt'],
    ['txt/space name.txt', '@txt/space%20name.txt'],
    ['tab\there.txt', '@tab%09here.txt'],
    ['100%.txt', '@100%.txt'],
    ['a%20b.txt', '@a%2520b.txt'],
    ['%C3%A9.txt', '@%25C3%25A9.txt'],
  ])('%j prints as %s and parses back', (path, printed) => {
    expect(formatRef({ alias: null, path, selector: null })).toBe(printed);
    expect(parseRef(printed).path).toBe(path);
  });

  it.each([
    ['@a%41.txt', 'a%41.txt'],
    ['@%C3%A9.txt', '%C3%A9.txt'],
    ['@100%', '100%'],
  ])('a %% sequence that is no escape of ours stays in the name: %s', (ref, path) => {
    expect(parseRef(ref).path).toBe(path);
  });

  it('every printed spec parses back to the same path, alias and lines', () => {
    const pathChar = fc.constantFrom('a', 'Z', '/', '.', '#', ' ', '\t', '%', '2', '3', '5', 'C', 'é', '\u00a0', '-', ':');
    fc.assert(
      fc.property(
        fc.array(pathChar, { minLength: 1, maxLength: 12 }).map((cs) => cs.join('')),
        fc.option(fc.constantFrom('loop', 'crm'), { nil: null }),
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 0, max: 20 }),
        (path, alias, start, len) => {
          fc.pre(!path.startsWith('@') && !/^\s/.test(path));
          const printed = formatRef({ alias, path, selector: null }, { start, end: start + len });
          const back = parseRef(printed);
          expect(back.alias).toBe(alias);
          expect(back.path.replace(/^\.\//, '')).toBe(path.replace(/^\.\//, ''));
          expect(formatRef(back)).toBe(printed);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
