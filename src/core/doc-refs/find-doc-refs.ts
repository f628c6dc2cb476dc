import { utf8Of } from '../../shared/byte-text.js';
import { findPatternEnd, isSymbolSelector } from '../ref-spec/parse-ref-spec.js';
import { symbolLanguageOf } from '../symbols/languages.js';

/**
 * Finding refs in documentation text (docs/reference.md#verify-refs): `@path.ext[#selector]` and `alias:path.ext`,
 * without the look-alikes that fill real docs. Pure: text in, refs out. The rules (also in the
 * docs/reference.md#what-verify-refs-counts-as-a-ref):
 *
 * - A ref starts at the beginning of a line or after whitespace or one of ( [ { < " ' ` * _ ~ > | , ; =
 *   so `user@example.com`, `pkg@1.2.3`, `actions/checkout@v4`, `a.md:12` and `x.y:z` never start one.
 * - URLs (`scheme://...`), `mailto:` and e-mail addresses are blanked out before looking.
 * - The last path segment must end in a known file extension (KNOWN_EXTENSIONS): `@param`,
 *   `@returns`, `@dataclass`, `@pytest.fixture`, `@app.route`, `@types/node`, `@1.2.3` are not refs.
 * - `alias@REV:path` and `.@REV:path` (a revision ref) only when the alias is known: so
 *   `git@github.com:org/repo.git` and `bob@example.com:notes.md` stay prose.
 * - `alias:path`: the path must not start with `/` or `\` (URL-like, Windows drive), nor be a port
 *   (`localhost:8080/x.html`); the alias must not be a URL scheme or a git revision (`HEAD:`); and
 *   unless the alias is known, the path must hold a `/`, or the ref a selector, or
 *   `reportUnknownAlias` say the name may be a typo (`key:value.txt` is YAML, not a ref); `alias:`,
 *   `project:` and `extract:` are placeholders unless defined.
 * - Placeholders are skipped: a `path/to/` folder, `...` or `…` anywhere, and a
 *   bare `file.*`, `filename.*`, `foo.*`, `bar.*`, `baz.*`, `xxx.*`, `example.*`.
 * - Markdown: fenced code blocks (``` or ~~~) are examples and are skipped; inline code is not
 *   (`see \`loop:Sources/A.swift\``) is how docs cite code. A `#fragment` that is not a selector
 *   (`@docs/GUIDE.md#install`) is a heading anchor: the file is checked, the anchor is not.
 * - Trailing punctuation (`.,:;!?`) and markdown emphasis and strikethrough (`*`, `_`, `~`) after a
 *   ref are not part of it (`~~@old.py~~`; an overload's `~2` ends in a digit and stays).
 * - Lines between `verify-refs: off` and `verify-refs: on` (in any comment, e.g.
 *   `<!-- verify-refs: off -->`) are not scanned: the way to keep syntax examples in docs.
 */

export interface DocRef {
  /** 1-based line. */
  line: number;
  /** The ref as written (without trailing punctuation). */
  text: string;
  /** What is checked: `text` without a heading anchor, `@` or `alias:` kept. */
  ref: string;
}

export interface ScanOptions {
  /** Markdown rules (fenced code blocks are skipped): .md files, and .txt (often markdown too). */
  markdown: boolean;
  /** Whether an alias name is defined (explicit, workspace or global). */
  isKnownAlias: (name: string) => boolean;
  /**
   * With markdown: the fenced blocks as a CommonMark parser found them (0-based lines, end
   * exclusive), used instead of the line rule for fences.
   */
  fenced?: readonly { open: number; end: number }[];
  /**
   * Whether an undefined alias still makes `alias:file.ext` (no folder, no selector) a ref, to be
   * reported: a near miss of a defined alias, or a workspace that sets up aliases. Default: no.
   */
  reportUnknownAlias?: (name: string) => boolean;
  /**
   * `text` is byte text (shared/byte-text.ts): a line is scanned decoded, and the refs found are
   * the ones a scan of the decoded text finds.
   */
  bytes?: boolean;
}

/** Extensions a ref's file may have (lower case). */
export const KNOWN_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    'md markdown mdx txt rst adoc conv yaml yml json jsonc json5 toml ini cfg conf env lock xml html htm ' +
    'css scss sass less js jsx mjs cjs ts tsx mts cts vue svelte py pyi ipynb rb go rs swift kt kts java ' +
    'scala groovy gradle c h cc cpp cxx hpp hh m mm cs fs php pl pm lua r sql sh bash zsh fish ps1 bat ' +
    'proto graphql gql tf hcl nix ex exs erl hs ml dart jl csv tsv svg png jpg jpeg gif pdf log patch ' +
    'diff plist xcconfig pbxproj storyboard xib csproj sln properties mk cmake dockerfile'
  ).split(' '),
);

