import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { declarationsOfText } from '../../src/core/symbols/declaration-table.js';
import { SYMBOL_LANGUAGES, symbolLanguageOf, symbolLanguagesOf } from '../../src/core/symbols/languages.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

// C and C++ declare an API in headers: prototypes and variables inside an include guard, an
// `#ifdef`, an `extern "C" { … }` block, a namespace or a template are declarations; a declaration
// in a function body (a local, or a constructor call that reads as a prototype) is not.

const language = (id: string) => SYMBOL_LANGUAGES.find((l) => l.id === id)!;
const rows = async (id: string, text: string) =>
  (await declarationsOfText(text, language(id))).map((d) => `${d.path} ${d.kind} ${d.startLine}-${d.endLine}`);

const C_HEADER = `#ifndef ITEM_H
#define ITEM_H
#ifdef __cplusplus
extern "C" {
#endif
typedef struct Item { struct Item *next; char name[16]; } Item;
API(Item *) item_parse(const char *text);
int item_count(const Item *item);
char *item_print(const Item *item);
extern int item_errors;
extern const char *item_version;
extern int item_table[4];
#ifdef __cplusplus
}
#endif
#endif
`;

describe('C: what a header declares, wherever the preprocessor puts it', () => {
  it('prototypes and variables in an include guard and an extern "C" block', async () => {
    expect(await rows('c', C_HEADER)).toEqual([
      'ITEM_H constant 2-2',
      'Item type 6-6',
      'Item.Item struct 6-6',
      'Item.Item.next field 6-6',
      'Item.Item.name field 6-6',
      'item_parse function 7-7',
      'item_count function 8-8',
      'item_print function 9-9',
      'item_errors variable 10-10',
      'item_version variable 11-11',
      'item_table variable 12-12',
    ]);
  });

  it("a function body's declarations are locals, even one that reads as a prototype", async () => {
    const text = `int run(void) {\n  int helper(int);\n  char *p = 0;\n#ifdef DEBUG\n  int trace(void);\n  int level;\n#endif\n  return helper(1);\n}\n`;
    expect(await rows('c', text)).toEqual(['run function 1-9']);
  });
});

describe('C: function pointers, and a header tree-sitter cannot parse whole', () => {
  it('a function pointer is a variable, a type or a field by where it is declared', async () => {
    const text = `int (*callback)(int);\ntypedef int (*handler_t)(int code, void *data);\nstruct point {\n  int x;\n  int (*dist)(struct point *other);\n};\n`;
    expect(await rows('c', text)).toEqual(['callback variable 1-1', 'handler_t type 2-2', 'point struct 3-6', 'point.x field 4-4', 'point.dist field 5-5']);
  });

  it("what tree-sitter could not parse (an extern \"C\" block split across #ifdefs) still declares: fmt's fmt-c.h", async () => {
    const text = `#ifndef FMT_C_H_
#define FMT_C_H_
#ifdef __cplusplus
extern "C" {
#endif
enum { fmt_error = -1 };
int FMT_CAPI fmt_vformat(char* buffer, size_t size, const char* fmt);
#ifdef __cplusplus
}
#endif
#ifndef __cplusplus
static inline int fmt_from_int(long long x) {
  return (int)x;
}
#endif
#endif
`;
    expect(await rows('c', text)).toEqual(['FMT_C_H_ constant 2-2', 'fmt_error enum_case 6-6', 'fmt_vformat function 7-7', 'fmt_from_int function 12-14']);
  });
});

describe('C: code a macro wraps declares nothing', () => {
  it("a test framework's `TEST(a, b) { … }` block and what tree-sitter could not parse hold locals", async () => {
    const text = `static char *p1;\nTEST(group, name)\n{\n  void *m;\n  int helper(int);\n}\nint after(void);\n`;
    expect(await rows('c', text)).toEqual(['p1 variable 1-1', 'after function 7-7']);
  });
});

describe('C++: prototypes and variables of namespaces, templates and preprocessor blocks', () => {
  it('lists them, and not the locals of function and lambda bodies', async () => {
    const text = `namespace app {
int parse(const char *text);
char *render(int n);
const std::string &name();
template <typename T> T largest(T a, T b);
#if USE_FCNTL
constexpr int open_mode = 0644;
#endif
extern "C" int c_entry(void);
auto twice = [](int x) { int y = x * 2; return y; };
void run() {
  std::string s(name);
  int helper(int);
  int local = 1;
}
}
`;
    expect(await rows('cpp', text)).toEqual([
      'app module 1-16',
      'app.parse function 2-2',
      'app.render function 3-3',
      'app.name function 4-4',
      'app.largest function 5-5',
      'app.open_mode variable 7-7',
      'app.c_entry function 9-9',
      'app.twice variable 10-10',
      'app.run function 11-15',
    ]);
  });
});

