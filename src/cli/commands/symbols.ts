import { listSymbols } from '../../core/pipeline/list-symbols.js';
import { SecretScanner } from '../../core/secrets/secret-scan.js';
import type { SecretsMode } from '../../core/secrets/secrets-mode.js';
import { renderSymbolsJson, renderSymbolsText } from '../../core/output/render-symbols.js';
import { type ExitCode, UsageError } from '../../shared/errors.js';
import { resolverFromFlags } from '../alias-flags.js';
import { versionModeOf } from '../options.js';
import { type IO, printDiagnostics } from '../io.js';
import { type FormatOptions, formatOf, type TableFormat } from '../format-flags.js';

export interface SymbolsCliOptions extends FormatOptions<TableFormat> {
  alias?: string[];
  ignore: boolean;
  at?: string;
  worktree?: boolean;
  pinned?: boolean;
  secrets?: SecretsMode;
}

/** `refcat symbols REFS...`: one line per declaration (docs/symbols.md#listing-refcat-symbols). */
export async function runSymbols(refs: string[], opts: SymbolsCliOptions, io: IO): Promise<ExitCode> {
  if (refs.length === 0) throw new UsageError("No files given (try 'refcat symbols src/app.ts' or 'refcat symbols \"src/**/*.ts\"')");
  const json = formatOf(opts, 'text') === 'json';
  // The version each ref reads is the one extraction reads (docs/refs.md#refs-at-a-version).
  const versionPolicy = { mode: versionModeOf(opts), ...(opts.at === undefined ? {} : { at: opts.at }) };
  // A listing prints names, never a file's content: `withhold` and `fail` list as `redact` does (docs/refs.md#secrets).
  const secrets = new SecretScanner(opts.secrets === 'allow' ? 'allow' : 'redact', io.ctx.cwd);
  const listing = await listSymbols(refs, io.ctx, { aliases: resolverFromFlags(opts.alias, io.ctx), noIgnore: !opts.ignore, versionPolicy, secrets });
  io.stdout(json ? renderSymbolsJson(listing) : renderSymbolsText(listing));
  if (!json) await printDiagnostics(io, listing.errors, listing.warnings);
  return listing.errors.length > 0 ? 1 : 0;
}
