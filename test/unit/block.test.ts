import { describe, expect, it } from 'vitest';
import { scanSemantic } from '../../src/core/extract/block.js';
import type { SemanticUnit } from '../../src/core/ref-spec/ref-spec.js';

/**
 * Runs a block scan the way select.ts does: the first line matching `re` is the match, the lines
 * above it are the history, the rest are read one by one. Returns the selected span (1-based,
 * decorators included) and the problem, or `not a <unit>` when the match is not a declaration.
 */
function block(source: string, language: string, selector: string, maxLines?: number): string {
  const m = /^\/(.*)\/:(block|function|class)$/.exec(selector);
  if (!m) throw new Error(`bad selector ${selector}`);
  const [, re, unit] = m as unknown as [string, string, SemanticUnit];
  const lines = source.split('\n');
  const idx = lines.findIndex((l) => new RegExp(re).test(l));
  if (idx === -1) throw new Error(`/${re}/ not found`);
  let at = idx + 1;
  const next = () => (at < lines.length ? lines[at++]! : null);
  const r = scanSemantic(lines.slice(0, idx), lines[idx]!, next, language, unit, maxLines);
  if (r === null) return `not a ${unit}`;
  const span = `L${idx + 1 - r.leading}-L${idx + 1 + r.body.length}`;
  return r.problem ? `${span} ${r.problem}` : span;
}

const src = (...lines: string[]) => lines.join('\n');

// [source, language, selector, expected]
type Row = [string, string, string, string];

describe('brace languages: strings, comments, templates, regexes', () => {
  it.each<Row>([
    [src('function f() {', '  return "}";', '}', 'x'), 'typescript', '/function f/:function', 'L1-L3'],
    [src('function f() {', "  const s = '{';", '  return s;', '}', 'x'), 'javascript', '/function f/:function', 'L1-L4'],
    [src('function f() {', '  // }', '  return 1;', '}', 'x'), 'typescript', '/function f/:function', 'L1-L4'],
    [src('function f() {', '  /* }', '  } */', '  return 1;', '}', 'x'), 'typescript', '/function f/:function', 'L1-L5'],
    [src('function f() {', '  return `', '}', '`;', '}', 'x'), 'typescript', '/function f/:function', 'L1-L5'],
    [src('function f() {', '  return `a ${ {b: 1}.b } ${`}`}`;', '}', 'x'), 'typescript', '/function f/:function', 'L1-L3'],
    [src('const s = `', '${ f({', '  a: 1,', '}) }', '}`;', 'function g() {}'), 'javascript', '/const s/:block', 'L1-L5'],
    [src('function f(s) {', '  return s.replace(/}/g, "");', '}', 'x'), 'javascript', '/function f/:function', 'L1-L3'],
    [src('function f(s) {', '  if (/[/}]/.test(s)) return 1;', '  return 0;', '}', 'x'), 'javascript', '/function f/:function', 'L1-L4'],
    [src('function f(s) {', '  return /{/.test(s);', '}', 'x'), 'typescript', '/function f/:function', 'L1-L3'],
    [src('function f(s) {', '  const ok = !/\\{/.test(s) && /"/.test(s);', '  return ok;', '}'), 'typescript', '/function f/:function', 'L1-L4'],
    [src('function f(a, b) {', '  let x = a / 2; if (b) { x = b / 3;', '  }', '  return x;', '}', 'after'), 'javascript', '/function f/:function', 'L1-L5'],
    [src('function A() {', "  return <p>don't</p>;", '}', 'x'), 'javascript', '/function A/:function', 'L1-L3'],
    [src('fn f() -> &\'static str {', '    r#"}"#', '}', 'x'), 'rust', '/fn f/:function', 'L1-L3'],
    [src("fn f<'a>(x: &'a str) -> &'a str {", '    x', '}', 'x'), 'rust', '/fn f/:function', 'L1-L3'],
    [src('fn f() -> char {', "    '}'", '}', 'x'), 'rust', '/fn f/:function', 'L1-L3'],
    [src('fn f() {', '    /* outer /* inner */ } */', '}', 'x'), 'rust', '/fn f/:function', 'L1-L3'],
    [src('func f() string {', '\treturn `', '}', '`', '}', 'x'), 'go', '/func f/:function', 'L1-L5'],
    [src('func f() -> String {', '    return """', '    }', '    """', '}', 'x'), 'swift', '/func f/:function', 'L1-L5'],
    [src('fun f(): Int {', '    return "}".length', '}', 'x'), 'kotlin', '/fun f/:function', 'L1-L3'],
    [src('String s() {', '    return """', '        }', '        """;', '}', 'x'), 'java', '/String s/:function', 'L1-L5'],
    [src('int f(char c) {', "    return c == '}';", '}', 'x'), 'c', '/int f/:function', 'L1-L3'],
  ])('%j %s %s → %s', (source, language, selector, expected) => {
    expect(block(source, language, selector)).toBe(expected);
  });
});

