// The <ref> section parser as it was before it was made linear (src/core/response-refs/parse-response-refs.ts),
// kept only as the reference for the differential test (test/unit/response-refs-differential.test.ts):
// its code spans searched the rest of the line for every backtick run, and each outer ref searched
// the line of every inner tag. Not used by the product.
import { codePoints } from '../../src/core/paging/paginate.js';
import type { ResponseRef, ResponseRefs } from '../../src/core/response-refs/parse-response-refs.js';
import type { Diagnostic } from '../../src/shared/errors.js';

const REF_ID = /^[A-Za-z0-9_.:-]+$/;

// An attribute: name, then optionally = and a double-quoted, single-quoted or bare value.
const ATTR = String.raw`[A-Za-z_:][-A-Za-z0-9_:.]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>\x60/]+))?`;
const TOKEN = new RegExp(
  [
    String.raw`(?<fence>^[ ]{0,3}(?:\x60{3,}|~{3,})[^\n]*$)`,
    String.raw`(?<code>(?<!\x60)(?<ticks>\x60+)(?!\x60)[^\n]*?(?<!\x60)\k<ticks>(?!\x60))`,
    String.raw`(?<close><\/ref\s*>)`,
    String.raw`(?<open><ref(?<attrs>(?:\s+${ATTR})*)\s*(?<self>\/?)>)`,
  ].join('|'),
  'gm',
);
const ATTR_ITEM = /([A-Za-z_:][-A-Za-z0-9_:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`/]+)))?/g;

interface Open {
  id: string | null;
  attributes: Record<string, string>;
  line: number;
  /** Offset just after the opening tag. */
  contentStart: number;
  /** Tags of nested refs inside this one, as [start, end) offsets: not part of the content. */
  inner: [number, number][];
  /** Offset of the opening tag (refs are listed in this order). */
  start: number;
}

/**
 * Find the `<ref id="ID">...</ref>` sections of an LLM transcript (docs/reference.md#refcat-ref-list--show--scan--export).
 *
 * - Attributes in any order, values in double or single quotes; ids are `[A-Za-z0-9_.:-]+`.
 * - Content is the text between the tags without the one newline right after the opening tag and
 *   the one right before the closing tag. Decision: spaces or tabs between the opening tag and
 *   that newline, and the indentation between that newline and an indented closing tag, go with
 *   them (they are layout, not content).
 * - Nested refs are all found; an outer ref's content keeps the inner text but not the inner tags
 *   (a tag alone on its line takes its line with it, so no blank line is left behind).
 * - A duplicate id: the last one wins, with a warning naming both lines. An unclosed tag: warning,
 *   ignored (a `</ref>` closes the innermost open ref). A `</ref>` with nothing open: warning.
 *   A self-closing `<ref ... />` (as in a ref_list) is not a section.
 * - Outside refs, fenced code blocks (``` or ~~~) are examples: tags inside them are not refs.
 *   Decision: so are inline code spans (`<ref>` in backticks), which prose about refs is full of.
 *   Inside a ref, code is content like any other text, and its tags count.
 */
export function parseResponseRefsBefore(text: string): ResponseRefs {
  // An unclosed tag is ignored (docs/reference.md#refcat-ref-list--show--scan--export), as if it were plain text. That is only known at the end
  // of the text, and an open tag changes how what follows reads (inside a ref, fences are content),
  // so parse again without the unclosed tags until none is left.
  // Each pass ignores every tag the one before left open; few texts need a second pass, and a
  // hostile one could ask for a pass per tag, so the passes are capped (MAX_PASSES).
  const ignored = new Map<number, Open>();
  const newlines = newlineOffsets(text);
  for (let passes = 1; ; passes++) {
    const pass = parsePass(text, newlines, ignored);
    if (passes === MAX_PASSES) for (const open of pass.unclosed) ignored.set(open.start, open);
    if (pass.unclosed.length === 0 || passes === MAX_PASSES) {
      const unclosed = [...ignored.values()].sort((a, b) => a.start - b.start);
      for (const open of unclosed) {
        pass.warnings.push({
          code: 'ref_unclosed',
          message: `Unclosed <ref${open.id ? ` id="${open.id}"` : ''}> at line ${open.line}: ignored`,
          details: [],
        });
      }
      return { refs: pass.refs, warnings: pass.warnings };
    }
    for (const open of pass.unclosed) ignored.set(open.start, open);
  }
}

/** Re-parses after unclosed tags are dropped; see parseResponseRefs. */
const MAX_PASSES = 4;

/**
 * Refs nested deeper than this are text of the refs around them: no answer nests so deep, and each
 * level copies its content once more, so a bound keeps parsing linear in the text's size.
 */
const MAX_REF_DEPTH = 32;

function parsePass(text: string, newlines: readonly number[], ignored: ReadonlyMap<number, Open>): ResponseRefs & { unclosed: Open[] } {
  const found = new Map<string, ResponseRef>();
  const warnings: Diagnostic[] = [];
  const stack: Open[] = [];
  let fence: { char: string; len: number } | null = null;
  const lineAt = (offset: number) => lineOf(newlines, offset);
  const warn = (code: string, message: string) => warnings.push({ code, message, details: [] });

  const openedAt = new Map<string, number>();
  // Opening tags kept as text because they were too deep; their closing tags are text too.
  let tooDeep = 0;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m !== null; m = TOKEN.exec(text)) {
    const g = m.groups!;
    const start = m.index;
    const end = start + m[0].length;
    if (g.fence !== undefined || g.code !== undefined) {
      // Inside a ref, code is content like any other text: look for tags inside it too.
      if (stack.length > 0) TOKEN.lastIndex = start + 1;
      else if (g.fence !== undefined) fence = nextFence(fence, g.fence);
      continue;
    }
    if (fence || g.self) continue; // an example in a code block; a self-closing tag is no section
    const at = lineAt(start);

    if (g.open !== undefined) {
      if (ignored.has(start)) continue;
      if (stack.length >= MAX_REF_DEPTH) {
        if (tooDeep++ === 0) warn('ref_too_deep', `<ref> nested deeper than ${MAX_REF_DEPTH} levels at line ${at}: kept as text`);
        continue;
      }
      for (const outer of stack) outer.inner.push([start, end]);
      const attributes = parseAttributes(g.attrs ?? '');
      let id: string | null = attributes.id ?? null;
      if (id === null) {
        warn('ref_no_id', `<ref> without an id at line ${at}: ignored`);
      } else if (!REF_ID.test(id)) {
        warn('ref_bad_id', `Invalid ref id '${id}' at line ${at} (ids are made of A-Z a-z 0-9 _ . : -): ignored`);
        id = null;
      }
      stack.push({ id, attributes, line: at, contentStart: end, inner: [], start });
      continue;
    }

    if (tooDeep > 0) {
      tooDeep--;
      continue;
    }
    const open = stack.pop();
    if (!open) {
      warn('ref_stray_close', `</ref> without an opening <ref> at line ${at}: ignored`);
      continue;
    }
    for (const outer of stack) outer.inner.push([start, end]);
    if (open.id === null) continue;
    const content = trimContent(withoutTags(text, open.contentStart, start, open.inner));
    const previous = found.get(open.id);
    if (previous) {
      warn('ref_duplicate', `Duplicate ref id '${open.id}' at lines ${Math.min(previous.line, open.line)} and ${Math.max(previous.line, open.line)}: the one closed last (line ${open.line}) wins`);
    }
    found.set(open.id, {
      id: open.id,
      content,
      line: open.line,
      endLine: at,
      lines: lineCount(content),
      chars: codePoints(content),
      attributes: open.attributes,
    });
    openedAt.set(open.id, open.start);
  }
  const refs = [...found.values()].sort((a, b) => openedAt.get(a.id)! - openedAt.get(b.id)!);
  return { refs, warnings, unclosed: stack };
}

