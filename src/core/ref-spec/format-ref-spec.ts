import { CONTROL_CHARS } from '../../shared/visible.js';
import type { LineSpan, PatternExtent, RefSpec, Selector, Window } from './ref-spec.js';

/**
 * Format a ref spec (docs/reference.md#ref-specs, normalized form).
 *
 * With `span`, the selector is replaced by the concrete lines it selected: `@path` for a whole
 * file (span omitted), `@path#L5` for one line, `@path#L10-L20` otherwise. Without `span`, the
 * selector is written back in canonical form (`#L10-L20:5..10`, `#/re/:+3`), so that
 * `parseRef(formatRef(x))` equals `x` up to `raw`.
 */
export function formatRef(ref: Pick<RefSpec, 'alias' | 'rev' | 'path' | 'selector'>, span?: LineSpan): string {
  const head = ref.alias ? `${ref.alias}${ref.rev === undefined ? '' : `@${ref.rev}`}:${escapePath(ref.path)}` : `@${safePath(escapePath(ref.path))}`;
  if (span) return head + formatSpan(span);
  return ref.selector ? `${head}#${formatSelector(ref.selector)}` : head;
}

/**
 * A relative path that would read as `alias:path` (`note:1.txt`) gets a `./` so that the spec
 * parses back to the same file.
 */
export function safePath(p: string): string {
  return /^[A-Za-z][A-Za-z0-9_-]*:/.test(p) && !/^[A-Za-z]:[\\/]/.test(p) ? `./${p}` : p;
}

/**
 * `#` and whitespace cannot stand in a ref's path, so a printed spec percent-encodes them (`%23`,
 * `%20`), and a `%` followed by two hex digits as `%25`: every printed spec parses back to the same
 * file (docs/reference.md#paths-with-spaces-or-). Control characters are encoded too (`%1B`): a
 * name must not move a terminal's cursor or hide text in a prompt. Other characters are written as
 * they are.
 */
export function escapePath(p: string): string {
  return MAY_ESCAPE.test(p) ? p.replace(ESCAPED, (c) => encodeURIComponent(c)) : p;
}

export function formatSpan(span: LineSpan): string {
  return span.start === span.end ? `#L${span.start}` : `#L${span.start}-L${span.end}`;
}

/** `L7` or `L7-L9`: a span as a range selector writes it (formatSpan() without the `#`). */
export function lineRange(span: LineSpan): string {
  return formatSpan(span).slice(1);
}

export function formatSelector(sel: Selector): string {
  if (sel.kind === 'range') {
    const range =
      sel.end === null ? `L${sel.start}-` : lineRange({ start: sel.start, end: sel.end });
    return sel.window ? `${range}:${formatWindow(sel.window)}` : range;
  }
  if (sel.kind === 'symbol') {
    const name = sel.index === null ? sel.path : `${sel.path}~${sel.index}`;
    return sel.window ? `${name}:${formatWindow(sel.window)}` : name;
  }
  return `/${sel.source}/${formatExtent(sel.extent)}`;
}

function formatExtent(extent: PatternExtent): string {
  switch (extent.kind) {
    case 'paragraph':
      return '';
    case 'lines':
      return `:+${extent.count}`;
    case 'window':
      return `:${formatWindow(extent.window)}`;
    case 'semantic':
      return `:${extent.unit}`;
  }
}

function formatWindow(w: Window): string {
  return `-${w.before}..${w.after === null ? '' : `+${w.after}`}`;
}

/** Normalized spec (docs/reference.md#ref-specs) of a selection: `@path`, `@path#L5`, `@path#L10-L20`, `alias:path#...`. */
export function specOf(alias: string | null, path: string, span: LineSpan | null, rev?: string): string {
  return formatRef(rev === undefined ? { alias, path, selector: null } : { alias, rev, path, selector: null }, span ?? undefined);
}

/**
 * What escapePath() may change: most paths hold none of it, and this test is several times
 * cheaper than the replace (a glob formats a ref for each of its thousands of files).
 */
const MAY_ESCAPE = new RegExp(`[#%\\s${CONTROL_CHARS}]`, 'u');
const ESCAPED = new RegExp(`#|\\s|[${CONTROL_CHARS}]|%(?=[0-9A-Fa-f]{2})`, 'gu');
