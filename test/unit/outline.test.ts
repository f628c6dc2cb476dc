import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';
import { outlineLanguages } from '../../src/core/symbols/prepare-outline.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

/**
 * `--outline` (docs/refs.md#outlines---outline), one table row per language: nesting, a type without
 * members, overloads (`~N`), a function assigned to a constant, a Python docstring and
 * decorators, a Go struct and a Swift extension. Each row: a file, and the outline printed.
 */

const FILES: Record<string, string> = {
  'store.ts': `import fs from 'node:fs';

/** A store. */
export class Store {
  /** Items. */
  items: string[] = [];

  save(x: string): boolean {
    const y = x;
    return true;
  }
}

export class Empty {
  // nothing declared yet
}

namespace NS {
  export class Inner {
    run(): void {
      console.log(1);
    }
  }
}

export function parse(a: string): void;
export function parse(a: number): void;
export function parse(a: any) {
  return a;
}

export const arrow = async (
  a: number,
) => {
  return a;
};
`,
  'point.py': `import math


@dataclass
class Point:
    """A point.

    With two coordinates.
    """
    x: int = 0

    @staticmethod
    def origin():
        """The origin."""
        return Point()

    def norm(self,
             p=2):
        return math.hypot(self.x, 0)


class Empty:
    pass
`,
  'Store.swift': `/// A store.
struct Store {
    var items: [Int] = []
    func save(_ x: Int) -> Bool {
        return true
    }
    enum Kind {
        case a
        case b
    }
}

extension Store {
    func extra() {
        print(1)
    }
}

class Empty {
    // later
}
`,
  'store.go': `package main

// Store holds items.
type Store struct {
\tItems []int
}

type Empty struct {
}

// Save saves.
func (s *Store) Save(x int) bool {
\treturn true
}
`,
};
const OUTLINES: [string, string][] = [
  ['store.ts', `## Outline: store.ts, 36 lines
\`\`\`typescript
 3 | /** A store. */
 4 | export class Store {
 5 |   /** Items. */
 6 |   items: string[] = [];
 8 |   save(x: string): boolean {
   |     ⋯ 3 lines: @store.ts#Store.save
12 | }
14 | export class Empty {
   |   ⋯ 2 lines: @store.ts#Empty
18 | namespace NS {
19 |   export class Inner {
20 |     run(): void {
   |       ⋯ 2 lines: @store.ts#NS.Inner.run
23 |   }
24 | }
26 | export function parse(a: string): void;
27 | export function parse(a: number): void;
28 | export function parse(a: any) {
   |   ⋯ 2 lines: @store.ts#parse~3
32 | export const arrow = async (
33 |   a: number,
34 | ) => {
   |   ⋯ 2 lines: @store.ts#arrow
\`\`\`
`],
  ['point.py', `## Outline: point.py, 23 lines
\`\`\`python
 4 | @dataclass
 5 | class Point:
 6 |     """A point.
 7 | 
 8 |     With two coordinates.
 9 |     """
10 |     x: int = 0
12 |     @staticmethod
13 |     def origin():
14 |         """The origin."""
   |         ⋯ 1 line: @point.py#Point.origin
17 |     def norm(self,
18 |              p=2):
   |         ⋯ 1 line: @point.py#Point.norm
22 | class Empty:
   |     ⋯ 1 line: @point.py#Empty
\`\`\`
`],
  ['Store.swift', `## Outline: Store.swift, 21 lines
\`\`\`swift
 1 | /// A store.
 2 | struct Store {
 3 |     var items: [Int] = []
 4 |     func save(_ x: Int) -> Bool {
   |         ⋯ 2 lines: @Store.swift#Store.save
 7 |     enum Kind {
 8 |         case a
 9 |         case b
10 |     }
11 | }
13 | extension Store {
14 |     func extra() {
   |         ⋯ 2 lines: @Store.swift#Store.extra
17 | }
19 | class Empty {
   |     ⋯ 2 lines: @Store.swift#Empty
\`\`\`
`],
  ['store.go', `## Outline: store.go, 14 lines
\`\`\`go
 3 | // Store holds items.
 4 | type Store struct {
 5 | \tItems []int
 6 | }
 8 | type Empty struct {
   | ⋯ 1 line: @store.go#Empty
11 | // Save saves.
12 | func (s *Store) Save(x int) bool {
   | \t⋯ 2 lines: @store.go#Store.Save
\`\`\`
`],
];

