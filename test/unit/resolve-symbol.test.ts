import os from 'node:os';
import { describe, expect, it } from 'vitest';
import * as lib from '../../src/index.js';
import { declarationsOfText } from '../../src/core/symbols/declaration-table.js';
import { SYMBOL_LANGUAGES } from '../../src/core/symbols/languages.js';
import { resolveSymbol } from '../../src/core/symbols/resolve-symbol.js';
import { parseRef } from '../../src/core/ref-spec/parse-ref-spec.js';
import type { SymbolSelector } from '../../src/core/ref-spec/ref-spec.js';
import { RefError } from '../../src/shared/errors.js';
import { tmpDir } from '../helpers/tmp.js';

const lang = (id: string) => SYMBOL_LANGUAGES.find((l) => l.id === id)!;
const sel = (fragment: string) => parseRef(`@x.swift#${fragment}`).selector as SymbolSelector;

/** `kind L<start>-L<end>` of what `fragment` names in `source`, or the error's message and details. */
async function resolve(id: string, source: string, fragment: string): Promise<string> {
  const table = await declarationsOfText(source, lang(id));
  try {
    const d = resolveSymbol(table, sel(fragment), `@x#${fragment}`);
    return `${d.kind} L${d.startLine}-L${d.endLine}`;
  } catch (err) {
    if (!(err instanceof RefError)) throw err;
    return [err.message, ...(err.details ?? [])].join(' | ');
  }
}

const SWIFT = [
  'struct Foo {', // 1
  '    var a: Int', // 2
  '}', // 3
  'extension Foo {', // 4
  '    func extra() {}', // 5
  '}', // 6
  'extension String {', // 7
  '    func shout() -> String { self }', // 8
  '}', // 9
  'extension String {', // 10
  '    func whisper() -> String { self }', // 11
  '}', // 12
].join('\n');

describe('resolution', () => {
  it.each([
    // Swift: an extension's members belong to the type; #Foo is the type's own declaration.
    ['swift', SWIFT, 'Foo', 'struct L1-L3'],
    ['swift', SWIFT, 'Foo.extra', 'method L5-L5'],
    ['swift', SWIFT, 'Foo.a', 'property L2-L2'],
    ['swift', SWIFT, 'String.shout', 'method L8-L8'],
    // Only extensions of String in the file: #String names them (two: pick one).
    ['swift', SWIFT, 'String~2', 'extension L10-L12'],
    ['swift', SWIFT, 'String', "Symbol 'String' names 2 declarations in @x#String; pick one with ~N | #String~1  L7-L9  extension | #String~2  L10-L12  extension"],
    ['swift', SWIFT, 'Foo.extr', "Symbol 'Foo.extr' not found in @x#Foo.extr (did you mean Foo.extra?)"],
    ['swift', SWIFT, 'Nothing', "Symbol 'Nothing' not found in @x#Nothing"],
    ['swift', SWIFT, 'Foo~2', "Symbol 'Foo~2' not found in @x#Foo~2 (there is 1 declaration of Foo) | #Foo~1  L1-L3  struct"],
    // Python: decorators and the comment directly above; not across a blank line.
    ['python', '# one\n\n# two\n@a\n@b(1)\ndef f():\n    pass\n', 'f', 'function L3-L7'],
    ['python', 'class A:\n    def m(self):\n        pass\n\n    def m(self, x):\n        pass\n', 'A.m~2', 'method L5-L6'],
    // JavaScript: CommonJS exports declare their names.
    ['javascript', 'module.exports.determine_basal = function (a) {\n  return a;\n};\n', 'determine_basal', 'function L1-L3'],
    ['javascript', 'exports.helper = () => 1;\n', 'helper', 'function L1-L1'],
    ['javascript', 'function determineBasal() {}\n', 'determineBasl', "Symbol 'determineBasl' not found in @x#determineBasl (did you mean determineBasal?)"],
    // A path that goes past a declaration: that declaration, not every one-letter name.
    ['typescript', 'class Store {\n  save() {}\n}\nnamespace NS {\n  class C {\n    m() {}\n  }\n}\n', 'Store.save.x', "Symbol 'Store.save.x' not found in @x#Store.save.x (did you mean Store.save?)"],
    ['typescript', 'class Store {\n  save() {}\n}\n', 'Store.save.member', "Symbol 'Store.save.member' not found in @x#Store.save.member (did you mean Store.save?)"],
    ['python', 'class Store:\n    def size(self):\n        return 1\n', 'Store.size.x', "Symbol 'Store.size.x' not found in @x#Store.size.x (did you mean Store.size?)"],
    ['typescript', 'const x = 1;\nconst y = 2;\nfunction f() {}\n', 'z', "Symbol 'z' not found in @x#z"],
    // TypeScript: a getter and setter next to each other are one property.
    ['typescript', 'class A {\n  get x() { return 1; }\n  set x(v) {}\n}\n', 'A.x', 'property L2-L3'],
    // Kotlin: a companion's members belong to the class.
    ['kotlin', 'class A {\n  companion object {\n    fun make() = A()\n  }\n}\n', 'A.make', 'method L3-L3'],
    // Go and C++: a method belongs to its receiver's type.
    ['go', 'package p\n\ntype S struct{}\n\n// Run runs.\nfunc (s *S) Run() {}\n', 'S.Run', 'method L5-L6'],
    ['cpp', 'namespace n {\nbool S::load() { return false; }\n}\n', 'n.S.load', 'method L2-L2'],
    // Rust: impl blocks give their items to the type; attributes and doc comments above belong.
    ['rust', 'struct S;\n/// Doc.\n#[inline]\nimpl S {\n    fn f(&self) {}\n}\n', 'S.f', 'method L5-L5'],
    ['rust', 'struct S;\n/// Doc.\n#[inline]\nfn g() {}\n', 'g', 'function L2-L4'],
  ])('%s %j #%s → %s', async (id, source, fragment, expected) => {
    expect(await resolve(id, source, fragment)).toBe(expected);
  });

  it('up to five near names', async () => {
    const source = ['save1', 'save2', 'save3', 'save4', 'save5', 'save6'].map((n) => `func ${n}() {}`).join('\n');
    const r = await resolve('swift', source, 'save');
    expect(r).toBe("Symbol 'save' not found in @x#save (did you mean save1, save2, save3, save4, save5?)");
  });
});

describe('the library', () => {
  it('prepareSymbolRefs, then the synchronous extract() reads symbol refs', async () => {
    const cwd = tmpDir({ 'a.rb': 'class Store\n  def save!\n    true\n  end\nend\n' });
    const ctx = { cwd, env: {}, home: os.tmpdir() };
    await lib.prepareSymbolRefs(['@a.rb#Store.save!']);
    const report = lib.extract(['@a.rb#Store.save!'], ctx);
    expect(report.errors).toEqual([]);
    expect(report.results[0]!.symbol).toEqual({ path: 'Store.save!', kind: 'method' });
    expect([report.results[0]!.lineStart, report.results[0]!.lineEnd]).toEqual([2, 4]);
  });
});
