import { UsageError } from '../../shared/errors.js';

/**
 * One page of some content, as positions into it. Positions are opaque offsets chosen by the
 * caller: UTF-16 indices for a string (paginate.ts), byte offsets for stored bytes (scan.ts).
 */
export interface PageSpan {
  /** Offset of the page's first unit. */
  start: number;
  /** Offset one past the page's last unit. */
  end: number;
  /** First and last line the page touches (1-based; 0-0 for empty content). */
  lineStart: number;
  lineEnd: number;
  /** The page starts inside a line (the previous page cut it). */
  continued: boolean;
  /** The page ends inside a line (the next page goes on with it). */
  truncated: boolean;
}

export const DEFAULT_PAGE_SIZE = 4000;

export function checkPageSize(pageSize: number): number {
  if (!Number.isSafeInteger(pageSize) || pageSize <= 0) {
    throw new UsageError(`Invalid page size: ${pageSize} (expected a whole number > 0)`, { code: 'invalid_page_size' });
  }
  return pageSize;
}

/**
 * The line-aware pagination of docs/reference.md#fd-and-ref, as a push-driven state machine shared by every kind of
 * content (one algorithm, so a string and the same text stored as bytes page identically).
 *
 * Policy:
 * - A line owns its terminator (`\n` or `\r\n`): the newline between two lines is the last
 *   character of the first one and counts toward the page size. So pages of whole lines end with
 *   a newline, the next page starts at the next line's first character, and every character is on
 *   exactly one page (the pages' texts joined are the content).
 * - Greedy: a page takes whole lines while they fit in `pageSize` code points. A line that does
 *   not fit starts the next page; once it is alone at the start of a page and still does not fit,
 *   it is cut into pieces of exactly `pageSize` code points (the last piece shorter), and the rest
 *   of the page after its last piece is filled with whole lines again.
 * - Pages never overlap and never skip: the start of page k+1 is the end of page k, so unlike
 *   fixed windows nothing at the end of the content can become unreachable.
 *
 * The caller feeds each line in one or more pieces (a line may span read chunks) and says how many
 * code points each piece holds; `cut(from, k)` must return the offset k code points after `from`.
 */
export class PageBuilder {
  private pageStart = 0;
  private pageChars = 0;
  private pageLine = 1;
  private pageContinued = false;
  private line = 1;
  private lineStart = 0;
  private lineChars = 0;
  private pos = 0;
  /** Code points fed so far. */
  chars = 0;
  /** Pages emitted so far. */
  count = 0;

  constructor(
    readonly pageSize: number,
    private readonly emit: (span: PageSpan) => void,
  ) {
    checkPageSize(pageSize);
  }

  /**
   * Feed the next piece of the current line, from the current position to `end`, holding `chars`
   * code points; `endsLine` when the piece ends with the line's terminator.
   */
  feed(end: number, chars: number, endsLine: boolean, cut: (from: number, k: number) => number): void {
    let from = this.pos;
    let left = chars;
    while (this.pageChars + left > this.pageSize) {
      if (this.lineStart > this.pageStart) {
        // Whole lines only: the page ends where the current line starts.
        this.flush(this.lineStart, this.line - 1, false);
        this.pageChars = this.lineChars;
      } else {
        // The line is alone on this page and too long: cut it at exactly pageSize.
        const k = this.pageSize - this.pageChars;
        const at = cut(from, k);
        this.flush(at, this.line, true);
        this.pageChars = 0;
        this.lineChars += k;
        left -= k;
        from = at;
      }
    }
    this.pageChars += left;
    this.lineChars += left;
    this.chars += chars;
    this.pos = end;
    if (endsLine) {
      this.line++;
      this.lineStart = end;
      this.lineChars = 0;
    }
  }

  /** Lines seen: a final terminator does not start a new line (docs/reference.md#reading-files). */
  get totalLines(): number {
    return this.lineStart === this.pos ? this.line - 1 : this.line;
  }

  /** Emit the last page. Empty content still has one (empty) page, so page 1 always exists. */
  finish(): void {
    if (this.pos > this.pageStart) {
      this.flush(this.pos, this.totalLines, false);
    } else if (this.count === 0) {
      this.emit({ start: 0, end: 0, lineStart: 0, lineEnd: 0, continued: false, truncated: false });
      this.count++;
    }
  }

  private flush(end: number, lineEnd: number, truncated: boolean): void {
    this.emit({
      start: this.pageStart,
      end,
      lineStart: this.pageLine,
      lineEnd,
      continued: this.pageContinued,
      truncated,
    });
    this.count++;
    this.pageStart = end;
    this.pageLine = this.line;
    this.pageContinued = truncated;
  }
}
