import path from 'node:path';
import { scanText } from '../secrets/secret-scan.js';
import { isKnownDirective, MULTI_LINE_DIRECTIVES, suggestDirective } from './conv-directives.js';
import type { ConvBlock, ConvDirective, ConversationFile, ConvProblem } from './conv-types.js';

/** `NAME value`: NAME starts with an upper-case letter, then upper-case letters, digits, `-`. */
const DIRECTIVE_RE = /^([A-Z][A-Z0-9-]*)(?:\s+([\s\S]*))?$/;

/** Shortest unknown word, inside a multi-line value, that is checked for being a typo. */
const MIN_TYPO_LENGTH = 5;

export interface ParseConvOptions {
  /** File name recorded in directives and problems (default ''). */
  file?: string;
  /**
   * Whether problems may quote the file's text (default true). Off for an INCLUDEd file that is
   * no `.conv` workflow: `INCLUDE /etc/shadow` must not print its first line into a CI log.
   */
  quoteText?: boolean;
}

/**
 * Parse the text of one `.conv` workflow (docs/reference.md#the-conv-format). Pure: INCLUDE directives are kept as they
 * are (loadConv reads and splices included files). Never throws: everything wrong with the text
 * is a `problems` entry with its line.
 *
 * Decisions where docs/reference.md#the-conv-format is silent (written down in docs/design/workflow.md):
 * - Leading whitespace before a directive name is allowed, as in sdqctl (blocks are indented).
 *   The same holds inside multi-line values: an indented `  RUN x` line ends a PROMPT.
 * - Continuation lines of a multi-line value are kept as written (indentation included).
 * - A line outside any directive that is not a comment (text after a one-line directive) is
 *   ignored by sdqctl; here it is a warning, because it is nearly always a prompt cut short.
 * - An unknown directive-shaped line is a warning; inside a multi-line value it is prompt text,
 *   but a word of 5+ letters one edit away from a directive (`PROMTP`) is flagged as a typo.
 */
export function parseConv(text: string, options: ParseConvOptions = {}): ConversationFile {
  return new Parser(options.file ?? '', options.quoteText ?? true).parse(text);
}

interface OpenValue {
  directive: ConvDirective;
  lines: string[];
  /** `lines` as messages quote them (Parser.shown). */
  shown: string[];
}

interface OrphanRun {
  start: number;
  end: number;
  text: string;
  after: ConvDirective | null;
}

class Parser {
  private readonly directives: ConvDirective[] = [];
  private readonly blocks: ConvBlock[] = [];
  private readonly problems: ConvProblem[] = [];
  /** Indices into `blocks` of the blocks not closed yet, innermost last. */
  private readonly open: number[] = [];
  private multi: OpenValue | null = null;
  private orphan: OrphanRun | null = null;
  private lastRun: ConvDirective | null = null;
  private last: ConvDirective | null = null;
  /** The multi-line directive the last directive ended, for explaining orphan text. */
  private endedMulti: { value: ConvDirective; by: ConvDirective | null } | null = null;
  /** The text's lines with each secret redacted, or null when it holds none (Parser.shown). */
  private redacted: string[] | null = null;

  constructor(
    private readonly file: string,
    private readonly quoteText: boolean,
  ) {}

  parse(text: string): ConversationFile {
    const body = text.replace(/^\uFEFF/, '');
    const lines = body.split('\n');
    if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    if (this.quoteText) this.redacted = scanText(body, this.file ? path.basename(this.file) : 'workflow.conv')?.lines ?? null;
    lines.forEach((raw, i) => this.line(raw.endsWith('\r') ? raw.slice(0, -1) : raw, i + 1));
    this.closeMulti();
    this.flushOrphan();
    for (const index of this.open) {
      const b = this.blocks[index]!;
      this.problem('error', 'block_structure', `Unclosed ${b.kind} block (missing END)`, b.line);
    }
    return {
      path: this.file,
      directives: this.directives,
      blocks: this.blocks,
      files: this.file ? [this.file] : [],
      problems: this.problems,
    };
  }

  /**
   * The line as messages quote it: from the redacted text, so that no secret a workflow holds (a
   * token in a RUN line) reaches a CI log or an agent (docs/refs.md#secrets).
   */
  private shown(raw: string, lineNo: number): string {
    const line = this.redacted?.[lineNo - 1];
    if (line === undefined) return raw;
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  }

  private line(raw: string, lineNo: number): void {
    const trimmed = raw.trim();
    const m = DIRECTIVE_RE.exec(trimmed);
    const name = m?.[1];
    const known = name !== undefined && isKnownDirective(name);
    const shown = this.shown(raw, lineNo);

    if (this.multi) {
      if (!known) {
        if (name !== undefined) this.checkTypoInValue(name, lineNo);
        this.multi.lines.push(raw);
        this.multi.shown.push(shown);
        return;
      }
      this.closeMulti();
    }
    if (trimmed === '' || trimmed.startsWith('#')) return;
    if (name === undefined) {
      this.addOrphan(shown.trim(), lineNo);
      return;
    }
    this.flushOrphan();
    const shownValue = shown === raw ? undefined : (DIRECTIVE_RE.exec(shown.trim())?.[2] ?? '').trim();
    if (!known) {
      const suggestion = suggestDirective(name);
      const hint = suggestion ? ` (did you mean ${suggestion}?)` : '';
      // A name that is itself a secret (an AWS key id) is quoted redacted too.
      const shownName = shown === raw ? name : shown.trim().split(/\s/, 1)[0];
      this.problem('warning', 'unknown_directive', `Unknown directive '${shownName}'${hint}`, lineNo);
      return;
    }
    this.directive(name, (m![2] ?? '').trim(), lineNo, shownValue);
  }

