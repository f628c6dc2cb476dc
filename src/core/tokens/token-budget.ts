import { UsageError } from '../../shared/errors.js';
import type { ExtractReport, Extraction } from '../extract/extract.js';
import { renderers, renderMarkdownBlock, type RenderOptions } from '../output/render-extraction.js';
import { type Encoding, isSafeStart, loadTokenizer, type Tokenizer } from './tokenizer.js';
import { groupDigits } from '../../shared/group-digits.js';

export interface BudgetOptions {
  encoding: Encoding;
  /** `--max-tokens N`; absent: no budget, only the count. */
  maxTokens?: number;
  /** How the budget is named in messages: `--max-tokens` (the CLI, default) or `max_tokens` (refcat mcp). */
  budgetName?: string;
}

export interface BudgetedMarkdown {
  /** The markdown to print (the same as the renderer's when everything fits). */
  text: string;
  /** Exact tokens of `text`. */
  tokens: number;
  /** Refs printed (whole or cut). */
  refs: number;
  /** The refs left out, in order, as the user wrote them. */
  leftOut: string[];
}

/**
 * Markdown within a token budget (docs/reference.md#token-counts-and-budgets), block by block:
 * whole blocks while they fit, the crossing block cut at a line boundary with a `… cut:` note
 * inside its fence, later blocks left out.
 */
export async function budgetMarkdown(report: ExtractReport, opts: RenderOptions, budget: BudgetOptions): Promise<BudgetedMarkdown> {
  const tok = await loadTokenizer(budget.encoding);
  const blocks = report.results.map((r) => renderMarkdownBlock(r, opts));
  if (budget.maxTokens === undefined) {
    const text = blocks.join('\n');
    return { text, tokens: tok.count(text), refs: blocks.length, leftOut: [] };
  }
  const max = budget.maxTokens;
  let text = '';
  // Tokens of `text` plus the newline that separates it from the next block. Every block starts
  // with `#`, `>` or a backtick right after that newline, where both pre-tokenizers always cut
  // (tokenizer.ts), so the count of what is already accepted never changes: one count per block.
  let usedWithSep = 0;
  let used = 0;
  let refs = 0;
  const leftOut: string[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const r = report.results[i]!;
    if (leftOut.length > 0) {
      leftOut.push(r.ref);
      continue;
    }
    const block = blocks[i]!;
    const own = tok.countWithin(block, max - usedWithSep);
    if (own !== null) {
      text += (i === 0 ? '' : '\n') + block;
      used = usedWithSep + own;
      usedWithSep += withSeparator(block, own, tok);
      refs++;
      continue;
    }
    const cut = cutBlock(r, opts, tok, max, usedWithSep);
    if (cut === null) {
      if (i === 0) throw tooSmall(r, opts, tok, max, budget.budgetName ?? '--max-tokens');
    } else {
      text += (i === 0 ? '' : '\n') + cut.block;
      used = cut.tokens;
      refs++;
    }
    // Everything after the crossing ref is left out (the crossing ref too, when no line of it fits).
    for (let j = cut === null ? i : i + 1; j < blocks.length; j++) leftOut.push(report.results[j]!.ref);
    break;
  }
  return { text, tokens: used, refs, leftOut };
}

/**
 * The tokens of `block + '\n'`, given those of `block`: the separator only joins the block's last
 * line (a fence or a note, which starts where the pre-tokenizers always cut), so only that line is
 * counted again.
 */
function withSeparator(block: string, own: number, tok: Tokenizer): number {
  const last = block.lastIndexOf('\n', block.length - 2) + 1;
  if (last > 0 && !isSafeStart(block.charCodeAt(last))) return tok.count(block + '\n');
  const tail = block.slice(last);
  return own - tok.count(tail) + tok.count(tail + '\n');
}

/**
 * The crossing block with as many lines as fit (at least one), or null. Every candidate is
 * counted exactly, so the one chosen is within the budget.
 */