describe('brace languages: declarations, one-liners, nesting, Allman', () => {
  it.each<Row>([
    [src('function outer() {', '  function inner() {', '    return 1;', '  }', '  return inner();', '}', 'x'), 'typescript', '/function outer/:function', 'L1-L6'],
    [src('function outer() {', '  function inner() {', '    return 1;', '  }', '  return inner();', '}', 'x'), 'typescript', '/function inner/:function', 'L2-L4'],
    [src('function f() { return 1 }', 'function g() {', '}'), 'javascript', '/function f/:function', 'L1-L1'],
    [src('class A {', '  get() { return 1 }', '  set(v) { this.v = v }', '}'), 'typescript', '/get\\(\\)/:function', 'L2-L2'],
    [src('static int one(void) { return 1; }', 'int two(void) {', '}'), 'c', '/one/:function', 'L1-L1'],
    [src('export const f = async (a: number): Promise<void> => {', '  await a;', '};', 'x'), 'typescript', '/const f/:function', 'L1-L3'],
    [src('const f = (', '  a,', '  b,', ') => {', '  return a + b;', '};', 'x'), 'javascript', '/const f/:function', 'L1-L6'],
    [src('class A {', '  handle = (e) => {', '    go(e);', '  };', '}'), 'typescript', '/handle/:function', 'L2-L4'],
    [src('const api = {', '  load: async (id) => {', '    return id;', '  },', '};'), 'javascript', '/load/:function', 'L2-L4'],
    [src('  async *items(): AsyncGenerator<number> {', '    yield 1;', '  }', 'x'), 'typescript', '/items/:function', 'L1-L3'],
    [src('if (x) {', '  y();', '}'), 'typescript', '/if/:function', 'not a function'],
    [src('if (a) {', '} else if (b) {', '  c();', '}'), 'javascript', '/else if/:function', 'not a function'],
    [src('for (const x of xs) {', '  f(x);', '}'), 'typescript', '/for/:function', 'not a function'],
    [src('while (x) {', '  x--;', '}'), 'c', '/while/:function', 'not a function'],
    [src('switch (x) {', '  case 1: break;', '}'), 'java', '/switch/:function', 'not a function'],
    [src('try {', '} catch (e) {', '  log(e);', '}'), 'typescript', '/catch/:function', 'not a function'],
    [src('return foo(x);'), 'c', '/return/:function', 'not a function'],
    [src('items.map((x) => x * 2);'), 'typescript', '/map/:function', 'not a function'],
    [src('console.log(x);'), 'typescript', '/console/:function', 'not a function'],
    [src("const s = 'function';"), 'typescript', '/const s/:function', 'not a function'],
    [src('int f(void);'), 'c', '/int f/:function', 'not a function'],
    [src('Class<?> c = Foo.class;'), 'java', '/Foo/:class', 'not a class'],
    [src('if (x) {', '  y();', '}', 'z();'), 'typescript', '/if/:block', 'L1-L3'],
    [src('if (a) {', '  b();', '} else {', '  c();', '}', 'd();'), 'typescript', '/else/:block', 'L3-L5'],
    [src('public void run()', '{', '    go();', '}', 'x'), 'java', '/run/:function', 'L1-L4'],
    [src('public void run()', '', '{', '}', 'x'), 'java', '/run/:function', 'L1-L4'],
    [src('func (s *S) Run() error {', '\treturn nil', '}', ''), 'go', '/Run/:function', 'L1-L3'],
    [src('export interface Options {', '  verbose: boolean;', '}'), 'typescript', '/interface/:class', 'L1-L3'],
    // A signature whose return type wraps onto the next line, then `{` alone (Trio's APSManager.swift).
    [src('    private func setValues(autosens: Autosens?)', '        -> AnyPublisher<Suggestion?, Error>', '    {', '        let a = 1', '        return Just(a)', '    }', '', '    func next() {}'), 'swift', '/func setValues/:function', 'L1-L6'],
    [src('    private func setValues(', '        autosens: Autosens?', '    ) -> AnyPublisher<(Suggestion?, Autosens?), Error>', '    {', '        return Just(1)', '    }', '    func next() {}'), 'swift', '/func setValues/:function', 'L1-L6'],
    [src('    private func setValues(autosens: Autosens?) -> AnyPublisher<', '        Suggestion?, Error>', '    {', '        return Just(1)', '    }', 'x'), 'swift', '/func setValues/:function', 'L1-L5'],
    [src('    func load(id: Int)', '        throws -> Data {', '        try read(id)', '    }', 'x'), 'swift', '/func load/:function', 'L1-L4'],
    // A call's arguments then an unrelated line: not a header, nothing more is taken.
    [src('foo(', '  a,', ')', 'bar();'), 'typescript', '/foo/:block', 'L1-L3'],
    [src('int f(int a,', '      int b);', 'int g(void) {', '}'), 'c', '/int f/:function', 'L1-L2'],
  ])('%j %s %s → %s', (source, language, selector, expected) => {
    expect(block(source, language, selector)).toBe(expected);
  });
});

