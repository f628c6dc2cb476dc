import { findDocRefs } from '../doc-refs/find-doc-refs.js';
import type { FencedBlock } from './fenced-blocks.js';

/**
 * Finding cited snippets in a markdown document (docs/snippets.md#what-is-a-citation). Pure: the
 * document's lines and its fenced blocks in, citations out.
 *
 * - in-fence: the block's first non-blank line is a comment whose first word is a ref
 *   (`// loop:Sources/A.swift#L3-L9 (simplified)`); the snippet is the rest of the block. There the
 *   ref may also be a bare path, as embedme writes it (`// src/app.ts#L20-L30`), when it has a
 *   selector, or is the comment's only word, holds a `/` or a `.` and names a file that exists.
 * - caption: the last non-blank line before the opening fence (at most one blank line between) is
 *   a label: exactly one ref and at most four other words (``**Source**: `oref0:lib/a.js#L6-L9` ``),
 *   or embedme's `<!-- embedme path -->`; the snippet is the whole block.
 * - A block right after `<!-- embedme-ignore-next -->` is not a citation.
 */

export type CitationForm = 'in-fence' | 'caption';

export interface Citation {
  form: CitationForm;
  /** 1-based line of the ref. */
  line: number;
  /** 1-based line of the opening fence. */
  fenceLine: number;
  /** The ref as written (a bare path as written, without `@`). */
  text: string;
  /** What is checked: an `@` or `alias:` ref (a bare path gets an `@`). */
  ref: string;
  /** The ref was written as a bare path (embedme's form); it is resolved from the root first. */
  bare: boolean;
  /** The snippet's lines as CommonMark reads them (container markers and fence indentation removed). */
  snippet: string[];
  /** 0-based document lines of the snippet: `from` up to, not including, `to`. */
  from: number;
  to: number;
  block: FencedBlock;
}

export interface CitationScanOptions {
  isKnownAlias: (name: string) => boolean;
  /** Whether a bare path without a selector names an existing file (root first, then the doc's folder). */
  bareFileExists: (refPath: string) => boolean;
}

/** Most words a caption may hold besides its ref (`**Source**:`, `File:`, `From the server:`). */
export const MAX_CAPTION_WORDS = 4;

/** `// ref`, `# ref`, `-- ref`, `; ref`, `% ref`, `%% ref`, `' ref`, `/* ref *\/`, `<!-- ref -->`. */
const COMMENT = /^(?:\/\/|#|--|;|%%|%|'|\/\*|<!--)\s*(.*)$/;
const COMMENT_CLOSE = /\s*(?:\*\/|-->)\s*$/;
const EMBEDME_IGNORE = /^<!--\s*embedme[- ]ignore-next\s*-->$/;
const EMBEDME_CAPTION = /^<!--\s*embedme\s+(\S+)\s*-->$/;
/** Block quote and list markers before a line's text. */
const CONTAINER = /^(?:\s*(?:>|(?:[-+*]|\d{1,9}[.)])(?=\s|$)))*\s*/;
const SELECTOR = /#(?:L\d|L-|\/)/;

/** `line(i)`: the document's line `i` (0-based); only the lines before fences are asked for. */
export function findCitations(line: (i: number) => string, blocks: readonly FencedBlock[], options: CitationScanOptions): Citation[] {
  const citations: Citation[] = [];
  blocks.forEach((block, k) => {
    // Blocks come in document order and never overlap: only the one before can hold the label line.
    const before = blocks[k - 1];
    const labelAt = labelLine(line, block.open, (i) => before !== undefined && i >= before.open && i < before.end);
    const label = labelAt === null ? '' : stripContainer(line(labelAt));
    if (EMBEDME_IGNORE.test(label)) return;
    const inFence = inFenceCitation(block, options);
    if (inFence) {
      citations.push(inFence);
      return;
    }
    if (labelAt === null) return;
    const caption = captionRef(label, options);
    if (caption) {
      const to = block.open + 1 + block.lines.length;
      citations.push({ form: 'caption', line: labelAt + 1, fenceLine: block.open + 1, ...caption, snippet: block.lines, from: block.open + 1, to, block });
    }
  });
  return citations;
}