/** Region markers, in any comment syntax: `<!-- verify-refs: off -->` ... `<!-- verify-refs: on -->`. */
export const MARKER_OFF = 'verify-refs: off';
export const MARKER_ON = 'verify-refs: on';

/**
 * The region marker a line holds (`off`, `on`; both read as `on`, as the later word wins), or null.
 * A marker counts outside inline code only: `` `<!-- verify-refs: off -->` `` in prose shows one,
 * as one in a fenced block does (callers leave fenced lines out).
 */
export function regionMarker(line: string): 'off' | 'on' | null {
  if (!line.includes('verify-refs: o')) return null;
  const bare = line.includes('`') ? withoutInlineCode(line) : line;
  if (bare.includes(MARKER_ON)) return 'on';
  return bare.includes(MARKER_OFF) ? 'off' : null;
}

/**
 * The line with its inline code spans blanked: a run of N backticks opens one, and the next run of
 * exactly N closes it; a run no such run follows is text (CommonMark's rule). One pass over the
 * rest of the line for each run that never closes, and there is at most one such run of each length.
 */
function withoutInlineCode(line: string): string {
  let out = '';
  let from = 0;
  let i = line.indexOf('`');
  while (i !== -1) {
    const open = runEnd(line, i) - i;
    let close = line.indexOf('`', i + open);
    while (close !== -1 && runEnd(line, close) - close !== open) close = line.indexOf('`', runEnd(line, close));
    if (close === -1) {
      i = line.indexOf('`', i + open);
      continue;
    }
    out += line.slice(from, i);
    from = close + open;
    i = line.indexOf('`', from);
  }
  return out + line.slice(from);
}

