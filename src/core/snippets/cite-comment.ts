/**
 * The line-comment syntax `--cite` writes a citation's ref in, by fence language
 * (docs/refs.md#writing-citations---cite). Keys are the languages refcat names fences with
 * (docs/reference.md#extraction-output), and the extensions it uses as names for the rest; each
 * syntax is one `verify refs` reads back as a citation. Any other language gets `//`.
 */
export const CITE_COMMENTS: readonly { open: string; close: string; what: string; languages: readonly string[] }[] = [
  { open: '//', close: '', what: 'C-family, JS/TS, Swift, Kotlin, Go, Rust, Java', languages: ['c', 'cpp', 'cs', 'javascript', 'typescript', 'swift', 'kotlin', 'go', 'rust', 'java'] },
  { open: '#', close: '', what: 'Python, shell, Ruby, YAML, TOML, R, Perl', languages: ['python', 'bash', 'sh', 'zsh', 'ruby', 'yaml', 'toml', 'r', 'perl', 'pl', 'pm'] },
  { open: '--', close: '', what: 'SQL, Lua, Haskell', languages: ['sql', 'lua', 'haskell', 'hs'] },
  { open: '<!--', close: '-->', what: 'HTML, XML, markdown', languages: ['html', 'htm', 'xml', 'markdown'] },
  { open: '/*', close: '*/', what: 'CSS', languages: ['css'] },
  { open: ';', close: '', what: 'Lisp, Clojure, INI, assembly', languages: ['lisp', 'el', 'clojure', 'clj', 'cljs', 'cljc', 'edn', 'ini', 'asm', 's'] },
  { open: '%', close: '', what: 'TeX, Erlang, MATLAB', languages: ['tex', 'erlang', 'erl', 'hrl', 'matlab'] },
];

const BY_LANGUAGE = new Map(CITE_COMMENTS.flatMap((c) => c.languages.map((l) => [l, c] as const)));

/** The first line of a citation: `spec` as a comment of `language` (`// @src/app.ts#L3-L9`). */
export function citeComment(language: string, spec: string): string {
  const syntax = BY_LANGUAGE.get(language.toLowerCase()) ?? CITE_COMMENTS[0]!;
  return syntax.close ? `${syntax.open} ${spec} ${syntax.close}` : `${syntax.open} ${spec}`;
}