  private directive(name: string, value: string, lineNo: number, shownValue?: string): void {
    const d: ConvDirective = { name, value, file: this.file, line: lineNo, endLine: lineNo, block: this.innermost() };
    if (shownValue !== undefined) d.shownValue = shownValue;
    if (this.endedMulti && this.endedMulti.by === null) this.endedMulti.by = d;
    if (name === 'ON-FAILURE' || name === 'ON-SUCCESS') {
      if (this.open.length > 0) {
        const outer = this.blocks[this.innermost()!]!;
        this.problem('error', 'block_structure', 'Nested ON-FAILURE/ON-SUCCESS blocks are not allowed', lineNo, [
          `The ${outer.kind} block of line ${outer.line} is still open (close it with END first)`,
        ]);
      } else if (!this.lastRun) {
        this.problem('error', 'block_structure', `${name} without a preceding RUN`, lineNo, [
          `${name} ... END gives the steps to take when a RUN fails or succeeds; put it after that RUN`,
        ]);
      }
      this.blocks.push({ kind: name, file: this.file, line: lineNo, endLine: null, run: this.lastRun });
      this.open.push(this.blocks.length - 1);
      d.block = this.innermost();
    } else if (name === 'END') {
      const index = this.open.pop();
      if (index === undefined) {
        this.problem('error', 'block_structure', 'END without a matching ON-FAILURE or ON-SUCCESS', lineNo);
      } else {
        this.blocks[index]!.endLine = lineNo;
        d.block = index;
      }
    } else if (name === 'RUN' && this.open.length === 0) {
      this.lastRun = d;
    }
    this.directives.push(d);
    this.last = d;
    if (MULTI_LINE_DIRECTIVES.has(name)) {
      this.multi = { directive: d, lines: [value], shown: [shownValue ?? value] };
      this.endedMulti = null;
    }
  }

  /** End the open multi-line value (at the next known directive, or at the end of the file). */
  private closeMulti(): void {
    const open = this.multi;
    if (!open) return;
    const { lines, shown } = open;
    while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
    open.directive.endLine = open.directive.line + Math.max(lines.length - 1, 0);
    let first = 0;
    while (first < lines.length && lines[first]!.trim() === '') first++;
    open.directive.value = lines.slice(first).join('\n');
    const shownValue = shown.slice(first, lines.length).join('\n');
    if (shownValue !== open.directive.value) open.directive.shownValue = shownValue;
    else delete open.directive.shownValue;
    this.multi = null;
    // The directive that ended the value (if any) fills in `by`, to explain orphan text after it.
    this.endedMulti = { value: open.directive, by: null };
  }

  private checkTypoInValue(name: string, lineNo: number): void {
    if (name.length < MIN_TYPO_LENGTH) return;
    const suggestion = suggestDirective(name, 1);
    if (!suggestion) return;
    const owner = this.multi!.directive;
    this.problem('warning', 'unknown_directive', `Unknown directive '${name}' (did you mean ${suggestion}?)`, lineNo, [
      `Kept as text of the ${owner.name} of line ${owner.line}`,
    ]);
  }

  private addOrphan(text: string, lineNo: number): void {
    if (this.orphan) {
      this.orphan.end = lineNo;
      return;
    }
    this.orphan = { start: lineNo, end: lineNo, text, after: this.last };
  }

  private flushOrphan(): void {
    const o = this.orphan;
    if (!o) return;
    this.orphan = null;
    const where = o.start === o.end ? `line ${o.start}` : `lines ${o.start}-${o.end}`;
    const details = [this.quoteText ? `Starts with: ${o.text.length > 70 ? o.text.slice(0, 70) + '...' : o.text}` : 'Text not shown: the file is not a .conv workflow'];
    const ended = this.endedMulti;
    if (o.after && ended && ended.by === o.after && ended.value !== o.after) {
      details.push(
        `${o.after.name} on line ${o.after.line} ended the ${ended.value.name} of line ${ended.value.line}; ` +
          `${o.after.name} takes one line`,
      );
    } else if (o.after) {
      details.push(
        `${o.after.name} on line ${o.after.line} takes one line; only PROMPT, ON-CONTEXT-LIMIT-PROMPT and ` +
          'COMPACT-SUMMARY continue on the next lines',
      );
    }
    this.problem('warning', 'orphan_text', `Text outside any directive is ignored (${where})`, o.start, details);
  }

  private innermost(): number | null {
    return this.open.length > 0 ? this.open[this.open.length - 1]! : null;
  }

  private problem(severity: ConvProblem['severity'], code: string, message: string, line: number | null, details: string[] = []): void {
    this.problems.push({ severity, code, message, details, file: this.file, line });
  }
}
