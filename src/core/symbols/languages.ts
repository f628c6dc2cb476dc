import path from 'node:path';

/**
 * Which files symbol refs can read (docs/symbols.md#languages): one row per grammar, the file
 * extensions it reads, its wasm file in tree-sitter-wasms and its definitions query in
 * ./queries/<id>.scm. Adding a language is adding a row and a query file.
 */
export interface SymbolLanguage {
  /** Also the query file's name, unless `query` names another grammar's. */
  id: string;
  /** The query file of a grammar whose nodes this one shares (TSX reads TypeScript's query). */
  query?: string;
  /** The grammar's file in tree-sitter-wasms/out/. */
  wasm: string;
  extensions: readonly string[];
  /**
   * How an outline reads its declarations (docs/refs.md#outlines---outline): `statementBodies` where a
   * body is its statements (an indented block, or closed by `end`) rather than a bracket that
   * opens on the signature's line; `docstrings` where a body's first string is its doc comment.
   * A type's body lines no member holds are code left out with a marker, unless they are comments
   * (`lineComment`, `//` by default, or a block comment's) or `structure` (access specifiers,
   * conditional compilation), which are kept as they are.
   */
  outline?: { statementBodies?: boolean; docstrings?: boolean; lineComment?: string; structure?: RegExp };
  /**
   * Compile the definitions query with the type tests of nodes in fields moved out of it
   * (type-tests.ts): where tree-sitter's analysis of those tests is most of a symbol ref's time.
   * Elsewhere the extra matches it lets through cost more than the analysis saves.
   */
  moveTypeTests?: boolean;
  /**
   * Read the definitions query without compiling it for a process's first files (query-walk.ts):
   * where compiling costs more than walking a file does. Measured on 50 KB files, compile and
   * match against the walk, fastest of 5: Swift 119-144 against 67-73 ms, C++ 104-115 against
   * 71-103; elsewhere the walk was not clearly faster (docs/symbols.md#cost).
   */
  walkQuery?: boolean;
}

/** A TypeScript index signature (`[key: string]: number;`): part of a type's shape, kept. */
const INDEX_SIGNATURE = /^\s*(readonly\s+)?\[\s*[\w$]+\s*:[^\]]+\]\s*\??:/;

/** Conditional compilation in C's preprocessor: kept in an outline, as it says which members are there. */
const PREPROCESSOR = /^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b/;