const BIG = 'export const x = 1;\n'.repeat(Math.ceil((1.1 * 1024 * 1024) / 20));
const run = (dir: string, ...args: string[]) => refcatInProcess([...args, '--no-cwd'], { cwd: dir });

describe('--outline', () => {
  it.each(OUTLINES)('%s', async (file, expected) => {
    const dir = tmpDir(FILES);
    const r = await run(dir, `@${file}`, '--outline');
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(expected);
    expect(r.code).toBe(0);
  });

  it('lists a file without a grammar, and one over 1 MiB, by name and line count', async () => {
    const dir = tmpDir({ 'notes.md': '# Notes\n\nSome text.\n', 'big.ts': BIG });
    const r = await run(dir, '@notes.md', '@big.ts', '--outline');
    expect(r.stdout).toBe(
      '## Outline: notes.md, 3 lines\n> Not outlined: no grammar for .md files\n\n' +
        '## Outline: big.ts, 57,672 lines\n> Not outlined: larger than 1 MiB (1.10 MiB)\n',
    );
    expect(r.code).toBe(0);
    const bare = await run(dir, '@notes.md', '--outline', '--no-attribution');
    expect(bare.stdout).toBe('> Not outlined: notes.md, 3 lines: no grammar for .md files\n');
    const json = JSON.parse((await run(dir, '@notes.md', '@big.ts', '--outline', '--json')).stdout);
    expect(json.refs.map((x: { outline: unknown; total_lines: number }) => [x.outline, x.total_lines])).toEqual([
      [{ not_outlined: 'no grammar for .md files', entries: [] }, 3],
      [{ not_outlined: 'larger than 1 MiB (1.10 MiB)', entries: [] }, 57672],
    ]);
  });

  it('outlines the declarations that start in a selector', async () => {
    const dir = tmpDir(FILES);
    const r = await run(dir, '@store.ts#Store', '@store.ts#L14-L24', '--outline');
    expect(r.stdout).toBe(
      [
        '## Outline: store.ts:3-12, 36 lines',
        '```typescript',
        ' 3 | /** A store. */',
        ' 4 | export class Store {',
        ' 5 |   /** Items. */',
        ' 6 |   items: string[] = [];',
        ' 8 |   save(x: string): boolean {',
        '   |     ⋯ 3 lines: @store.ts#Store.save',
        '12 | }',
        '```',
        '',
        '## Outline: store.ts:14-24, 36 lines',
        '```typescript',
        '14 | export class Empty {',
        '   |   ⋯ 2 lines: @store.ts#Empty',
        '18 | namespace NS {',
        '19 |   export class Inner {',
        '20 |     run(): void {',
        '   |       ⋯ 2 lines: @store.ts#NS.Inner.run',
        '23 |   }',
        '24 | }',
        '```',
        '',
      ].join('\n'),
    );
  });

  it('a range past the end selects nothing under the outline header, as every other file of the run has', async () => {
    const dir = tmpDir(FILES);
    const r = await run(dir, '@store.ts#L99', '--outline');
    expect(r.stdout).toBe('## Outline: store.ts:99, 36 lines\n> Nothing selected: line 99 is past the end of the file (36 lines).\n');
    expect(r.code).toBe(0);
  });

  it('prints the outline alone with -q, and marker refs with absolute paths under --absolute', async () => {
    const dir = tmpDir(FILES);
    const raw = await run(dir, '@store.go', '--outline', '-q');
    expect(raw.stdout).toBe(
      '// Store holds items.\ntype Store struct {\n\tItems []int\n}\ntype Empty struct {\n⋯ 1 line: @store.go#Empty\n// Save saves.\nfunc (s *Store) Save(x int) bool {\n\t⋯ 2 lines: @store.go#Store.Save\n',
    );
    const abs = await run(dir, '@store.go', '--outline', '--absolute');
    expect(abs.stdout).toContain(`   | \t⋯ 2 lines: @${dir}/store.go#Store.Save\n`);
    const json = JSON.parse((await run(dir, '@store.go', '--outline', '--json', '--absolute')).stdout);
    expect(json.refs[0].outline.entries.at(-1)).toEqual({ ref: `@${dir}/store.go#Store.Save`, start: 13, end: 14, omitted: 2 });
    expect(json.refs[0].content).toBe(abs.stdout.split('\n').slice(2, -2).map((l) => l.replace(/^.. \| /, '')).join('\n'));
  });

  it('gives JSON an outline field: kept lines and markers, and the outline as content', async () => {
    const dir = tmpDir(FILES);
    const r = await run(dir, '@store.go', '--outline', '--json', '--tokens');
    const ref = JSON.parse(r.stdout).refs[0];
    expect(ref.outline).toEqual({
      not_outlined: null,
      entries: [
        { line: 3, text: '// Store holds items.' },
        { line: 4, text: 'type Store struct {' },
        { line: 5, text: '\tItems []int' },
        { line: 6, text: '}' },
        { line: 8, text: 'type Empty struct {' },
        { ref: '@store.go#Empty', start: 9, end: 9, omitted: 1 },
        { line: 11, text: '// Save saves.' },
        { line: 12, text: 'func (s *Store) Save(x int) bool {' },
        { ref: '@store.go#Store.Save', start: 13, end: 14, omitted: 2 },
      ],
    });
    expect(ref.content).toBe((await run(dir, '@store.go', '--outline', '-q')).stdout.slice(0, -1));
    expect(ref.tokens).toBeGreaterThan(0);
    expect(r.code).toBe(0);
  });

  it.each([
    [['--spec'], '--outline prints an outline: it does not combine with --format spec'],
    [['--cite'], '--outline prints an outline: it does not combine with --format cite'],
    [['--validate-only'], '--validate-only prints its own report: it does not combine with --outline'],
    [['--list-files'], '--list-files prints its own report: it does not combine with --outline'],
  ])('%j is a usage error', async (flags, message) => {
    const dir = tmpDir(FILES);
    const r = await run(dir, '@store.go', '--outline', ...flags);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `Error: ${message}\n` });
  });
});

