// The doc-ref scanner as it was before the single-pass rewrite (src/core/doc-refs/find-doc-refs.ts),
// kept only as the reference for the differential test (test/unit/find-doc-refs-differential.test.ts):
// three look-behind regexes and a URL blanking pass on every line. Not used by the product.
import { findPatternEnd, isSymbolSelector } from '../../src/core/ref-spec/parse-ref-spec.js';
import { symbolLanguageOf } from '../../src/core/symbols/languages.js';

/**
 * Finding refs in documentation text (docs/reference.md#verify-refs): `@path.ext[#selector]` and `alias:path.ext`,
 * without the look-alikes that fill real docs. Pure: text in, refs out. The rules (also in the
 * README, "What verify refs counts as a ref"):
 *
 * - A ref starts at the beginning of a line or after whitespace or one of ( [ { < " ' ` * _ ~ > | , ; =
 *   so `user@example.com`, `pkg@1.2.3`, `actions/checkout@v4`, `a.md:12` and `x.y:z` never start one.
 * - URLs (`scheme://...`), `mailto:` and e-mail addresses are blanked out before looking.
 * - The last path segment must end in a known file extension (KNOWN_EXTENSIONS): `@param`,
 *   `@returns`, `@dataclass`, `@pytest.fixture`, `@app.route`, `@types/node`, `@1.2.3` are not refs.
 * - `alias:path`: the path must not start with `/` or `\` (URL-like, Windows drive), nor be a port
 *   (`localhost:8080/x.html`); the alias must not be a URL scheme or a git revision (`HEAD:`); and
 *   unless the alias is known, the path must hold a `/` (`key:value.txt` is YAML, not a ref).
 * - Placeholders are skipped: a `path/to/` or leading `path/` folder, `...` or `…` anywhere, and a
 *   bare `file.*`, `filename.*`, `foo.*`, `bar.*`, `baz.*`, `xxx.*`, `example.*`.
 * - Markdown: fenced code blocks (``` or ~~~) are examples and are skipped; inline code is not
 *   (`see \`loop:Sources/A.swift\``) is how docs cite code. A `#fragment` that is not a selector
 *   (`@docs/GUIDE.md#install`) is a heading anchor: the file is checked, the anchor is not.
 * - Trailing punctuation (`.,:;!?`) and markdown emphasis (`*`, `_`) after a ref are not part of it.
 * - Lines between `verify-refs: off` and `verify-refs: on` (in any comment, e.g.
 *   `<!-- verify-refs: off -->`) are not scanned: the way to keep syntax examples in docs.
 */

interface DocRef {
  /** 1-based line. */
  line: number;
  /** The ref as written (without trailing punctuation). */
  text: string;
  /** What is checked: `text` without a heading anchor, `@` or `alias:` kept. */
  ref: string;
}

interface ScanOptions {
  /** Markdown rules (fenced code blocks are skipped): .md files, and .txt (often markdown too). */
  markdown: boolean;
  /** Whether an alias name is defined (explicit, workspace or global). */
  isKnownAlias: (name: string) => boolean;
}

/** Extensions a ref's file may have (lower case). */
const KNOWN_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    'md markdown mdx txt rst adoc conv yaml yml json jsonc json5 toml ini cfg conf env lock xml html htm ' +
    'css scss sass less js jsx mjs cjs ts tsx mts cts vue svelte py pyi ipynb rb go rs swift kt kts java ' +
    'scala groovy gradle c h cc cpp cxx hpp hh m mm cs fs php pl pm lua r sql sh bash zsh fish ps1 bat ' +
    'proto graphql gql tf hcl nix ex exs erl hs ml dart jl csv tsv svg png jpg jpeg gif pdf log patch ' +
    'diff plist xcconfig pbxproj storyboard xib csproj sln properties mk cmake dockerfile'
  ).split(' '),
);

/** Characters a ref may directly follow. */
const BEFORE = `\\s([{<"'\`*_~>|,;=`;
/** Characters of a ref (stops at whitespace, quotes, brackets, `|`, `,`, `;`). */
const BODY = `[^\\s\`'"<>()\\[\\]{}|,;]+`;
const AT_RE = new RegExp(`(?<=^|[${BEFORE}])@(${BODY})`, 'g');
const ALIAS_RE = new RegExp(`(?<=^|[${BEFORE}])([A-Za-z][A-Za-z0-9_-]*):(${BODY})`, 'g');

const URL_RE = /\b[A-Za-z][A-Za-z0-9+.-]*:\/\/\S*|\bmailto:\S+|\b[A-Za-z0-9][\w.+-]*@[\w-]+(?:\.[\w-]+)+/g;
const FENCE_RE = /^ {0,3}(`{3,}|~{3,})/;
const NOT_ALIASES = new Set([
  'http', 'https', 'ftp', 'ftps', 'file', 'mailto', 'data', 'javascript', 'tel', 'urn', 'git', 'ssh',
  's3', 'gs', 'HEAD', 'FETCH_HEAD', 'ORIG_HEAD', 'MERGE_HEAD',
]); // prettier-ignore
/** Region markers, in any comment syntax: `<!-- verify-refs: off -->` ... `<!-- verify-refs: on -->`. */
const MARKER_OFF = 'verify-refs: off';
const MARKER_ON = 'verify-refs: on';
/** An inline code span: a run of backticks, closed by the next run of exactly as many. */
const INLINE_CODE = /(?<!`)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g;
const PLACEHOLDER_STEMS = new Set(['file', 'filename', 'foo', 'bar', 'baz', 'xxx', 'example']);

