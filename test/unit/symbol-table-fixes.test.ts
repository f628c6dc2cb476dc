import { describe, expect, it } from 'vitest';
import { declarationsOfText } from '../../src/core/symbols/declaration-table.js';
import { SYMBOL_LANGUAGES } from '../../src/core/symbols/languages.js';

/**
 * What the differential test found on real source (CONTRIBUTING.md#the-differential-test), fixed:
 * variables declared in a body without a name (a callback, a closure, a computed property's or an
 * accessor's body, a property's observers) are locals, as those of a named function are, while a
 * function or type declared there is still a declaration; a Swift extension of a qualified type
 * extends its last name; each spec of a Go group is a declaration of its own lines.
 */
const CASES: [string, string, string[]][] = [
  // A name written with `::` (C++'s nested namespace, Ruby's `class Foo::Bar`) is a dotted path.
  ['cpp', 'namespace a::b {\nint f(int);\n}\n', ['a.b module 1-3', 'a.b.f function 2-2']],
  ['ruby', 'class Foo::Bar\n  def run; end\nend\n', ['Foo.Bar class 1-3', 'Foo.Bar.run method 2-2']],
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
    'typescript',
    'interface I { opts: { a: string } }\nconst m = new Map<string, { size: number }>();\nclass C extends Array<{ z: 1 }> { f = 1 }\n',
    // An object type in a type argument declares nothing; one that types a property does.
    ['I interface 1-1', 'I.opts property 1-1', 'I.opts.a property 1-1', 'm constant 2-2', 'C class 3-3', 'C.f field 3-3'],
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
  [
    'swift',
    'struct S {\n  var x = 0 {\n    didSet {\n      let old = 1\n      func log() {}\n    }\n  }\n}\n',
    // A property's observers are a body without a name too.
    ['S struct 1-8', 'S.x property 2-7', 'S.x.log function 5-5'],
  ],
  [
    'kotlin',
    'class K {\n  val t = run {\n    val inner = 1\n    inner\n  }\n  val f = fun(a: Int): Int { val y = a; return y }\n  init { val z = 1 }\n  constructor() : this() { val w = 2 }\n}\n',
    // A Kotlin lambda's, anonymous function's, init block's and secondary constructor's variables.
    ['K class 1-9', 'K.t property 2-5', 'K.f property 6-6', 'K.init method 7-7', 'K.constructor method 8-8'],
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

describe('a C++ template', () => {
  it('selects its `template <…>` line with the declaration, and the doc comment above it', async () => {
    const language = SYMBOL_LANGUAGES.find((l) => l.id === 'cpp')!;
    const text = 'class S {\n public:\n  template <typename T>\n  void f(T t) {}\n};\n/// Doc.\ntemplate <typename T>\nvoid h(T t) {\n}\n';
    const table = await declarationsOfText(text, language);
    expect(table.map((d) => `${d.path} ${d.kind} ${d.startLine}-${d.endLine}`)).toEqual(['S class 1-5', 'S.f method 3-4', 'h function 6-9']);
  });
});

describe('a Swift extension of a qualified type', () => {
  it('extends the last name: `extension Foundation.Date` adds to Date', async () => {
    const language = SYMBOL_LANGUAGES.find((l) => l.id === 'swift')!;
    const table = await declarationsOfText('extension Foundation.Date {\n  func stamp() {}\n}\n', language);
    expect(table.map((d) => `${d.path} ${d.kind} ${d.startLine}-${d.endLine}`)).toEqual(['Date extension 1-3', 'Date.stamp method 2-2']);
  });
  it('with type arguments: `extension Range<Int>` adds to Range', async () => {
    const language = SYMBOL_LANGUAGES.find((l) => l.id === 'swift')!;
    const table = await declarationsOfText('extension Range<Int> {\n  func mid() {}\n}\nextension A.B<C> {\n  func f() {}\n}\n', language);
    expect(table.map((d) => `${d.path} ${d.kind} ${d.startLine}-${d.endLine}`)).toEqual(['Range extension 1-3', 'Range.mid method 2-2', 'B extension 4-6', 'B.f method 5-5']);
  });
});

describe('a Go group of declarations', () => {
  it('selects each spec of `const ( … )`, `var ( … )` and `type ( … )` on its own lines, doc comments kept', async () => {
    const language = SYMBOL_LANGUAGES.find((l) => l.id === 'go')!;
    const text = [
      'package a',
      '',
      '// Limits.',
      'const (',
      '\t// Max is the most.',
      '\tMax = 3',
      '\tMin = 1',
      ')',
      'var (',
      '\ttop = 1',
      ')',
      'type (',
      '\tA struct {',
      '\t\tX int',
      '\t}',
      '\tB = int',
      ')',
      '// One is alone.',
      'const One = 1',
    ].join('\n');
    const table = await declarationsOfText(text, language);
    expect(table.map((d) => `${d.path} ${d.kind} ${d.startLine}-${d.endLine}`)).toEqual([
      'Max constant 5-6',
      'Min constant 7-7',
      'top variable 10-10',
      'A struct 13-15',
      'A.X field 14-14',
      'B type 16-16',
      'One constant 18-19',
    ]);
  });
});

describe('a quoted identifier', () => {
  it('is named without its backticks: Swift `default` is #E.default', async () => {
    const language = SYMBOL_LANGUAGES.find((l) => l.id === 'swift')!;
    const table = await declarationsOfText('enum E {\n  case `default`, other\n  static var `private`: E { .other }\n}\n', language);
    expect(table.map((d) => `${d.path} ${d.kind} ${d.startLine}-${d.endLine}`)).toEqual(['E enum 1-4', 'E.default enum_case 2-2', 'E.other enum_case 2-2', 'E.private property 3-3']);
  });
});