function runEnd(line: string, i: number): number {
  while (line.charCodeAt(i) === 96) i++;
  return i;
}
const FENCE_RE = /^ {0,3}(`{3,}|~{3,})/;
/** URLs, `mailto:` and e-mail addresses: blanked out (same length) before a line is scanned. */
const URL_RE = /\b[A-Za-z][A-Za-z0-9+.-]*:\/\/\S*|\bmailto:\S+|\b[A-Za-z0-9][\w.+-]*@[\w-]+(?:\.[\w-]+)+/g;
const NOT_ALIASES = new Set([
  'http', 'https', 'ftp', 'ftps', 'file', 'mailto', 'data', 'javascript', 'tel', 'urn', 'git', 'ssh',
  's3', 'gs', 'HEAD', 'FETCH_HEAD', 'ORIG_HEAD', 'MERGE_HEAD',
]); // prettier-ignore
/** Words docs use as a stand-in alias (`alias:example/path.md`): not refs unless defined as aliases. */
export const PLACEHOLDER_ALIASES: ReadonlySet<string> = new Set(['alias', 'project', 'extract']);
const PLACEHOLDER_STEMS = new Set(['file', 'filename', 'foo', 'bar', 'baz', 'xxx', 'example']);

// Character classes, as flags per UTF-16 code unit below 128 (above it only whitespace matters).
const BODY = 1; // may be part of a ref: not whitespace, quotes, brackets, `|`, `,`, `;`
const BEFORE = 2; // a ref may directly follow it: whitespace or ( [ { < " ' ` * _ ~ > | , ; =
const NAME = 4; // may be part of an alias name: A-Z a-z 0-9 _ -
const LETTER = 8; // may start an alias name
const AFTER_COLON = 16; // may follow an alias's `:` in a ref: a body character but / \ :
const CLASS = new Uint8Array(128);
for (let c = 33; c < 127; c++) CLASS[c] = BODY | AFTER_COLON;
for (const ch of '`\'"<>()[]{}|,;') CLASS[ch.charCodeAt(0)]! &= ~(BODY | AFTER_COLON);
for (const ch of '/\\:') CLASS[ch.charCodeAt(0)]! &= ~AFTER_COLON;
for (const ch of ' \t\n\v\f\r([{<"\'`*_~>|,;=') CLASS[ch.charCodeAt(0)]! |= BEFORE;
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz') CLASS[ch.charCodeAt(0)]! |= NAME | LETTER;
for (const ch of '0123456789_-') CLASS[ch.charCodeAt(0)]! |= NAME;

/** JavaScript's `\s` above ASCII. */
function isWideSpace(c: number): boolean {
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}
const classOf = (c: number): number => (c < 128 ? CLASS[c]! : isWideSpace(c) ? BEFORE : BODY | AFTER_COLON);
/** Class of `s[i]`, 0 past either end. */
const classAt = (s: string, i: number): number => (i < s.length ? classOf(s.charCodeAt(i)) : 0);
/** Class of byte text's `s[i]`: above ASCII, a ref character (shared/byte-text.ts). */
const byteClassAt = (s: string, i: number): number => (i < s.length ? byteClassOf(s.charCodeAt(i)) : 0);
const byteClassOf = (c: number): number => (c < 128 ? CLASS[c]! : BODY | AFTER_COLON);

/** A ref found in one line: `at` is the 0-based column (UTF-16 code units) of its `@` or alias. */
export interface LineRef {
  text: string;
  ref: string;
  at: number;
}

/**
 * The refs in a text, line by line. Most lines hold no ref: a line is scanned only when an `@` or an
 * `alias:` start lies in it, found for the whole text with `indexOf`, so a line without one costs a
 * few character reads.
 */
export function findDocRefs(text: string, options: ScanOptions): DocRef[] {
  return scanText(text, oneShape(options));
}

/**
 * Scan options in one shape, whatever the caller passed: V8 compiles the scan for the shapes it
 * has seen, and a new one throws the compiled scan away (80-90 ms to compile again).
 */
function oneShape(o: ScanOptions): Scan {
  return { markdown: o.markdown, isKnownAlias: o.isKnownAlias, fenced: o.fenced, reportUnknownAlias: o.reportUnknownAlias, bytes: o.bytes ?? false };
}

/** ScanOptions with every key present. */
interface Scan {
  markdown: boolean;
  isKnownAlias: (name: string) => boolean;
  fenced: ScanOptions['fenced'] | undefined;
  reportUnknownAlias: ScanOptions['reportUnknownAlias'] | undefined;
  bytes: boolean;
}

function scanText(text: string, options: Scan): DocRef[] {
  const refs: DocRef[] = [];
  // In byte text a character above ASCII is one byte of a wider one: it is taken as a ref
  // character (the widest reading), and the line, decoded, says what it is.
  const bytes = options.bytes;
  const classHere = bytes ? byteClassAt : classAt;
  let at = text.indexOf('@');
  let colon = text.indexOf(':');
  if (at === -1 && colon === -1) return refs;
  const markers = text.includes('verify-refs: o');
  let fence: string | null = null;
  let off = false;
  const fenced = options.markdown ? options.fenced : undefined;
  let nextBlock = 0;
  let lineNo = 0;
  for (let start = 0; start <= text.length; ) {
    lineNo++;
    if (at !== -1 && at < start) at = text.indexOf('@', start);
    if (colon !== -1 && colon < start) colon = text.indexOf(':', start);
    if (at === -1 && colon === -1) break;
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const next = end + 1;
    if (text.charCodeAt(end - 1) === 13 && end > start) end--;
    // Fenced code first: a marker shown in a fence is an example of one, not a marker.
    let code = fence !== null;
    if (fenced) {
      const i = lineNo - 1;
      while (nextBlock < fenced.length && fenced[nextBlock]!.end <= i) nextBlock++;
      code = nextBlock < fenced.length && fenced[nextBlock]!.open <= i;
    } else if (options.markdown && mayBeFence(text, start, end)) {
      const raw = text.slice(start, end);
      const line = bytes ? utf8Of(raw) : raw;
      const m = FENCE_RE.exec(line);
      if (fence !== null) {
        if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && line.trim() === m[1]) fence = null;
      } else if (m) {
        fence = m[1]!;
        code = true;
      }
    }
    if (markers && !code) {
      const marker = regionMarker(text.slice(start, end));
      if (marker !== null) {
        off = marker === 'off';
        start = next;
        continue;
      }
    }
    if (!code && !off) {
      // Is there an `@` followed by a ref character, or an alias name's last character, `:`, and a
      // character a ref's path may start with?
      while (at !== -1 && at < end && !(classHere(text, at + 1) & BODY)) at = text.indexOf('@', at + 1);
      let candidate = at !== -1 && at < end;
      if (!candidate) {
        while (colon !== -1 && colon < end && !(colon > start && classOf(text.charCodeAt(colon - 1)) & NAME && classHere(text, colon + 1) & AFTER_COLON)) {
          colon = text.indexOf(':', colon + 1);
        }
        candidate = colon !== -1 && colon < end;
      }
      if (candidate) {
        const line = text.slice(start, end);
        for (const r of lineRefs(bytes ? utf8Of(line) : line, options)) refs.push({ line: lineNo, text: r.text, ref: r.ref });
      }
    }
    start = next;
  }
  return refs;
}