export function findDocRefsBefore(text: string, options: ScanOptions): DocRef[] {
  const refs: DocRef[] = [];
  let fence: string | null = null;
  let off = false;
  text.split('\n').forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    // Fences first: a marker in one is an example (as is one in inline code).
    if (options.markdown) {
      const m = FENCE_RE.exec(line);
      if (fence !== null) {
        if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && line.trim() === m[1]) fence = null;
        return;
      }
      if (m) {
        fence = m[1]!;
        return;
      }
    }
    const bare = line.replace(INLINE_CODE, '');
    if (bare.includes(MARKER_OFF)) off = true;
    if (bare.includes(MARKER_ON)) off = false;
    if (off || bare.includes(MARKER_OFF) || bare.includes(MARKER_ON)) return;
    for (const { text, ref } of refsInLine(line.replace(URL_RE, (s) => ' '.repeat(s.length)), options)) {
      refs.push({ line: i + 1, text, ref });
    }
  });
  return refs;
}

function refsInLine(line: string, options: ScanOptions): { text: string; ref: string; at: number }[] {
  const found: { text: string; ref: string; at: number }[] = [];
  for (const m of line.matchAll(AT_RE)) {
    const body = trimTail(withPattern(line, m.index + 1, m[1]!));
    const alias = /^([A-Za-z][A-Za-z0-9_-]*):(?![/\\])/.exec(body);
    const ref = checked(body, alias ? alias[0].length : 0);
    if (ref !== null) found.push({ text: '@' + body, ref: '@' + ref, at: m.index });
  }
  for (const m of line.matchAll(ALIAS_RE)) {
    const [, alias, rest] = m as unknown as [string, string, string];
    if (NOT_ALIASES.has(alias) || /^[/\\:]/.test(rest) || /^\d+(?:\/|$)/.test(rest)) continue;
    const body = trimTail(withPattern(line, m.index + alias.length + 1, rest));
    const pathPart = body.split('#')[0]!;
    if (!options.isKnownAlias(alias) && !pathPart.includes('/')) continue;
    const ref = checked(body, 0);
    if (ref !== null) found.push({ text: `${alias}:${body}`, ref: `${alias}:${ref}`, at: m.index });
  }
  return found.sort((a, b) => a.at - b.at);
}

/**
 * Drop trailing punctuation, emphasis and strikethrough (`see @a.md.`, `~~@a.md~~`), keeping the `..` that ends a relative
 * window (`#L50:-10..`) and the `/` that closes a pattern.
 */
function trimTail(body: string): string {
  const trimmed = body.replace(/[,:;!?*_~]+$/, '');
  return trimmed.endsWith('.') && !trimmed.endsWith('..') ? trimTail(trimmed.slice(0, -1)) : trimmed;
}

/**
 * A pattern selector may hold spaces (`@app.py#/def main/` in inline code): when the ref taken up
 * to the first space has an unclosed `#/`, extend it to the closing `/` if one follows on the line
 * before a space-free end (a quote, backtick, bracket, punctuation or the end of the line).
 */
function withPattern(line: string, start: number, body: string): string {
  const hash = body.indexOf('#/');
  if (hash === -1 || findPatternEnd(body.slice(hash + 1)) !== -1) return body;
  const from = start + hash + 1;
  const close = findPatternEnd(line.slice(from));
  if (close === -1) return body;
  const tail = /^(?::[^\s`'"<>()\[\]{}|,;]*)?/.exec(line.slice(from + close + 1))![0];
  const after = line[from + close + 1 + tail.length];
  if (after !== undefined && !/[\s`'")\]|,;.!?]/.test(after)) return body;
  return line.slice(start, from + close + 1 + tail.length);
}

/**
 * The ref to check for `body` (path from `pathStart` on, optional `#selector`), or null when it is
 * not a ref: no known extension, or a placeholder. A `#fragment` that is not a selector is dropped.
 */
function checked(body: string, pathStart: number): string | null {
  const hash = body.indexOf('#');
  const refPath = (hash === -1 ? body : body.slice(0, hash)).slice(pathStart);
  const base = refPath.slice(refPath.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0 || !KNOWN_EXTENSIONS.has(base.slice(dot + 1).toLowerCase())) return null;
  if (isPlaceholder(refPath, base.slice(0, dot))) return null;
  if (hash === -1) return body;
  const selector = body.slice(hash + 1);
  // What a selector is follows the product (refs by name: a name in a file with a grammar is one);
  // this scanner is the reference for how refs are found in a line, not for what they select.
  if (symbolLanguageOf(refPath) !== null && isSymbolSelector(selector)) return body;
  return /^(?:L\d|L-|\/)/.test(selector) ? body : body.slice(0, hash);
}

function isPlaceholder(refPath: string, stem: string): boolean {
  if (/(?:^|\/)path\/to\//.test(refPath)) return true;
  if (refPath.includes('...') || refPath.includes('…')) return true;
  return !refPath.includes('/') && PLACEHOLDER_STEMS.has(stem.toLowerCase());
}