describe('decorators, attributes, annotations', () => {
  it.each<Row>([
    [src("@Component({", "  selector: 'x',", '})', 'export class A {', '  x = 1;', '}'), 'typescript', '/class A/:class', 'L1-L6'],
    [src('@app.route("/")', '@login_required', 'def index():', '    return 1', '', 'x = 2'), 'python', '/def index/:function', 'L1-L4'],
    [src('@app.route("/")', '@login_required', 'def index():', '    return 1', '', 'x = 2'), 'python', '/@app.route/:function', 'L1-L4'],
    [src('@app.route("/")', '@login_required', 'def index():', '    return 1', '', 'x = 2'), 'python', '/@login/:function', 'L1-L4'],
    [src('x = 1', '@property', 'def name(self):', '    return 1'), 'python', '/def name/:function', 'L2-L4'],
    [src('@dataclass', 'class P:', '    x: int', 'y = 1'), 'python', '/class P/:class', 'L1-L3'],
    [src('@Override', 'public String toString() {', '    return "x";', '}'), 'java', '/toString/:function', 'L1-L4'],
    [src('@Override public String toString() {', '    return "x";', '}'), 'java', '/toString/:function', 'L1-L3'],
    [src('// @Deprecated', 'public void f() {', '}'), 'java', '/void f/:function', 'L2-L3'],
    [src('#[derive(Debug)]', '#[serde(rename_all = "camelCase")]', 'pub struct P {', '    x: i32,', '}'), 'rust', '/struct P/:class', 'L1-L5'],
    [src('#[test]', 'fn works() {', '    assert!(true);', '}'), 'rust', '/fn works/:function', 'L1-L4'],
    [src('[HttpGet("x")]', 'public IActionResult Get()', '{', '    return Ok();', '}'), 'cs', '/IActionResult Get/:function', 'L1-L5'],
    [src('@objc', '@MainActor', 'func tap() {', '}'), 'swift', '/func tap/:function', 'L1-L4'],
    [src('@dec', 'x = 1', 'def f():', '    pass'), 'python', '/def f/:function', 'L3-L4'],
    [src('@Component({', '  selector: "x",', '})', 'const y = 2;'), 'typescript', '/@Component/:class', 'not a class'],
  ])('%j %s %s → %s', (source, language, selector, expected) => {
    expect(block(source, language, selector)).toBe(expected);
  });
});

