import type { Logged } from '../core/extract/extract-batches.js';
import type { ExtractReport } from '../core/extract/extract.js';
import { type OutputFormat, type RenderOptions, renderers } from '../core/output/render-extraction.js';
import { budgetMarkdown, tokensJson } from '../core/tokens/token-budget.js';
import type { Counter } from '../core/tokens/counter.js';
import { type Encoding, loadTokenizer } from '../core/tokens/tokenizer.js';
import type { ExitCode } from '../shared/errors.js';
import { type IO, printLog } from './io.js';

/**
 * `--max-tokens`, and `--tokens` with `--json` (docs/reference.md#token-counts-and-budgets): print
 * the output, budgeted for markdown, then the refs left out and the summary on stderr. (`--tokens`
 * alone streams its output and counts it as it goes: commands/extract.ts.) The caller closes
 * `counter`.
 */
export async function runWithTokens(
  report: ExtractReport,
  log: Logged[],
  code: ExitCode,
  format: OutputFormat,
  render: RenderOptions,
  opts: { tokens?: boolean; encoding?: Encoding; maxTokens?: number },
  io: IO,
  counter?: Counter,
): Promise<ExitCode> {
  const encoding = opts.encoding ?? 'o200k_base';
  let out: string;
  let tokens: number;
  let refs = report.results.length;
  const leftOut: Logged[] = [];
  if (format === 'markdown') {
    const budgeted = await budgetMarkdown(report, render, { encoding, maxTokens: opts.maxTokens });
    out = budgeted.text;
    tokens = budgeted.tokens;
    refs = budgeted.refs;
    for (const ref of budgeted.leftOut) {
      leftOut.push({ level: 'warning', diagnostic: { code: 'token_budget', message: `left out (token budget): ${ref}`, details: [], ref } });
    }
  } else {
    out = format === 'json' ? await tokensJson(report, render, encoding, counter?.count) : renderers[format](report, render);
    tokens = counter ? (await counter.count([out]))[0]! : (await loadTokenizer(encoding)).count(out);
  }
  if (out) io.stdout(out);
  await printLog(io, [...leftOut, ...log]);
  if (opts.tokens) io.stderr(`refcat: ${refs} ${refs === 1 ? 'ref' : 'refs'}, ${tokens.toLocaleString('en-US')} tokens (${encoding})\n`);
  return code;
}
