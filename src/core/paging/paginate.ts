import { DEFAULT_PAGE_SIZE, PageBuilder, type PageSpan } from './page-builder.js';

/** One page of `paginate`: its number, its text and the flags and lines of its PageSpan. */
export interface Page extends Omit<PageSpan, 'start' | 'end'> {
  /** 1-based page number. */
  page: number;
  /** The page's text; the pages' texts joined are the content. */
  text: string;
}

export interface Pagination {
  pages: Page[];
  pageSize: number;
  /** Lines of the content (docs/reference.md#reading-files: a final terminator does not start a new line). */
  totalLines: number;
  /** Unicode code points of the content. */
  chars: number;
}

export interface PaginateOptions {
  /** Page size in Unicode code points (default 4000); must be a whole number > 0. */
  pageSize?: number;
}

/**
 * Split `content` into pages, line-aware (docs/reference.md#fd-and-ref): whole lines while they fit, lines longer than
 * a page cut into page-size pieces. The newline ending a line belongs to that line and counts
 * toward the page size, so `pages.map(p => p.text).join('') === content` for any content. Throws
 * UsageError for a page size that is not a whole number > 0.
 */
export function paginate(content: string, options: PaginateOptions = {}): Pagination {
  const spans: PageSpan[] = [];
  const builder = new PageBuilder(options.pageSize ?? DEFAULT_PAGE_SIZE, (s) => spans.push(s));
  let at = 0;
  while (at < content.length) {
    const nl = content.indexOf('\n', at);
    const end = nl === -1 ? content.length : nl + 1;
    builder.feed(end, codePoints(content, at, end), nl !== -1, (from, k) => advance(content, from, k));
    at = end;
  }
  builder.finish();
  return {
    pages: spans.map((s, i) => ({
      page: i + 1,
      text: content.slice(s.start, s.end),
      lineStart: s.lineStart,
      lineEnd: s.lineEnd,
      continued: s.continued,
      truncated: s.truncated,
    })),
    pageSize: builder.pageSize,
    totalLines: builder.totalLines,
    chars: builder.chars,
  };
}

/** Code points in s[from, to): a surrogate pair counts once, a lone surrogate once. */
export function codePoints(s: string, from = 0, to = s.length): number {
  let n = to - from;
  for (let i = from; i < to - 1; i++) {
    if (isHigh(s.charCodeAt(i)) && isLow(s.charCodeAt(i + 1))) {
      n--;
      i++;
    }
  }
  return n;
}

/** The index k code points after `from`; never splits a surrogate pair. */
function advance(s: string, from: number, k: number): number {
  let i = from;
  for (let n = 0; n < k; n++) i += isHigh(s.charCodeAt(i)) && isLow(s.charCodeAt(i + 1)) ? 2 : 1;
  return i;
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