describe('keyword-ended languages: Ruby, Lua, Elixir', () => {
  it.each<Row>([
    [src('def f(x)', '  if x', '    1', '  else', '    2', '  end', 'end', 'puts 1'), 'ruby', '/def f/:function', 'L1-L7'],
    [src('def f(x)', '  return 1 if x', '  2', 'end', 'g'), 'ruby', '/def f/:function', 'L1-L4'],
    [src('def f', '  [1].each do |x|', '    puts x', '  end', 'end', 'g'), 'ruby', '/def f/:function', 'L1-L5'],
    [src('def f', '  while x do', '    y', '  end', 'end', 'g'), 'ruby', '/def f/:function', 'L1-L5'],
    [src('def f', '  v = if x then 1 else 2 end', '  h = { end: 1 }', '  :end', 'end', 'g'), 'ruby', '/def f/:function', 'L1-L5'],
    [src('class Foo < Bar', '  def x; 1; end', 'end', 'Foo.new'), 'ruby', '/class Foo/:class', 'L1-L3'],
    [src('def sq(x) = x * x', 'def other', 'end'), 'ruby', '/def sq/:function', 'L1-L1'],
    [src('def f', '  puts "end" # end', '  <<~SQL', '    select end', '  SQL', 'end', 'x'), 'ruby', '/def f/:function', 'L1-L6'],
    [src('function M.f(x)', '  if x then', '    return 1', '  end', '  for i = 1, 3 do', '    print(i)', '  end', 'end', 'return M'), 'lua', '/function M.f/:function', 'L1-L8'],
    [src('local function g()', '  repeat', '    x = x + 1', '  until x > 3', 'end', 'x'), 'lua', '/function g/:function', 'L1-L5'],
    [src('function f()', '  --[[ end ]]', '  local s = [[', 'end', ']]', 'end', 'x'), 'lua', '/function f/:function', 'L1-L6'],
    [src('function f() return 1 end', 'function g()', 'end'), 'lua', '/function f/:function', 'L1-L1'],
    [src('defmodule M do', '  def f(x) do', '    x', '  end', '  def g(x), do: x', 'end', 'IO.puts 1'), 'ex', '/defmodule/:class', 'L1-L6'],
    [src('defmodule M do', '  def f(x) do', '    x', '  end', '  def g(x), do: x', 'end', 'IO.puts 1'), 'exs', '/def g/:function', 'L5-L5'],
    [src('def f do', '  Enum.map([1], fn x -> x end)', '  """', '  end', '  """', 'end', 'x'), 'ex', '/def f/:function', 'L1-L6'],
    [src('def f(x) do', '  case x do', '    :end -> 1', '    _ -> %{a: 1,', '      b: 2}', '  end', 'end', 'x'), 'ex', '/def f/:function', 'L1-L7'],
    [src('def __call__(', '      %{a: 1} = conn,', '      opts', '    ) do', '  conn', 'end', 'x'), 'ex', '/def __call__/:function', 'L1-L6'],
    [src('class << self', '  def x', '    @y ||= begin', '      1', '    end', '  end', 'end', 'z'), 'ruby', '/class << self/:class', 'L1-L7'],
    [src('def f', '  return unless x', '  next if y', '  z', 'end', 'g'), 'ruby', '/def f/:function', 'L1-L5'],
  ])('%j %s %s → %s', (source, language, selector, expected) => {
    expect(block(source, language, selector)).toBe(expected);
  });
});

describe('shell', () => {
  it.each<Row>([
    [src('if [ -f x ]; then', '  echo done', 'fi', 'echo after'), 'bash', '/^if/:block', 'L1-L3'],
    [src('for f in *.txt; do', '  cat "$f"', 'done', 'x'), 'bash', '/^for/:block', 'L1-L3'],
    [src('for f in a b', 'do', '  echo $f', 'done', 'x'), 'bash', '/^for/:block', 'L1-L4'],
    [src('case "$1" in', '  a) echo a ;;', '  b) echo b ;;', 'esac', 'x'), 'bash', '/^case/:block', 'L1-L4'],
    [src('build() {', '  echo "}"', "  echo '{'", '}', 'x'), 'bash', '/build/:function', 'L1-L4'],
    [src('usage() {', '  cat <<EOF', '}', 'fi', 'EOF', '}', 'x'), 'bash', '/usage/:function', 'L1-L6'],
    [src('f() {', '  echo ${#arr[@]} # }', '}', 'x'), 'bash', '/f\\(\\)/:function', 'L1-L3'],
    [src('main() {', '  while read l; do', '    if [ "$l" ]; then', '      echo "$l"', '    fi', '  done', '}', 'main'), 'bash', '/main\\(\\)/:function', 'L1-L7'],
    [src('function deploy {', '  echo', '}', 'x'), 'zsh', '/deploy/:function', 'L1-L3'],
    [src('greet()', '{', '  echo hi', '}', 'x'), 'bash', '/greet/:function', 'L1-L4'],
    [src('if true; then echo x; fi', 'echo y'), 'bash', '/^if/:function', 'not a function'],
    [src('case "$1" in', '  *) if [ "$x" ]; then', '       y', '     fi ;;', 'esac', 'z'), 'bash', '/^case/:block', 'L1-L5'],
    [src('sq() {', "  sed -e 's/'\\''/x/g'", '  done=no', '}', 'z'), 'bash', '/sq/:function', 'L1-L4'],
  ])('%j %s %s → %s', (source, language, selector, expected) => {
    expect(block(source, language, selector)).toBe(expected);
  });
});

