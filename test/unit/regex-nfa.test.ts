import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { compileRegex } from '../../src/core/regex/regex-nfa.js';
import { GLOB_PARTS, globCaseArb, plainCaseArb } from '../helpers/glob-cases.js';

// Differential: the machine against V8 on the regexes picomatch makes of random globs.
describe('the regex machine agrees with V8', () => {
  it.each([
    ['random globs and names', globCaseArb.map(([glob, name, dot, windows]) => ({ glob, name, dot, windows }))],
    ['plain globs and relative paths', plainCaseArb.map(([glob, name, dot]) => ({ glob, name, dot, windows: false }))],
  ])('on the regexes of %s', (_name, cases) => {
    fc.assert(
      fc.property(cases, ({ glob, name, dot, windows }) => {
        const re = picomatch.makeRe(glob, { dot, windows });
        const compiled = compileRegex(re.source);
        if (compiled !== null) expect(compiled.test(name), `${re.source} vs ${JSON.stringify(name)}`).toBe(re.test(name));
      }),
      { numRuns: 10_000 },
    );
  });

  it.each([
    ['^(?:a|ab)(?:c|bcd)(?:d*)$', ['abcd', 'acd', 'abcdd', 'ab']],
    ['(?=a)\\w+\\b', ['a b', ' ab', 'ba']],
    ['^(?:(?!x).)*$', ['abc', 'axc', '']],
    ['^a{2,3}$', ['a', 'aa', 'aaa', 'aaaa']],
    ['^[]a]$', ['a', ']']],
    ['^[^]$', ['\n', 'a', '']],
    ['^(?:a?)*b$', ['b', 'aab', 'c']],
    ['x{1,', ['x{1,', 'x']],
    ['a\\B|\\bb', ['ab', 'a b', 'b']],
    ['(?<x>a)b', ['ab', 'b']],
  ])('%s', (source, inputs) => {
    const compiled = compileRegex(source)!;
    for (const s of inputs) expect([s, compiled.test(s)]).toEqual([s, new RegExp(source).test(s)]);
  });

  it('runs the regex of every glob part but a backreference, a lookbehind and a letter escape', () => {
    const left = GLOB_PARTS.filter((g) => compileRegex(picomatch.makeRe(g, { dot: false, windows: false }).source) === null);
    expect(left).toEqual(['\\a', '\\1', '(?<=a)']);
    expect(['^\\u$', '(?<=a)b', '(a)\\1', '^(?:a){101}$'].map(compileRegex)).toEqual([null, null, null, null]);
  });

  it('names one of the texts every match holds', () => {
    const needles = (glob: string) => compileRegex(picomatch.makeRe(glob, { dot: false }).source)!.needles;
    expect(['**/*.ts', '**/node_modules', '*.{ts,tsx}', '*', 'a*b'].map(needles)).toEqual([['.ts'], ['node_modules'], ['ts', 'tsx'], null, ['a']]);
  });
});

describe('hostile regexes take time polynomial in the string', () => {
  // V8 backtracks exponentially on each of these at these sizes: the answers are known instead.
  const a = (n: number) => 'a'.repeat(n);
  it.each([
    ['^(?:(?=.)(?:a|a[^/]*?)+b)$', a(5000), false],
    ['^(?:(?=.)(?:a|a[^/]*?)+b)$', `${a(5000)}b`, true],
    ['^(?:(?!\\.)(?=.)[^/]*?a[^/]*?a[^/]*?a[^/]*?a[^/]*?a[^/]*?ab[^/]*?\\.txt)$', `${a(5000)}.txt`, false],
    // Sets of 250 states: no cache, every state stepped at every position.
    [`^(?:${'(?:a)?'.repeat(250)})$`, a(250), true],
    [`^(?:${'(?:a)?'.repeat(250)})$`, a(251), false],
    [`^(?:${'(?:a)?'.repeat(250)})$`, `${a(100)}b`, false],
  ])('%s', (source, s, expected) => {
    expect(compileRegex(source)!.test(s)).toBe(expected);
  });
});