/**
 * A property's body is code (docs/refs.md#outlines---outline): a getter's, a Swift computed
 * property's, a property's observers, Kotlin's `get()` and `set()` (beside the property in its
 * grammar) are one marker, what they declare left out with them; so is a value that holds code
 * (an object literal's methods, an anonymous class); a property typed by an object type keeps
 * that type's members. Each row: a file, its outline's lines.
 */
const PROPERTIES: [string, string, string[]][] = [
  [
    'getter.ts',
    'export class A {\n  get size(): number {\n    const x = 1;\n    function inner() { return 2; }\n    return x;\n  }\n}\n',
    ['1 | export class A {', '2 |   get size(): number {', '  |     ⋯ 4 lines: @getter.ts#A.size', '7 | }'],
  ],
  [
    'typed.ts',
    'interface I {\n  opts: {\n    verbose: boolean;\n    run(): void;\n  };\n}\n',
    ['1 | interface I {', '2 |   opts: {', '3 |     verbose: boolean;', '4 |     run(): void;', '5 |   };', '6 | }'],
  ],
  [
    'S.swift',
    [
      'struct S {',
      '    var body: String {',
      '        func helper() -> String { "x" }',
      '        let y = helper()',
      '        return y',
      '    }',
      '    var x = 0 {',
      '        didSet { func log() {} }',
      '    }',
      '}',
      '',
    ].join('\n'),
    [
      ' 1 | struct S {',
      ' 2 |     var body: String {',
      '   |         ⋯ 4 lines: @S.swift#S.body',
      ' 7 |     var x = 0 {',
      '   |         ⋯ 2 lines: @S.swift#S.x',
      '10 | }',
    ],
  ],
  [
    'K.kt',
    'class K {\n    val p: Int\n        get() {\n            return 1\n        }\n    var q = 0\n        private set\n}\n',
    ['1 | class K {', '2 |     val p: Int', '3 |         get() {', '  |             ⋯ 2 lines: @K.kt#K.p', '6 |     var q = 0', '  |         ⋯ 1 line: @K.kt#K.q', '8 | }'],
  ],
  [
    'value.ts',
    'export const api = {\n  base: 1,\n  get() {\n    return 1;\n  },\n};\n',
    ['1 | export const api = {', '  |   ⋯ 5 lines: @value.ts#api'],
  ],
  [
    'Anon.java',
    'class A {\n  Runnable r = new Runnable() {\n    int n = 0;\n    public void run() {\n      n++;\n    }\n  };\n}\n',
    ['1 | class A {', '2 |   Runnable r = new Runnable() {', '  |     ⋯ 5 lines: @Anon.java#A.r', '8 | }'],
  ],
  [
    'Seg.kt',
    'class Seg(val x: Int) {\n    init {\n        require(x > 0)\n    }\n    constructor() : this(1) {\n        println(1)\n    }\n    val t = run {\n        val inner = 1\n        inner\n    }\n}\n',
    [
      ' 1 | class Seg(val x: Int) {',
      ' 2 |     init {',
      '   |         ⋯ 2 lines: @Seg.kt#Seg.init',
      ' 5 |     constructor() : this(1) {',
      '   |         ⋯ 2 lines: @Seg.kt#Seg.constructor',
      ' 8 |     val t = run {',
      '   |         ⋯ 3 lines: @Seg.kt#Seg.t',
      '12 | }',
    ],
  ],
];

