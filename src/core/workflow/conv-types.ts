/** Parsed `.conv` workflows (docs/reference.md#the-conv-format). Pure data: built from text, no file is touched. */

/** One directive, with where it was written. */
export interface ConvDirective {
  /** Upper-case name as written: `PROMPT`, `RUN`, `ON-FAILURE`, ... (always a known directive). */
  name: string;
  /**
   * The value, trimmed. Multi-line values (PROMPT, ON-CONTEXT-LIMIT-PROMPT, COMPACT-SUMMARY) are
   * the first line's value plus the following lines as written, joined by `\n`, trailing blank
   * lines dropped.
   */
  value: string;
  /** `value` as messages quote it, each secret in it redacted (docs/refs.md#secrets); absent when it holds none. */
  shownValue?: string;
  /** The file it was written in ('' when parsed from text without a file name). */
  file: string;
  /** 1-based physical line of the directive name. */
  line: number;
  /** Last line of the value (= `line` unless the value continues). */
  endLine: number;
  /**
   * Index into `ConversationFile.blocks` of the ON-FAILURE/ON-SUCCESS block the directive sits in
   * (the ON-FAILURE/ON-SUCCESS and END markers belong to their own block), or null at top level.
   */
  block: number | null;
}

export interface ConvBlock {
  kind: 'ON-FAILURE' | 'ON-SUCCESS';
  file: string;
  /** Line of the ON-FAILURE/ON-SUCCESS marker. */
  line: number;
  /** Line of the closing END, or null when the block is never closed. */
  endLine: number | null;
  /** The RUN the block belongs to (the last top-level RUN before it), or null if there is none. */
  run: ConvDirective | null;
}

export type ConvSeverity = 'error' | 'warning';

/** Something wrong with the text itself, found while parsing or loading INCLUDEs. */
export interface ConvProblem {
  severity: ConvSeverity;
  /** unknown_directive | orphan_text | block_structure | include_not_found | include_cycle | include_unreadable */
  code: string;
  message: string;
  details: string[];
  file: string;
  /** 1-based line, or null for a finding about the whole file. */
  line: number | null;
}

export interface ConversationFile {
  /** The top-level file ('' for text parsed without a file name). */
  path: string;
  /** Every directive in order; an INCLUDE is followed by the directives of the included file. */
  directives: ConvDirective[];
  blocks: ConvBlock[];
  /** Every file read, the top-level file first, then included files in the order met. */
  files: string[];
  problems: ConvProblem[];
}
