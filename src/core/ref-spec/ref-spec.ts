/** Parsed ref specs (docs/reference.md#ref-specs). Pure data: no file has been touched to build one. */
// Why the grammar reads and prints as it does: docs/design/ref-spec.md.

/** A relative window `:B..A`: B lines before, A lines after (`null` = to end of file). */
export interface Window {
  before: number;
  after: number | null;
}

export interface RangeSelector {
  kind: 'range';
  /** 1-based first line. */
  start: number;
  /** 1-based last line, inclusive; `null` = end of file. */
  end: number | null;
  window: Window | null;
}

export type SemanticUnit = 'block' | 'function' | 'class';

/** What follows the matching line of a pattern selector. */
export type PatternExtent =
  | { kind: 'paragraph' } // `#/re/`: up to, not including, the next blank line
  | { kind: 'lines'; count: number } // `#/re/:+N`
  | { kind: 'window'; window: Window } // `#/re/:-B..+A`
  | { kind: 'semantic'; unit: SemanticUnit }; // `#/re/:block|function|class`

export interface PatternSelector {
  kind: 'pattern';
  /** The regex source exactly as written between the slashes (`\/` kept). */
  source: string;
  extent: PatternExtent;
}

/**
 * A declaration by name (docs/symbols.md): `#Store.save`, `#Store::save~2`, `#parseRef:-2..+2`.
 * Resolved by parsing the file (src/core/symbols).
 */
export interface SymbolSelector {
  kind: 'symbol';
  /** Dotted names, `::` read as `.`: `Store.save`. */
  path: string;
  /** `~N`: the N-th declaration with this path in file order (1-based); null when not given. */
  index: number | null;
  window: Window | null;
}

export type Selector = RangeSelector | PatternSelector | SymbolSelector;

export interface RefSpec {
  /** The ref as written. */
  raw: string;
  alias: string | null;
  /**
   * `alias@rev:` and `.@rev:` (docs/refs.md#refs-at-a-version): the version the path is read at,
   * as written (a full sha once read, in a printed spec). Absent: the alias's own version.
   * `alias` is `.` for the repository holding the working directory.
   */
  rev?: string;
  path: string;
  selector: Selector | null;
}

/** A concrete 1-based inclusive line range; `end < start` means an empty selection. */
export interface LineSpan {
  start: number;
  end: number;
}
