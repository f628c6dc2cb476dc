import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { RefError } from '../../src/shared/errors.js';
import { compileGlob, segmentGlob } from '../../src/core/walk/glob-match.js';
import { globCaseArb, plainCaseArb } from '../helpers/glob-cases.js';

// Differential: the matcher against picomatch itself, whose reading of a glob is the contract.
describe('compileGlob agrees with picomatch', () => {
  it('on random globs and names (dot on and off, POSIX and Windows)', () => {
    fc.assert(
      fc.property(globCaseArb, ([glob, name, dot, windows]) => {
        const ours = compileGlob(glob, { dot, windows }).test(name);
        expect(ours, `${JSON.stringify(glob)} vs ${JSON.stringify(name)}`).toBe(picomatch(glob, { dot, windows })(name));
      }),
      { numRuns: 20_000 },
    );
  });

  it('on plain globs and relative paths', () => {
    fc.assert(
      fc.property(plainCaseArb, ([glob, name, dot]) => {
        const ours = compileGlob(glob, { dot, windows: false }).test(name);
        expect(ours, `${JSON.stringify(glob)} vs ${JSON.stringify(name)}`).toBe(picomatch(glob, { dot, windows: false })(name));
      }),
      { numRuns: 20_000 },
    );
  });

  it('segment by segment, on every plain path it decides (V8 runs the globs of one `*` a segment)', () => {
    fc.assert(
      fc.property(plainCaseArb, ([glob, name, dot]) => {
        const decided = segmentGlob(glob, dot)?.match(name);
        if (decided !== undefined) expect(decided, `${JSON.stringify(glob)} vs ${JSON.stringify(name)}`).toBe(picomatch(glob, { dot, windows: false })(name));
      }),
      { numRuns: 20_000 },
    );
  });

  it.each([
    ['**/*.ts', ['a.ts', 'src/a.ts', '.h.ts', 'src/.h/a.ts', 'a.ts/', '/a.ts', 'a.tsx']],
    ['a/**', ['a', 'a/', 'a/b/c', 'a/.b', 'ab']],
    ['a/**/b', ['a/b', 'a/x/b', 'a/x/y/b', 'a/.x/b', 'ab']],
    ['*/b', ['/b', 'x/b', '.x/b', 'x\n/b', '\n/b']],
    ['.*', ['.', '..', '.a', 'a']],
    ['!(b).ts', ['a.ts', 'b.ts', 'bb.ts', '.ts']],
    ['!*.md', ['a.md', 'a.txt', 'a\n.txt']],
    ['{src,lib}/**/*.{ts,js}', ['src/a.ts', 'lib/x/y.js', 'doc/a.ts']],
    ['[[:digit:]]*', ['1a', 'a1']],
    ['a\\b', ['a', 'ab', 'a\\b']],
    // Where picomatch's regex says more than the segments do.
    ['*.*', ['a.', 'a.b', '.a.b']],
    ['**/*.*', ['x/a.', 'x/a.b', 'a.b']],
    ['a*/**', ['ab', 'ab/c', 'a/c']],
    ['x/*/**', ['x/a', 'x/a/b']],
    ['x{a..b,c}', ['xa..b', 'xb', 'xc', 'x,']],
  ])('%s', (glob, names) => {
    for (const dot of [false, true]) {
      const m = compileGlob(glob, { dot, windows: false });
      for (const name of names) expect([glob, name, dot, m.test(name)]).toEqual([glob, name, dot, picomatch(glob, { dot, windows: false })(name)]);
    }
  });
});

describe('hostile globs take time polynomial in the name', () => {
  // Each of these backtracks exponentially in V8 (picomatch's own matcher) at these sizes: the
  // answers are known instead of asked of it.
  const a = (n: number) => 'a'.repeat(n);
  it.each([
    ['*a*a*a*a*a*a*a*ab*.txt', `${a(5000)}.txt`, false],
    ['*a*a*a*a*a*a*a*ab*.txt', `${a(5000)}b.txt`, true],
    ['{*a*a*a*a*a*a*a*ab*,x}.txt', `${a(5000)}.txt`, false],
    ['+(a|a*)b', a(5000), false],
    ['+(a|a*)b', `${a(5000)}b`, true],
    ['!(*a*a*a*a*a*ab*).txt', `${a(2000)}.txt`, true],
    ['**/a/**/a/**/a/**/a/**/a/**/b', `${'a/'.repeat(2000)}c`, false],
    ['**/a/**/a/**/a/**/a/**/a/**/b', `${'a/'.repeat(2000)}b`, true],
    ['?(a)'.repeat(250), a(250), true],
    ['?(a)'.repeat(250), a(251), false],
    // One `*` a segment: V8 runs these, a segment at a time.
    ['**/a*/a*/a*/a*/b', `${'a/'.repeat(2000)}c`, false],
    ['**/*a.txt', `${'a/'.repeat(2000)}${a(3000)}`, false],
  ])('%s', (glob, name, expected) => {
    for (const dot of [false, true]) expect(compileGlob(glob, { dot, windows: false }).test(name)).toBe(expected);
  });

  it('a backreference, left to V8, is stopped by its CPU budget with an error', () => {
    const glob = '((a|aa)+)+\\1b*.txt';
    const m = compileGlob(glob, { dot: false, windows: false });
    expect([m.test('aab.txt'), m.test('ab.txt')]).toEqual([true, false]);
    expect(() => m.test(`${a(40)}.txt`)).toThrow(new RefError('glob_timeout', `Glob ${glob} timed out after 1.5 s of CPU time`, glob));
  });
});
