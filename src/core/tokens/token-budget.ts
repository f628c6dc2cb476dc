import { UsageError } from '../../shared/errors.js';
import type { ExtractReport, Extraction } from '../extract/extract.js';
import { renderers, renderMarkdownBlock, type RenderOptions } from '../output/render-extraction.js';
import { type Encoding, loadTokenizer, type Tokenizer } from './tokenizer.js';

export interface BudgetOptions {
  encoding: Encoding;
  /** `--max-tokens N`; absent: no budget, only the count. */
  maxTokens?: number;
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
 * inside its fence, later blocks left out. Every candidate is counted as the whole text it would
 * print (a block's first pre-token may merge with the blank line before it), so counts are exact.
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
  let used = 0;
  let refs = 0;
  const leftOut: string[] = [];
  for (let i = 0; i < blocks.length; i++) {
    if (leftOut.length > 0) {
      leftOut.push(report.results[i]!.ref);
      continue;
    }
    const sep = i === 0 ? '' : '\n';
    // The separator joins the previous block's last pre-token: count it with the block.
    const whole = tok.count(text + sep + blocks[i]!) - used;
    if (used + whole <= max) {
      text += sep + blocks[i]!;
      used += whole;
      refs++;
      continue;
    }
    const cut = cutBlock(report.results[i]!, opts, tok, max, text + sep);
    if (cut === null) {
      if (i === 0) throw tooSmall(report.results[0]!, opts, tok, max);
      leftOut.push(report.results[i]!.ref);
      continue;
    }
    text += sep + cut.block;
    used = cut.tokens;
    refs++;
    // Everything after the cut block is left out.
    for (let j = i + 1; j < blocks.length; j++) leftOut.push(report.results[j]!.ref);
    break;
  }
  return { text, tokens: used, refs, leftOut };
}

/**
 * The crossing block with as many lines as fit (at least one), or null. The count is monotone
 * enough to search, and every candidate is counted exactly, so the one chosen is within budget.
 */
function cutBlock(
  r: Extraction,
  opts: RenderOptions,
  tok: Tokenizer,
  max: number,
  before: string,
): { block: string; tokens: number } | null {
  const n = r.lines.length;
  const total = (k: number) => tok.count(before + cutVersion(r, opts, k, max, tok));
  let lo = 0;
  let hi = n - 1;
  let best: { k: number; tokens: number } | null = null;
  while (lo <= hi) {
    const mid = Math.max(1, Math.floor((lo + hi + 1) / 2));
    if (mid > hi) break;
    const t = total(mid);
    if (t <= max) {
      best = { k: mid, tokens: t };
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  if (best === null) return null;
  return { block: cutVersion(r, opts, best.k, max, tok), tokens: best.tokens };
}

/** The block of `r` with its first `k` lines and the cut note inside the fence. */
export function cutVersion(r: Extraction, opts: RenderOptions, k: number, max: number, tok: Tokenizer): string {
  const kept: Extraction = { ...r, lines: r.lines.slice(0, k), wholeFile: r.wholeFile };
  const rest = r.lines.slice(k);
  const block = renderMarkdownBlock({ ...kept, lineEnd: r.lineStart + k - 1 }, { ...opts, attribution: opts.attribution });
  // The header keeps the ref's full range: the note says what is missing.
  const header = opts.attribution ? renderMarkdownBlock(r, opts).split('\n', 1)[0]! + '\n' : '';
  const body = opts.attribution ? block.slice(block.indexOf('\n') + 1) : block;
  const fenceAt = body.lastIndexOf('\n', body.length - 2) + 1;
  const about = tok.count(rest.join('\n') + '\n');
  const note = `… cut: ${rest.length} more ${rest.length === 1 ? 'line' : 'lines'} (about ${about.toLocaleString('en-US')} tokens) over the budget of ${max.toLocaleString('en-US')}\n`;
  return header + body.slice(0, fenceAt) + note + body.slice(fenceAt);
}

function tooSmall(r: Extraction, opts: RenderOptions, tok: Tokenizer, max: number): UsageError {
  const need = tok.count(r.lines.length > 1 ? cutVersion(r, opts, 1, max, tok) : renderMarkdownBlock(r, opts));
  return new UsageError(`--max-tokens ${max} is too small: the first ref needs at least ${need} tokens for one line (${r.ref})`, { code: 'budget_too_small' });
}

/** The JSON report with `tokens` per ref (its content) and the total of the markdown the same call prints. */
export async function tokensJson(report: ExtractReport, opts: RenderOptions, encoding: Encoding): Promise<string> {
  const tok = await loadTokenizer(encoding);
  const json = JSON.parse(renderers.json(report, opts)) as { refs: Record<string, unknown>[] } & Record<string, unknown>;
  json.refs.forEach((ref, i) => {
    ref.tokens = tok.count(report.results[i]!.lines.join('\n'));
  });
  json.tokens = { encoding, total: tok.count(renderers.markdown(report, opts)) };
  return JSON.stringify(json, null, 2) + '\n';
}