/** The outline of one file written as `text`: its lines between the fences, and the run. */
async function outlineOfFile(file: string, text: string) {
  const dir = tmpDir({ [file]: text });
  const r = await run(dir, `@${file}`, '--outline', '--no-attribution');
  return { dir, r, lines: r.stdout.split('\n').slice(1, -2) };
}

describe("a property's body in an outline", () => {
  it.each(PROPERTIES)('%s', async (file, text, expected) => {
    const { r, lines } = await outlineOfFile(file, text);
    expect(lines).toEqual(expected);
    expect(r.code).toBe(0);
  });
});

// A type's body lines no member holds: code is a marker by its lines, comments are left out,
// structure (access specifiers, conditional compilation) is kept as it is.
const UNHELD: [string, string, string[]][] = [
  [
    'A.java',
    'class A {\n    int n;\n    // set up once\n    static {\n        init();\n    }\n}\n',
    ['1 | class A {', '2 |     int n;', '  |     ⋯ 3 lines: @A.java#L4-L6', '7 | }'],
  ],
  [
    'P.swift',
    'struct P {\n    var x = 1\n    // MARK: - Operators\n    static func == (a: P, b: P) -> Bool {\n        return true\n    }\n    #if DEBUG\n    func debug() {}\n    #endif\n}\n',
    [' 1 | struct P {', ' 2 |     var x = 1', '   |     ⋯ 3 lines: @P.swift#L4-L6', ' 7 |     #if DEBUG', ' 8 |     func debug() {}', ' 9 |     #endif', '10 | }'],
  ],
  [
    't.rb',
    'class T\n  attr_reader :x\n  def f; end\n  private\n  # helpers\n  it "works" do\n    assert true\n  end\nend\n',
    ['1 | class T', '  |   ⋯ 1 line: @t.rb#L2', '3 |   def f; end', '4 |   private', '  |   ⋯ 3 lines: @t.rb#L6-L8', '9 | end'],
  ],
  [
    's.cpp',
    'class S {\n public:\n  int n;\n  operator bool() const {\n    return true;\n  }\n};\n',
    ['1 | class S {', '2 |  public:', '3 |   int n;', '  |   ⋯ 3 lines: @s.cpp#L4-L6', '7 | };'],
  ],
  [
    'c.py',
    'class C:\n    """Doc."""\n    x = 1\n    if DEBUG:\n        y = 2\n\n    def f(self):\n        pass\n',
    ['1 | class C:', '2 |     """Doc."""', '3 |     x = 1', '  |     ⋯ 2 lines: @c.py#L4-L5', '7 |     def f(self):', '  |         ⋯ 1 line: @c.py#C.f'],
  ],
  [
    'co.kt',
    'class Store {\n    fun save() {\n        println("x")\n    }\n    private companion object {\n        const val MAX = 10\n    }\n}\n',
    ['1 | class Store {', '2 |     fun save() {', '  |         ⋯ 2 lines: @co.kt#Store.save', '5 |     private companion object {', '6 |         const val MAX = 10', '7 |     }', '8 | }'],
  ],
  [
    'i.ts',
    'interface I {\n  [key: string]: number;\n  x: number;\n}\n',
    ['1 | interface I {', '2 |   [key: string]: number;', '3 |   x: number;', '4 | }'],
  ],
  // An interface's or a type alias's body is all shape: a call or construct signature, the rest of
  // an intersection, are kept as they are.
  [
    'fn.ts',
    'interface Fn {\n  (x: number): string;\n  new (y: string): Fn;\n  name: string;\n}\ntype O = B & {\n  a: string;\n} & Partial<{\n  t: number;\n}>;\n',
    [' 1 | interface Fn {', ' 2 |   (x: number): string;', ' 3 |   new (y: string): Fn;', ' 4 |   name: string;', ' 5 | }', ' 6 | type O = B & {', ' 7 |   a: string;', ' 8 | } & Partial<{', ' 9 |   t: number;', '10 | }>;'],
  ],
  // A type alias without members is kept whole too: its lines are its shape.
  [
    'alias.ts',
    'export type Fn = (a: number,\n  b: string) => void;\nexport type U =\n  | "a"\n  | "b";\n',
    ['1 | export type Fn = (a: number,', '2 |   b: string) => void;', '3 | export type U =', '4 |   | "a"', '5 |   | "b";'],
  ],
  // A typedef names its struct after the struct's members: the struct is outlined as one, its method's body a marker.
  [
    'td.hpp',
    'typedef struct S {\n  int a;\n  int f() {\n    return a;\n  }\n} S;\n',
    ['1 | typedef struct S {', '2 |   int a;', '3 |   int f() {', '  |     ⋯ 2 lines: @td.hpp#S.S.f', '6 | } S;'],
  ],
  [
    'p.cs',
    'class C {\n#pragma warning disable CA1068\n    int n;\n#pragma warning restore CA1068\n    public int this[int i]\n    {\n        get { return i; }\n    }\n}\n',
    ['1 | class C {', '2 | #pragma warning disable CA1068', '3 |     int n;', '4 | #pragma warning restore CA1068', '  |     ⋯ 4 lines: @p.cs#L5-L8', '9 | }'],
  ],
  [
    'n.cpp',
    'namespace fmt {\nnamespace {\nint hidden() { return 1; }\n}  // namespace\nint shown() { return 2; }\n}\n',
    ['1 | namespace fmt {', '2 | namespace {', '3 | int hidden() { return 1; }', '4 | }  // namespace', '5 | int shown() { return 2; }', '6 | }'],
  ],
];