function newlineOffsets(text: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) out.push(i);
  return out;
}

/** The 1-based line of `offset`: one more than the newlines before it (a binary search). */
function lineOf(newlines: readonly number[], offset: number): number {
  let lo = 0;
  let hi = newlines.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (newlines[mid]! < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo + 1;
}

/** Lines of content as docs/reference.md#reading-files counts them: a final newline does not start a new line. */
function lineCount(content: string): number {
  if (content === '') return 0;
  let n = 1;
  for (let i = content.indexOf('\n'); i !== -1; i = content.indexOf('\n', i + 1)) n++;
  return content.endsWith('\n') ? n - 1 : n;
}

/** Fence state after a fence-looking line (CommonMark: same character, at least as long, no info). */
function nextFence(fence: { char: string; len: number } | null, lineText: string): { char: string; len: number } | null {
  // Not `.*`: a CRLF answer's fence line ends in a CR, which `.` does not match.
  const m = /^ {0,3}(`{3,}|~{3,})([^\n]*)$/.exec(lineText)!;
  const run = m[1]!;
  if (!fence) {
    // A backtick fence's info string cannot hold a backtick.
    if (run[0] === '`' && m[2]!.includes('`')) return null;
    return { char: run[0]!, len: run.length };
  }
  return run[0] === fence.char && run.length >= fence.len && m[2]!.trim() === '' ? null : fence;
}

function parseAttributes(src: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of src.matchAll(ATTR_ITEM)) out[m[1]!] = m[2] ?? m[3] ?? m[4] ?? '';
  return out;
}

/** text[from, to) without the inner tags; a tag alone on its line goes with its line. */
function withoutTags(text: string, from: number, to: number, tags: [number, number][]): string {
  let out = '';
  let at = from;
  for (let [s, e] of tags) {
    const lineStart = text.lastIndexOf('\n', s - 1) + 1;
    const nl = text.indexOf('\n', e);
    const lineEnd = nl === -1 ? text.length : nl;
    if (/^[ \t]*$/.test(text.slice(lineStart, s)) && /^[ \t]*\r?$/.test(text.slice(e, lineEnd)) && lineStart >= at && lineEnd < to) {
      s = lineStart;
      e = lineEnd + 1;
    }
    out += text.slice(at, s);
    at = e;
  }
  return out + text.slice(at, to);
}

/** docs/reference.md#refcat-ref-list--show--scan--export: drop the one newline after the opening tag and the one before the closing tag. */
function trimContent(raw: string): string {
  return raw.replace(/^[ \t]*\r?\n/, '').replace(/\r?\n[ \t]*$/, '');
}
