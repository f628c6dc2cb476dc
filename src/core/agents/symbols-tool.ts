import { z } from 'zod';
import { UsageError } from '../../shared/errors.js';
import { renderDiagnostic } from '../output/render-extraction.js';
import { renderSymbolsJson, renderSymbolsText } from '../output/render-symbols.js';
import { Store } from '../paging/fd-store.js';
import { CappedOutput, TextSink } from '../pipeline/capped-output.js';
import { listSymbols } from '../pipeline/list-symbols.js';
import { confinementOf } from '../alias/alias-confinement.js';
import { SecretScanner } from '../secrets/secret-scan.js';
import { ANSWER_CAP_CHARS, storedNote } from './answer-caps.js';
import type { ToolSpec } from './tool-spec.js';
import { aliasesOf, checkRefText } from './tool-inputs.js';

/**
 * The MCP `symbols` tool (docs/agents.md#symbols): what `refcat symbols` prints, so an agent finds
 * the name to cite before it extracts. Capped like extract's answers: past the cap the whole
 * answer is stored as an fd to page with fd_read.
 */
export const SYMBOLS_TOOL: ToolSpec = {
  name: 'symbols',
  description:
    'List the declarations (functions, methods, classes, types, properties, constants) of source files, one per line: ' +
    'the symbol ref that extracts it, its line range and its kind, members indented under their type, e.g. ' +
    '"@src/app.ts#Store.save  L40-L52  method". Use it to find the name to cite, then pass that ref to extract: a ref by name ' +
    '("@src/app.ts#Store.save") keeps selecting the same code when lines above it move, where "#L40-L52" would not. ' +
    'A name that repeats (overloads) is listed as "#name~1", "#name~2". Works for TypeScript, JavaScript, Python, Swift, Kotlin, Java, ' +
    'Go, Rust, C, C++, C# and Ruby; files up to 1 MiB. In a glob, files of other languages are skipped.',
  input: {
    refs: z
      .array(z.string())
      .min(1)
      .describe('Files, globs or symbol refs to list, relative to the root: ["src/app.ts"], ["src/**/*.py"], ["alias:Sources/A.swift"], or ["@src/app.ts#Store"] (Store and its members).'),
    format: z.enum(['text', 'json']).optional().describe('text (default): the lines above; json: {"files": [{"path", "symbols": [{"ref", "path", "name", "kind", "start_line", "end_line", ...}]}], "errors", "warnings"}.'),
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  heavy: true,
  run: async (args: { refs: string[]; format?: 'text' | 'json' }, agent) => {
    const { ctx } = agent;
    const aliases = aliasesOf(ctx);
    const confinement = confinementOf(ctx, aliases);
    for (const ref of args.refs) checkRefText(ref, confinement);
    // A pinned alias lists its pin, as extract reads it (docs/agents.md#refs-at-a-version).
    // Names a secret is in are redacted unless the server allows them (docs/agents.md#secrets).
    const secrets = new SecretScanner(agent.secrets === 'allow' ? 'allow' : 'redact', ctx.cwd);
    const listing = await listSymbols(args.refs, ctx, { aliases, confine: confinement, versionPolicy: { reachableOnly: true }, secrets });
    // A glob or alias leading out through a symlink refuses the whole call, as extract does.
    const refused = listing.errors.find((d) => d.code === 'outside_root');
    if (refused) throw new UsageError(refused.message, { code: 'outside_root' });
    const json = args.format === 'json';
    const log = json ? '' : [...listing.warnings.map((d) => renderDiagnostic('Warning', d)), ...listing.errors.map((d) => renderDiagnostic('Error', d))].join('');
    const answer = new TextSink();
    const out = new CappedOutput(answer, { chars: ANSWER_CAP_CHARS, store: () => Store.at(ctx, agent.store) }, undefined);
    await out.write(json ? renderSymbolsJson(listing) : renderSymbolsText(listing) + log);
    const stored = await out.end();
    const text = answer.text + (stored ? storedNote(stored) : '');
    const isError = listing.errors.length > 0;
    return { text: text || 'No declarations found.\n', isError, log: isError ? listing.errors[0]!.message : undefined };
  },
};