/** Whether the line may open or close a fence: a backtick or tilde after at most 3 spaces. */
function mayBeFence(text: string, start: number, end: number): boolean {
  let i = start;
  while (i < end && i - start < 3 && text.charCodeAt(i) === 32) i++;
  const c = text.charCodeAt(i);
  return i < end && (c === 96 || c === 126);
}

/**
 * The refs in one line (no line break), in the order they start. For a caller that already has
 * the line: a citation's comment, an editor's current line.
 */
export function refsInLine(line: string, options: ScanOptions): LineRef[] {
  return lineRefs(line, oneShape(options));
}

function lineRefs(line: string, options: Scan): LineRef[] {
  const mayHoldUrl = line.includes('@') || line.includes('://') || line.includes('mailto:');
  // Revision refs first: `trio@v0.2.5:x.swift` has an e-mail address's shape, which is blanked next.
  const revRefs = mayHoldUrl ? revisionRefsIn(line, options) : [];
  let scanned = mayHoldUrl ? line.replace(URL_RE, (s) => ' '.repeat(s.length)) : line;
  for (const r of revRefs) scanned = scanned.slice(0, r.at) + ' '.repeat(r.text.length) + scanned.slice(r.at + r.text.length);
  const atRefs = atRefsIn(scanned, options);
  const aliasRefs = aliasRefsIn(scanned, options);
  if (aliasRefs.length === 0 && revRefs.length === 0) return atRefs;
  if (atRefs.length === 0 && revRefs.length === 0) return aliasRefs;
  return [...atRefs, ...aliasRefs, ...revRefs].sort((a, b) => a.at - b.at);
}