describe('C++: members and friends', () => {
  it('a member that returns a pointer or a reference is a method, defined out of its class too; a friend is not a member', async () => {
    const text = `class Gadget {
 public:
  friend void swap(Gadget &a, Gadget &b);
  static Gadget *make(int n);
  int &at(int i);
  int (*hook)(int);
};
Gadget *Gadget::make(int n) {
  return nullptr;
}
`;
    expect(await rows('cpp', text)).toEqual([
      'Gadget class 1-7',
      'Gadget.make method 4-4',
      'Gadget.at method 5-5',
      'Gadget.hook field 6-6',
      'Gadget.make method 8-10',
    ]);
  });
});

describe('a .h file is C, or C++ when its text says so', () => {
  const C = "#ifndef A_H\n#define A_H\ntypedef struct { int n; } counter;\nint count(counter *c);\n#endif\n";
  const CPP_LINES = [
    '#include <vector>',
    'template <typename T> T id(T x);',
    'class Store {',
    'namespace app {',
    'using namespace std;',
    'public:',
    'constexpr int N = 3;',
    'int n = std::max(1, 2);',
    'enum class Color { Red };',
    'using Id = int;',
    '  virtual ~Base();',
    'struct A : public B {};',
    'inline constexpr int kMax = 3;',
    'void f() noexcept;',
    'Vec operator+(const Vec &o);',
    '  float len() const;',
  ];
  // C, whatever else: what a C header writes for its C++ readers, C++'s keywords as names.
  const C_LINES = ['#if defined(__cplusplus) && __cplusplus >= 201103L', 'void *new_item(int new, int class);', 'int operator_count;', 'static int try_lock(void);'];

  it('by its text: C without any of what only C++ writes, C++ with any one of it; a .c file is C whatever it holds', () => {
    expect(symbolLanguageOf('a.h')?.id).toBe('c');
    expect(symbolLanguageOf('a.h', C)?.id).toBe('c');
    // A C header whose comment says `class` or `std::` only inside a sentence is still C.
    expect(symbolLanguageOf('a.h', `/* a class of counters */\n${C}`)?.id).toBe('c');
    for (const line of CPP_LINES) {
      expect(symbolLanguageOf('a.h', `${C}${line}\n`)?.id, line).toBe('cpp');
      expect(symbolLanguageOf('a.H', `${line}\n`)?.id, line).toBe('cpp');
      expect(symbolLanguageOf('a.c', `${C}${line}\n`)?.id, line).toBe('c');
    }
    for (const line of C_LINES) expect(symbolLanguageOf('a.h', `${C}${line}\n`)?.id, line).toBe('c');
    expect(symbolLanguagesOf('x/a.h').map((l) => l.id)).toEqual(['c', 'cpp']);
    expect(symbolLanguagesOf('a.c').map((l) => l.id)).toEqual(['c']);
  });

  it('a symbol ref, `symbols` and an outline read a C++ header named .h as C++, a C header as C', async () => {
    const dir = tmpDir({
      'store.h': 'namespace app {\nclass Store {\n public:\n  bool load(const char *path);\n  int count() const {\n    return n_;\n  }\n private:\n  int n_ = 0;\n};\n}  // namespace app\n',
      'counter.h': C,
    });
    const ref = await refcatInProcess(['@store.h#app.Store.count', '--format', 'raw'], { cwd: dir });
    expect(ref.code, ref.stderr).toBe(0);
    expect(ref.stdout).toBe('  int count() const {\n    return n_;\n  }\n');
    const listed = await refcatInProcess(['symbols', 'store.h', 'counter.h'], { cwd: dir });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/@store\.h#app\.Store\.load +L4 +method/);
    expect(listed.stdout).toMatch(/@counter\.h#count +L4 +function/);
    const outline = await refcatInProcess(['@store.h', '@counter.h', '--outline', '--format', 'raw'], { cwd: dir });
    expect(outline.code, outline.stderr).toBe(0);
    expect(outline.stdout).toContain('⋯ 2 lines: @store.h#app.Store.count');
    expect(outline.stdout).toContain('int count(counter *c);');
  });
});