export const SYMBOL_LANGUAGES: readonly SymbolLanguage[] = [
  { id: 'typescript', wasm: 'tree-sitter-typescript.wasm', extensions: ['ts', 'mts', 'cts'], outline: { structure: INDEX_SIGNATURE } },
  { id: 'tsx', wasm: 'tree-sitter-tsx.wasm', extensions: ['tsx'], query: 'typescript', outline: { structure: INDEX_SIGNATURE } },
  { id: 'javascript', wasm: 'tree-sitter-javascript.wasm', extensions: ['js', 'jsx', 'mjs', 'cjs'] },
  { id: 'python', wasm: 'tree-sitter-python.wasm', extensions: ['py', 'pyi'], outline: { statementBodies: true, docstrings: true, lineComment: '#' } },
  { id: 'swift', wasm: 'tree-sitter-swift.wasm', extensions: ['swift'], moveTypeTests: true, walkQuery: true, outline: { structure: /^\s*#(if|elseif|else|endif)\b/ } },
  { id: 'kotlin', wasm: 'tree-sitter-kotlin.wasm', extensions: ['kt', 'kts'], outline: { structure: /^\s*((private|internal|public|protected|actual|expect)\s+)*companion\s+object\b/ } },
  { id: 'java', wasm: 'tree-sitter-java.wasm', extensions: ['java'] },
  { id: 'go', wasm: 'tree-sitter-go.wasm', extensions: ['go'] },
  { id: 'rust', wasm: 'tree-sitter-rust.wasm', extensions: ['rs'] },
  { id: 'c', wasm: 'tree-sitter-c.wasm', extensions: ['c', 'h'], outline: { structure: PREPROCESSOR } },
  { id: 'cpp', wasm: 'tree-sitter-cpp.wasm', extensions: ['cpp', 'cc', 'cxx', 'hpp', 'hh', 'hxx'], moveTypeTests: true, walkQuery: true, outline: { structure: /^\s*((public|private|protected)\s*:\s*$|#\s*(if|ifdef|ifndef|elif|else|endif)\b|(inline\s+)?namespace\s*\{)/ } },
  { id: 'c_sharp', wasm: 'tree-sitter-c_sharp.wasm', extensions: ['cs'], outline: { structure: /^\s*#\s*(if|elif|else|endif|region|endregion|pragma|nullable)\b/ } },
  { id: 'ruby', wasm: 'tree-sitter-ruby.wasm', extensions: ['rb'], outline: { statementBodies: true, lineComment: '#', structure: /^\s*(private|protected|public|module_function)\s*$/ } },
];

const BY_EXTENSION = new Map(SYMBOL_LANGUAGES.flatMap((l) => l.extensions.map((e) => [e, l] as const)));

/**
 * What only C++ writes, in a `.h` file: GitHub Linguist's heuristics for `.h` (a C++ standard
 * header, `template <`, `class` or `namespace` and a name, `public:`, `try`, `catch (`, `std::`),
 * and more that no C header holds: `enum class`, a `using` alias, `virtual`, `explicit` or
 * `friend` at the start of a line, a base class, `constexpr`, `noexcept`, `nullptr`, an
 * `operator` declared, a `const` member function. A header that holds none of it is read as C
 * (a C header's `#if __cplusplus >= 201103L` is for its C++ readers: C, still). C++'s grammar reads
 * most C, but a C header that declares through macros (`API(int) f(void);`) reads better as C; a
 * C++ header read as C lists nonsense.
 */
const CPP_IN_HEADER = new RegExp(
  [
    String.raw`^[ \t]*#[ \t]*include[ \t]*<(cstdint|string|vector|map|list|array|bitset|queue|stack|forward_list|unordered_map|unordered_set|(i|o|io)stream)>`,
    String.raw`^[ \t]*template[ \t]*<`,
    String.raw`^[ \t]*try\b`,
    String.raw`^[ \t]*catch[ \t]*\(`,
    String.raw`^[ \t]*(class|(using[ \t]+)?namespace)[ \t]+\w+`,
    String.raw`^[ \t]*(private|public|protected):[ \t]*$`,
    String.raw`__has_cpp_attribute`,
    String.raw`std::\w+`,
    String.raw`^[ \t]*enum[ \t]+(class|struct)\b`,
    String.raw`^[ \t]*using[ \t]+\w+[ \t]*=`,
    String.raw`^[ \t]*(virtual|explicit|friend)\b`,
    String.raw`^[ \t]*(struct|class)[ \t]+\w+[ \t]*(final[ \t]*)?:[ \t]*(public|private|protected|virtual)\b`,
    String.raw`\b(constexpr|noexcept|nullptr)\b`,
    String.raw`\boperator[ \t]*([-+*/%^&|~!=<>,]|\[\]|\(\))`,
    String.raw`\)[ \t]*const[ \t]*(override[ \t]*)?[;{]`,
  ].join('|'),
  'm',
);

/**
 * The grammar that reads `file`, by its extension (case-insensitive), or null. A `.h` file is C,
 * or C++ when its `text` says so (CPP_IN_HEADER): a caller that parses the file passes its text.
 */
export function symbolLanguageOf(file: string, text?: string): SymbolLanguage | null {
  const ext = path.extname(file).slice(1).toLowerCase();
  if (ext === 'h' && text !== undefined && CPP_IN_HEADER.test(text)) return BY_EXTENSION.get('hpp')!;
  return ext ? (BY_EXTENSION.get(ext) ?? null) : null;
}

/** The grammars that may read `file` before its text is read (a `.h` file's C and C++): those to load. */
export function symbolLanguagesOf(file: string): SymbolLanguage[] {
  const language = symbolLanguageOf(file);
  if (!language) return [];
  return path.extname(file).toLowerCase() === '.h' ? [language, BY_EXTENSION.get('hpp')!] : [language];
}

/** `.ts, .tsx, .js, …`: where symbol refs work, for messages. */
export function symbolExtensions(): string {
  return SYMBOL_LANGUAGES.flatMap((l) => l.extensions.map((e) => `.${e}`)).join(', ');
}

/** Files larger than this are not parsed (the wasm heap grows with the largest file and stays grown). */
export const MAX_SYMBOL_FILE_BYTES = 1024 * 1024;