function inFenceCitation(block: FencedBlock, options: CitationScanOptions): Citation | null {
  const first = block.lines.findIndex((l) => l.trim() !== '');
  if (first === -1) return null;
  const comment = COMMENT.exec(block.lines[first]!.trim());
  if (!comment) return null;
  const rest = comment[1]!.replace(COMMENT_CLOSE, '');
  const found = refAtStart(rest, options) ?? bareAtStart(rest, options, false);
  if (!found) return null;
  const from = block.open + 2 + first;
  return {
    form: 'in-fence',
    line: block.open + 2 + first,
    fenceLine: block.open + 1,
    ...found,
    snippet: block.lines.slice(first + 1),
    from,
    to: block.open + 1 + block.lines.length,
    block,
  };
}

type FoundRef = Pick<Citation, 'text' | 'ref' | 'bare'>;

/** An `@` or `alias:` ref that is the first word of `text`. */
function refAtStart(text: string, options: CitationScanOptions): FoundRef | null {
  const [ref] = findDocRefs(text, { markdown: false, isKnownAlias: options.isKnownAlias });
  return ref && text.startsWith(ref.text) ? { text: ref.text, ref: ref.ref, bare: false } : null;
}

/** A bare path (`src/app.ts#L3-L9`, `snippets/sample.py`) that is the first word of `text`. */
function bareAtStart(text: string, options: CitationScanOptions, explicit: boolean): FoundRef | null {
  const word = /^\S+/.exec(text)?.[0].replace(/[.,;:!?]+$/, '');
  if (!word || word.includes('://')) return null;
  // An `@` or alias ref whose file has an extension prose refs do not know (`; @src/core.clj#L3`,
  // as --cite writes it): a citation on the same terms as a bare path.
  const alias = /^([A-Za-z][\w-]*):(?![/\\])/.exec(word);
  if (alias) return options.isKnownAlias(alias[1]!) && SELECTOR.test(word) ? { text: word, ref: word, bare: false } : null;
  if (word.startsWith('@')) {
    const found = bareAtStart(word.slice(1), options, explicit);
    return found && { text: word, ref: found.ref, bare: false };
  }
  const hash = word.indexOf('#');
  const filePart = hash === -1 ? word : word.slice(0, hash);
  if (filePart === '' || /[*?[\]{}]/.test(filePart)) return null;
  // Without a selector, a bare word is a citation only when it stands alone and looks like a path:
  // `# Makefile handles the build` and `# Makefile` are comments (docs/snippets.md#docs-kept-by-embedme).
  if (!explicit && !SELECTOR.test(word) && !(onlyWord(text, word) && /[/.]/.test(filePart) && options.bareFileExists(filePart))) return null;
  // A fragment that is not a selector is a heading anchor, as for `@` refs.
  const ref = hash !== -1 && !SELECTOR.test(word) ? filePart : word;
  return { text: word, ref: '@' + ref, bare: true };
}

/** Whether `word` (trailing punctuation cut) is all of `text` but that punctuation and spaces. */
function onlyWord(text: string, word: string): boolean {
  return /^[.,;:!?]*$/.test(text.trim().slice(word.length));
}

/** The label's one ref when the line is a caption; null for a sentence, or for none or several refs. */
function captionRef(label: string, options: CitationScanOptions): FoundRef | null {
  const embedme = EMBEDME_CAPTION.exec(label);
  if (embedme) return embedme[1] === 'ignore-next' ? null : bareAtStart(embedme[1]!, options, true);
  const refs = findDocRefs(label, { markdown: false, isKnownAlias: options.isKnownAlias });
  if (refs.length !== 1) return null;
  const ref = refs[0]!;
  const at = label.indexOf(ref.text);
  const others = (label.slice(0, at) + ' ' + label.slice(at + ref.text.length)).split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
  return others.length <= MAX_CAPTION_WORDS ? { text: ref.text, ref: ref.ref, bare: false } : null;
}

/** The last non-blank line before `open`, at most one blank line away, that no fenced block holds. */
function labelLine(line: (i: number) => string, open: number, inBlock: (i: number) => boolean): number | null {
  let i = open - 1;
  if (i >= 0 && stripContainer(line(i)) === '') i--;
  if (i < 0 || stripContainer(line(i)) === '' || inBlock(i)) return null;
  return i;
}

function stripContainer(line: string): string {
  return line.replace(CONTAINER, '').trim();
}