/** `name@rev:` at the start of a line or after a BEFORE character: the revision grammar of docs/refs.md#revision-refs. */
const REVISION_START = /(?<=^|[\s([{<"'`*_~>|,;=])([A-Za-z][\w-]*|\.)@([A-Za-z0-9._/-]+(?:[~^][0-9]*)*):/g;

/**
 * `alias@REV:path` and `.@REV:path` refs: only where the name is a known alias or `.`, so that
 * `git@github.com:org/repo.git` and e-mail addresses stay prose (docs/refs.md#revision-refs).
 */
function revisionRefsIn(line: string, options: Scan): LineRef[] {
  const found: LineRef[] = [];
  for (const m of line.matchAll(REVISION_START)) {
    const name = m[1]!;
    if (name !== '.' && (NOT_ALIASES.has(name) || !options.isKnownAlias(name))) continue;
    const from = m.index + m[0].length;
    if (!(classAt(line, from) & AFTER_COLON)) continue;
    const body = trimTail(withPattern(line, from, line.slice(from, bodyEnd(line, from))));
    const ref = checked(body, 0);
    if (ref !== null) found.push({ text: m[0] + body, ref: m[0] + ref, at: m.index });
  }
  return found;
}

/** Where a ref's body ends: the first character that cannot be part of a ref. */
function bodyEnd(line: string, from: number): number {
  let i = from;
  while (i < line.length && classOf(line.charCodeAt(i)) & BODY) i++;
  return i;
}

/** `@path[#selector]` refs: an `@` at the start or after a BEFORE character, then the body. */
function atRefsIn(line: string, options: Scan): LineRef[] {
  const found: LineRef[] = [];
  for (let i = line.indexOf('@'); i !== -1; ) {
    if (!(classAt(line, i + 1) & BODY) || (i > 0 && !(classOf(line.charCodeAt(i - 1)) & BEFORE))) {
      i = line.indexOf('@', i + 1);
      continue;
    }
    const end = bodyEnd(line, i + 1);
    const body = trimTail(withPattern(line, i + 1, line.slice(i + 1, end)));
    const alias = aliasPrefix(body);
    const ref = checked(body, alias === null ? 0 : alias.length + 1);
    if (ref !== null && !(alias !== null && isPlaceholderAlias(alias, options))) found.push({ text: '@' + body, ref: '@' + ref, at: i });
    i = line.indexOf('@', end);
  }
  return found;
}

/** The alias of an `@alias:path` body, or null. */
function aliasPrefix(body: string): string | null {
  if (!(classAt(body, 0) & LETTER)) return null;
  let i = 1;
  while (i < body.length && classOf(body.charCodeAt(i)) & NAME) i++;
  const after = body[i + 1];
  return body[i] === ':' && after !== '/' && after !== '\\' ? body.slice(0, i) : null;
}

/**
 * `alias:path` refs. The alias is the longest name ending at a `:` that starts with a letter at
 * the start of the line or after a BEFORE character; matches do not overlap (a rejected one, like
 * `localhost:8080/x`, is skipped whole).
 */
function aliasRefsIn(line: string, options: Scan): LineRef[] {
  const found: LineRef[] = [];
  let from = 0;
  for (let colon = line.indexOf(':'); colon !== -1; ) {
    if (!(classAt(line, colon + 1) & BODY)) {
      colon = line.indexOf(':', colon + 1);
      continue;
    }
    let s = colon;
    while (s > from && classOf(line.charCodeAt(s - 1)) & NAME) s--;
    while (s < colon && !(classOf(line.charCodeAt(s)) & LETTER && (s === 0 || classOf(line.charCodeAt(s - 1)) & BEFORE))) s++;
    if (s === colon) {
      colon = line.indexOf(':', colon + 1);
      continue;
    }
    const end = bodyEnd(line, colon + 1);
    from = end;
    const alias = line.slice(s, colon);
    const rest = line.slice(colon + 1, end);
    colon = line.indexOf(':', end);
    if (NOT_ALIASES.has(alias) || !(classOf(rest.charCodeAt(0)) & AFTER_COLON) || isPort(rest)) continue;
    const body = trimTail(withPattern(line, s + alias.length + 1, rest));
    if (!options.isKnownAlias(alias)) {
      if (PLACEHOLDER_ALIASES.has(alias)) continue;
      // Unknown: a ref only where a reader would mean one (docs/reference.md#what-verify-refs-counts-as-a-ref).
      const hash = body.indexOf('#');
      const inFolder = (hash === -1 ? body : body.slice(0, hash)).includes('/');
      if (!inFolder && !(hash !== -1 && isSelector(body.slice(hash + 1))) && !options.reportUnknownAlias?.(alias)) continue;
    }
    const ref = checked(body, 0);
    if (ref !== null) found.push({ text: `${alias}:${body}`, ref: `${alias}:${ref}`, at: s });
  }
  return found;
}

function isPlaceholderAlias(alias: string, options: Scan): boolean {
  return PLACEHOLDER_ALIASES.has(alias) && !options.isKnownAlias(alias);
}

/** `8080/x.html`, `6379`: a port, not a path. */
function isPort(rest: string): boolean {
  let i = 0;
  while (i < rest.length && rest.charCodeAt(i) >= 48 && rest.charCodeAt(i) <= 57) i++;
  return i > 0 && (i === rest.length || rest.charCodeAt(i) === 47);
}

/** A line range (`L10`, `L-5`) or a pattern (`/re/`), not a heading anchor. */
function isSelector(selector: string): boolean {
  return selector[0] === '/' || (selector[0] === 'L' && (selector[1] === '-' || (selector[1]! >= '0' && selector[1]! <= '9')));
}

/**
 * Drop trailing punctuation and emphasis (`see @a.md.`), keeping the `..` that ends a relative
 * window (`#L50:-10..`) and the `/` that closes a pattern.
 */
function trimTail(body: string): string {
  let end = body.length;
  for (;;) {
    while (end > 0 && TRAILING.includes(body[end - 1]!)) end--;
    // One `.` goes, and what stands before it is trimmed again; `..` stays.
    if (end > 0 && body[end - 1] === '.' && !(end > 1 && body[end - 2] === '.')) end--;
    else break;
  }
  return end === body.length ? body : body.slice(0, end);
}
const TRAILING = ',:;!?*_~';

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
  const fragment = body.slice(hash + 1);
  // A name is a symbol ref in a file with a grammar; elsewhere (`@docs/GUIDE.md#install`) a heading anchor.
  return isSelector(fragment) || (symbolLanguageOf(refPath) !== null && isSymbolSelector(fragment)) ? body : body.slice(0, hash);
}

function isPlaceholder(refPath: string, stem: string): boolean {
  // sdqctl's placeholder is `path/to/`; a folder named `path` alone is a folder (`unknown:path/file.py` is a ref).
  if (/(?:^|\/)path\/to\//.test(refPath)) return true;
  if (refPath.includes('...') || refPath.includes('…')) return true;
  return !refPath.includes('/') && PLACEHOLDER_STEMS.has(stem.toLowerCase());
}
