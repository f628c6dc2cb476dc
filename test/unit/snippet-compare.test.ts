import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compareSnippet, findSnippetRun, isElisionLine } from '../../src/core/snippets/compare-snippet.js';

const CODE = ['enum RemoteType: String, Codable {', '    case none = "None"', '    case trc = "Trio Remote Control"', '    case loopAPNS = "Loop APNS"', '}'];

describe('elision lines, in every comment style', () => {
  it.each([
    ['...', true],
    ['…', true],
    ['// ...', true],
    ['//...', true],
    ['# … 40 more lines', true],
    ['-- ...', true],
    ['; ...', true],
    ['% ...', true],
    ['%% ...', true],
    ["' ...", true],
    ['/* ... */', true],
    ['<!-- ... -->', true],
    ['* ...', true],
    ['... (rest of the handler)', true],
    ['...args', false],
    ['foo(...)', false],
    ['// 1. Check global snooze', false],
    ['return ...;', false],
  ])('%s -> %s', (line, expected) => {
    expect(isElisionLine(line)).toBe(expected);
  });
});

describe('compareSnippet: the three verdicts', () => {
  it.each<[string, string[], string[], { status: string; missing: number; missingLines?: string[]; snippetLines?: number }]>([
    ['the same lines', CODE, CODE, { status: 'verbatim', missing: 0, snippetLines: 5 }],
    ['re-indented', CODE.map((l) => l.trim()), CODE, { status: 'verbatim', missing: 0 }],
    ['indented deeper in a list item', CODE.map((l) => '      ' + l), CODE, { status: 'verbatim', missing: 0 }],
    ['blank lines on either side', ['', CODE[0]!, '', ...CODE.slice(1), ''], ['', ...CODE, '   '], { status: 'verbatim', missing: 0 }],
    ['CRLF code', CODE, CODE.map((l) => l + '\r'), { status: 'verbatim', missing: 0 }],
    ['CRLF snippet', CODE.map((l) => l + '\r'), CODE, { status: 'verbatim', missing: 0 }],
    ['an elision line', [CODE[0]!, '    // ...', CODE[4]!], CODE, { status: 'excerpt', missing: 0, snippetLines: 2 }],
    ['an ellipsis line with words', [CODE[0]!, '# … 3 more cases', CODE[4]!], CODE, { status: 'excerpt', missing: 0 }],
    ['lines left out without a marker', [CODE[0]!, CODE[2]!], CODE, { status: 'excerpt', missing: 0 }],
    ['in-line ...', ['enum RemoteType: ... {', 'case none = ...', '}'], CODE, { status: 'excerpt', missing: 0 }],
    ['in-line …', ['enum RemoteType: String, …', 'case trc = "Trio…"'], CODE, { status: 'excerpt', missing: 0 }],
    ['in-line ... that matches nothing', ['case none = ...', 'case nightscout = ...'], CODE, { status: 'stale', missing: 1, missingLines: ['case nightscout = ...'] }],
    [
      'a removed case',
      [CODE[0]!, CODE[1]!, '    case nightscout = "Nightscout"', CODE[2]!, CODE[3]!, CODE[4]!],
      CODE,
      { status: 'stale', missing: 1, missingLines: ['case nightscout = "Nightscout"'], snippetLines: 6 },
    ],
    [
      'a paraphrase: four invented lines, three quoted',
      ['// 1. Check global snooze', 'if snoozed { return }', '// 2. Check the alarm', 'fire()', '}'],
      CODE,
      { status: 'stale', missing: 4, missingLines: ['// 1. Check global snooze', 'if snoozed { return }', '// 2. Check the alarm'] },
    ],
    ['every line present, in another order', [CODE[2]!, CODE[1]!], CODE, { status: 'stale', missing: 0 }],
    ['an empty snippet', [], CODE, { status: 'excerpt', missing: 0, snippetLines: 0 }],
    ['an empty snippet of an empty range', [], [], { status: 'verbatim', missing: 0 }],
    ['a snippet of nothing', ['x'], [], { status: 'stale', missing: 1, missingLines: ['x'] }],
  ])('%s', (_name, snippet, code, expected) => {
    expect(compareSnippet(snippet, code)).toMatchObject(expected);
  });

  it('the same line twice in the snippet needs it twice in the code to be in order', () => {
    expect(compareSnippet(['}', '}'], ['{', '}']).status).toBe('stale');
    expect(compareSnippet(['}', '}'], ['{', '}', '}']).status).toBe('excerpt');
  });
});

describe('findSnippetRun: where a stale snippet now is', () => {
  const file = ['import x', '', 'func a() {', '  one()', '', '  two()', '}', 'func b() {', '  three()', '}'];
  it.each<[string, string[], { start: number; end: number } | null]>([
    ['found once, blank lines aside', ['func a() {', 'one()', 'two()', '}'], { start: 3, end: 7 }],
    ['found twice: ambiguous', ['}'], null],
    ['absent', ['func c() {'], null],
    ['elided: no exact run', ['func a() {', '...', '}'], null],
    ['a ... inside a line: no exact run', ['func a() { ... }'], null],
    ['empty', [], null],
  ])('%s', (_name, snippet, expected) => {
    expect(findSnippetRun(snippet, file)).toEqual(expected);
  });

  it('stays linear on repetitive text (no quadratic rescans)', () => {
    const lines = Array.from({ length: 200_000 }, () => 'a');
    const snippet = [...Array.from({ length: 5_000 }, () => 'a'), 'b'];
    const before = process.cpuUsage();
    expect(findSnippetRun(snippet, lines)).toBeNull();
    const used = process.cpuUsage(before);
    // A quadratic scan is 10^9 comparisons (tens of seconds); KMP is 4*10^5.
    expect((used.user + used.system) / 1000).toBeLessThan(5000);
  });
});

describe('properties', () => {
  const line = fc.stringMatching(/^[ -~]{0,30}$/);
  it('a snippet is verbatim with its own code, however re-indented', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.nat(8), (code, indent) => {
        const snippet = code.map((l) => ' '.repeat(indent) + l.trim());
        const elided = snippet.some((l) => l.includes('...') || l.includes('…'));
        const verdict = compareSnippet(snippet, code);
        if (elided) expect(verdict.status).not.toBe('stale');
        else expect(verdict.status).toBe('verbatim');
      }),
    );
  });
  it('any subsequence of the code is at least an excerpt', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 30 }), fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }), (code, keep) => {
        const snippet = code.filter((_, i) => keep[i]);
        expect(compareSnippet(snippet, code).status).not.toBe('stale');
      }),
    );
  });
});

describe('code that holds ... itself', () => {
  it('an exact copy is verbatim, even when its lines hold ... or are ...', () => {
    const code = ['def stub():', '    ...', 'print("Checking with John...")'];
    expect(compareSnippet(code, code).status).toBe('verbatim');
  });
});