describe("a type's body lines no member holds", () => {
  it.each(UNHELD)('%s', async (file, text, expected) => {
    const { dir, r, lines } = await outlineOfFile(file, text);
    expect(lines).toEqual(expected);
    expect(r.code).toBe(0);
    // Each marker by lines reads exactly the lines it stands for.
    for (const m of r.stdout.matchAll(/⋯ (\d+) lines?: (@\S+#L\d+(?:-L\d+)?)\n/g)) {
      const lines = await run(dir, m[2]!, '-q');
      expect(lines.stdout.split('\n').length - 1).toBe(Number(m[1]));
    }
  });
});

describe('the grammars an outline loads', () => {
  it.each([
    ['@src/app.ts', ['typescript']],
    ['@src/**/*.ts', ['typescript']],
    ['alias:src/**/*.{py,go,md}#L1-L9', ['python', 'go']],
    ['@docs/*.md', []],
    ['@src/**', 'all'],
    ['@src/*.t?', 'all'],
    ['@bad ref', []],
  ])('%s', (ref, ids) => {
    const got = outlineLanguages(ref).map((l) => l.id);
    if (ids === 'all') expect(got.length).toBe(13);
    else expect(got).toEqual(ids);
  });
});

describe('the docs show what --outline prints', () => {
  it('docs/refs.md#outlines---outline', async () => {
    const store = [
      "import { save } from './disk.js';",
      '',
      '/** Items kept in memory, saved on demand. */',
      'export class Store {',
      '  private items: string[] = [];',
      '',
      '  /** Adds an item; returns how many there are. */',
      '  add(item: string): number {',
      '    this.items.push(item);',
      '    return this.items.length;',
      '  }',
      '',
      '  save(path: string): Promise<void> {',
      "    return save(path, this.items.join('\\n'));",
      '  }',
      '}',
      '',
      'export function load(path: string): Store {',
      '  const store = new Store();',
      '  // ...',
      '  return store;',
      '}',
      '',
    ].join('\n');
    const dir = tmpDir({ 'src/store.ts': store });
    const r = await run(dir, '@src/**/*.ts', '--outline');
    const doc = fs.readFileSync(path.join(REPO, 'docs/refs.md'), 'utf8');
    const block = /````sh\n\$ refcat '@src\/\*\*\/\*\.ts' --outline --no-cwd\n([\s\S]*?)````\n/.exec(doc);
    expect(block?.[1]).toBe(r.stdout);
  });
});
