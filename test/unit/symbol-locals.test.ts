import { describe, expect, it } from 'vitest';
import { declarationsOfText } from '../../src/core/symbols/declaration-table.js';
import { SYMBOL_LANGUAGES } from '../../src/core/symbols/languages.js';

/**
 * Variables declared in a body without a name (a callback, a closure, a computed property's
 * accessors) are locals, as those of a named function are: not declarations a ref names. A
 * function or type declared there still is (the differential test found these on real source:
 * CONTRIBUTING.md#the-differential-test).
 */
const CASES: [string, string, string[]][] = [
  [
    'typescript',
    [
      "test('aborts', async t => {",
      '  const request = got(url);',
      '  function helper() { const inner = 1; }',
      '});',
      'const handler = function () { let count = 0; };',
      'class A {',
      '  onEvent = () => { const local = 1; };',
      '}',
      'const TOP = 1;',
      'class B {',
      '  get url() { const text = this.u; return text; }',
      '  set url(v) { const parsed = v; this.u = parsed; }',
      '}',
    ].join('\n'),
    ['helper function 3-3', 'handler function 5-5', 'A class 6-8', 'A.onEvent field 7-7', 'TOP constant 9-9', 'B class 10-13', 'B.url property 11-12'],
  ],
  [
    'javascript',
    "describe('x', () => {\n  const a = 1;\n  const make = () => 2;\n});\nmodule.exports.f = function () { var local = 1; };\n",
    ['make function 3-3', 'f function 5-5'],
  ],
  [
    'swift',
    [
      'struct S {',
      '  var total: Int {',
      '    let items = [1, 2]',
      '    return items.count',
      '  }',
      '  let sorted = { () -> Int in',
      '    let x = 1',
      '    return x',
      '  }()',
      '}',
    ].join('\n'),
    ['S struct 1-10', 'S.total property 2-5', 'S.sorted property 6-9'],
  ],
];

describe('locals of bodies without a name', () => {
  for (const [id, text, expected] of CASES) {
    it(id, async () => {
      const language = SYMBOL_LANGUAGES.find((l) => l.id === id)!;
      const table = await declarationsOfText(text, language);
      expect(table.map((d) => `${d.path} ${d.kind} ${d.startLine}-${d.endLine}`)).toEqual(expected);
    });
  }
});

describe('a Swift extension of a qualified type', () => {
  it('extends the last name: `extension Foundation.Date` adds to Date', async () => {
    const language = SYMBOL_LANGUAGES.find((l) => l.id === 'swift')!;
    const table = await declarationsOfText('extension Foundation.Date {\n  func stamp() {}\n}\n', language);
    expect(table.map((d) => `${d.path} ${d.kind} ${d.startLine}-${d.endLine}`)).toEqual(['Date extension 1-3', 'Date.stamp method 2-2']);
  });
});