function cutBlock(r: Extraction, opts: RenderOptions, tok: Tokenizer, max: number, before: number): { block: string; tokens: number } | null {
  let lo = 1;
  let hi = r.lines.length - 1;
  let best: { block: string; tokens: number } | null = null;
  const all = linesTokens(r, tok);
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const block = cutVersion(r, opts, mid, max, tok, all);
    const own = tok.countWithin(block, max - before);
    if (own !== null) {
      best = { block, tokens: before + own };
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return best;
}

/** Past this many characters of content, the tokens left out are estimated, not counted. */
const COUNT_REST_CHARS = 1 << 20;

/** The tokens of all of `r`'s lines, or null when they are too many to count for a note. */
function linesTokens(r: Extraction, tok: Tokenizer): number | null {
  let chars = 0;
  for (const line of r.lines) if ((chars += line.length + 1) > COUNT_REST_CHARS) return null;
  return tok.count(r.lines.join('\n') + '\n');
}

/**
 * The block of `r` with its first `k` lines and the cut note inside the fence. The tokens left
 * out are the lines' tokens (`all`, counted once) less the kept lines' own; for a selection over
 * 1 MiB they are estimated from the kept lines' tokens per character (the note says "about").
 */
export function cutVersion(r: Extraction, opts: RenderOptions, k: number, max: number, tok: Tokenizer, all: number | null): string {
  const kept: Extraction = { ...r, lines: r.lines.slice(0, k), wholeFile: r.wholeFile };
  const rest = r.lines.slice(k);
  const block = renderMarkdownBlock({ ...kept, lineEnd: r.lineStart + k - 1 }, { ...opts, attribution: opts.attribution });
  // The header keeps the ref's full range: the note says what is missing.
  const header = opts.attribution ? renderMarkdownBlock({ ...r, lines: r.lines.slice(0, 1) }, opts).split('\n', 1)[0]! + '\n' : '';
  const body = opts.attribution ? block.slice(block.indexOf('\n') + 1) : block;
  const fenceAt = body.lastIndexOf('\n', body.length - 2) + 1;
  const keptText = r.lines.slice(0, k).join('\n') + '\n';
  const keptTokens = tok.count(keptText);
  let about: number;
  if (all !== null) about = Math.max(0, all - keptTokens);
  else {
    let restChars = 0;
    for (const line of rest) restChars += line.length + 1;
    about = Math.round((restChars * keptTokens) / keptText.length);
  }
  const note = `… cut: ${rest.length} more ${rest.length === 1 ? 'line' : 'lines'} (about ${groupDigits(about)} tokens) over the budget of ${groupDigits(max)}\n`;
  return header + body.slice(0, fenceAt) + note + body.slice(fenceAt);
}

function tooSmall(r: Extraction, opts: RenderOptions, tok: Tokenizer, max: number, name: string): UsageError {
  const all = linesTokens(r, tok);
  // The note names the budget, so the smallest budget is a fixed point: count with it named.
  const cost = (budget: number) => tok.count(r.lines.length > 1 ? cutVersion(r, opts, 1, budget, tok, all) : renderMarkdownBlock(r, opts));
  let need = cost(max);
  for (let i = 0; i < 8 && cost(need) > need; i++) need = cost(need);
  return new UsageError(`${name} ${max} is too small: the first ref needs at least ${need} tokens for one line (${r.ref})`, { code: 'budget_too_small' });
}

/** Counts many texts at once: a Tokenizer in this thread, or a Counter in a worker. */
export type CountMany = (texts: string[]) => Promise<number[]>;

export function countManyWith(tok: Tokenizer): CountMany {
  return async (texts) => texts.map((t) => tok.count(t));
}

/** The JSON report with `tokens` per ref (its content) and the total of the markdown the same call prints. */
export async function tokensJson(report: ExtractReport, opts: RenderOptions, encoding: Encoding, countMany?: CountMany): Promise<string> {
  return (await countedJson(report, opts, encoding, countMany)).text;
}

/**
 * tokensJson(), and the total it holds; with `printed`, also the tokens of the JSON text itself
 * (what `--tokens` reports for it).
 */
export async function countedJson(
  report: ExtractReport,
  opts: RenderOptions,
  encoding: Encoding,
  countMany?: CountMany,
  printed = false,
): Promise<{ text: string; total: number; printed: number | null }> {
  const count = countMany ?? countManyWith(await loadTokenizer(encoding));
  const json = JSON.parse(renderers.json(report, opts)) as { refs: Record<string, unknown>[] } & Record<string, unknown>;
  const counts = await count([renderers.markdown(report, opts), ...report.results.map((r) => r.lines.join('\n'))]);
  json.refs.forEach((ref, i) => {
    ref.tokens = counts[i + 1];
  });
  json.tokens = { encoding, total: counts[0] };
  const text = JSON.stringify(json, null, 2) + '\n';
  return { text, total: counts[0]!, printed: printed ? (await count([text]))[0]! : null };
}