describe('indentation languages: Python, YAML', () => {
  it.each<Row>([
    [src('def f():', '    x = 1', '', '    return x', '', '', 'y = 2'), 'python', '/def f/:function', 'L1-L4'],
    [src('def f():', '    x = 1', '# note', '    return x', 'y = 2'), 'python', '/def f/:function', 'L1-L4'],
    [src('def f():', '    return 1', '# end of f', 'def g():'), 'python', '/def f/:function', 'L1-L2'],
    [src('def f():', '    s = """', 'not code', '"""', '    return s', 'x = 1'), 'python', '/def f/:function', 'L1-L5'],
    [src('def f(', '    a,', '    b,', '):', '    return a', 'x'), 'python', '/def f/:function', 'L1-L5'],
    [src('def f():', '    x = g(', '1)', '    return x', 'y'), 'python', '/def f/:function', 'L1-L4'],
    [src('class A:', '    def a(self):', '        pass', '', '    def b(self):', '        pass', '', '', 'def c():', '    pass'), 'python', '/class A/:class', 'L1-L6'],
    [src('async def f():', '    await g()', 'x'), 'python', '/def f/:function', 'L1-L2'],
    [src('def f(): return "{"', 'x = 1'), 'python', '/def f/:function', 'L1-L1'],
    [src('if x:', '    y()'), 'python', '/if x/:function', 'not a function'],
    [src('if x:', '    y()', 'z()'), 'python', '/if x/:block', 'L1-L2'],
    [src('jobs:', '  build:', '    runs-on: x', '  test:', '    runs-on: y', 'other: 1'), 'yaml', '/build:/:block', 'L2-L3'],
    [src('steps:', '  - name: a', '    run: b', '  - name: c', '    run: d'), 'yaml', '/name: a/:block', 'L2-L3'],
    [src('steps:', '- name: a', '  run: b', '- name: c', 'other: 1'), 'yaml', '/steps/:block', 'L1-L4'],
    [src('- name: a', '  run: |', '    echo hi', '', '    echo there', '- name: b'), 'yaml', '/name: a/:block', 'L1-L5'],
    [src('script: |', '  echo hi', '  # kept', 'next: 1'), 'yaml', '/script/:block', 'L1-L3'],
    [src('a:', '  b: "{"', 'c: 1'), 'yaml', '/^a/:block', 'L1-L2'],
  ])('%j %s %s → %s', (source, language, selector, expected) => {
    expect(block(source, language, selector)).toBe(expected);
  });
});

describe('blocks that never close', () => {
  const long = (header: string, body: string, n: number) => src(header, ...Array.from({ length: n }, () => body));
  it.each<[string, string, string, number | undefined, string]>([
    [src('function f() {', '  if (x) {', '  return 1;', '}'), 'typescript', '/function f/:function', undefined, 'L1-L4 unclosed'],
    [src('def f', '  if x', '    1', 'end'), 'ruby', '/def f/:function', undefined, 'L1-L4 unclosed'],
    [src('f() {', '  echo "unterminated', '}'), 'bash', '/f\\(\\)/:function', undefined, 'L1-L3 unclosed'],
    [long('function f() {', '  x();', 20), 'javascript', '/function f/:function', 5, 'L1-L6 truncated'],
    [long('def f():', '    x()', 10), 'python', '/def f/:function', 3, 'L1-L4 truncated'],
    [long('function f() {', '  x();', 3) + '\n}', 'javascript', '/function f/:function', 5, 'L1-L5'],
  ])('%j %s %s (cap %s) → %s', (source, language, selector, maxLines, expected) => {
    expect(block(source, language, selector, maxLines)).toBe(expected);
  });
});
