import { describe, expect, it } from 'vitest';
import { compilePattern } from '../../src/core/ref-spec/pattern-syntax.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

// pattern, lines it must match, lines it must not match
const table: [string, string[], string[]][] = [
  // Python inline flags at the start
  ['(?i)DEF FOO', ['def foo():', 'Def Foo'], ['def bar']],
  ['(?im)^class', ['CLASS A'], ['  class A']],
  ['(?s)a.b', ['a-b'], ['ab']],
  ['(?x) def \\s+ foo  # a comment', ['def   foo'], ['deffoo']],
  // Python group syntax
  ['(?P<name>\\w+) = (?P=name)', ['x = x', 'été = été'], ['x = y']],
  ['foo(?#why)bar', ['foobar'], ['foo(?#why)bar']],
  ['\\Afoo\\Z', ['foo'], ['foo bar']],
  // Unicode-aware, as Python 3 matches str patterns
  ['caf\\w', ['café', 'cafe'], ['caf!']],
  ['emoji . rocket', ['emoji 🚀 rocket'], ['emoji  rocket']],
  ['\\bnaïve\\b', ['a naïve idea'], ['naïvely']],
  ['^\\d+$', ['123', '١٢٣'], ['12a']],
  ['[\\w-]+\\.py', ['my-mod.py', 'módulo.py'], ['.py']],
  ['(?a)caf\\w', ['cafe'], ['café']],
  // braces and escaped punctuation are characters where they are no quantifier
  ['function foo\\(\\) {', ['function foo() {'], ['function foo()']],
  ['a{2}b', ['aab'], ['ab']],
  ['x{,2}y', ['y', 'xxy'], []],
  ['\\#\\ \\-x', ['# -x'], ['#-x']],
  ['[]a]', [']', 'a'], ['b']],
  // plain JavaScript still works
  ['(?<=export )function', ['export function f'], ['function f']],
  ['\\p{Lu}{2}', ['AB'], ['ab']],
  ['(?<n>a)\\k<n>', ['aa'], ['ab']],
  ['\\cJ|\\x41', ['A'], ['B']],
];

describe('pattern dialect: JavaScript, read as Python patterns mean it', () => {
  it.each(table)('/%s/', (source, yes, no) => {
    const re = compilePattern(source);
    for (const line of yes) expect(re.test(line), `${line} should match`).toBe(true);
    for (const line of no) expect(re.test(line), `${line} should not match`).toBe(false);
  });

  it.each(['(', '(?P<x>a', '[a', '(?Q)x'])('/%s/ is still an invalid regex', (source) => {
    expect(() => compilePattern(source)).toThrow();
  });

  it('finds what sdqctl finds in a file', async () => {
    const dir = tmpDir({ 'a.py': 'x = 1\n\nDEF FOO():\n    pass\n\ncafé = 2\n# emoji 🚀 rocket\n' });
    const r = await refcatInProcess(['-q', '@a.py#/(?i)def foo/:+1', '@a.py#/caf\\w/:+0', '@a.py#/emoji . rocket/:+0'], { cwd: dir });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe('DEF FOO():\n    pass\ncafé = 2\n# emoji 🚀 rocket\n');
  });
});
