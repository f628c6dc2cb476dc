import { type CodeAction, CodeActionKind } from 'vscode-languageserver-protocol/node.js';
import { type EditorFix, overlaps } from './editor-findings.js';
import { type LspServer, rangeParam, servedFile, textDocumentUri, toDiagnostic, toRange } from './lsp-protocol.js';
import { replacementFixes } from './ref-navigation.js';

/**
 * `textDocument/codeAction` (docs/editor.md#what-you-get): the fixes of the published findings under
 * the range (a stale snippet's refresh), and for a ref to a missing file the replacements
 * `verify refs --suggest-fixes` would propose, looked for only now that the user asks.
 */
export function codeActionHandler(params: unknown, server: LspServer): CodeAction[] {
  const uri = textDocumentUri(params);
  const range = rangeParam((params as { range?: unknown }).range);
  const doc = server.document(uri);
  const file = servedFile(uri);
  const published = server.published(uri);
  // Spans of an older version would edit the wrong characters.
  if (!doc || !file || !published || published.version !== doc.version) return [];
  const actions: CodeAction[] = [];
  for (const f of published.findings) {
    if (!overlaps(f.span, range)) continue;
    const fixes: EditorFix[] = [...f.fixes, ...replacementFixes(f, file.path, server.session)];
    for (const fix of fixes) {
      actions.push({
        title: fix.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [toDiagnostic(f)],
        isPreferred: fix.preferred ?? false,
        edit: { changes: { [uri]: fix.edits.map((e) => ({ range: toRange(e.span), newText: e.newText })) } },
      });
    }
  }
  return actions;
}
