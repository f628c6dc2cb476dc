import type { Diagnostic } from '../../shared/errors.js';
import { withTerminators } from '../secrets/redact.js';
import { scanUnnamedText } from '../secrets/secret-scan.js';
import type { RefItem } from './response-refs.js';

/**
 * `ref show`'s part of the secret check (docs/refs.md#secrets): a stored or transcribed ref's
 * content is checked as a text of its own, its file name unknown, before it is printed (a transcript may hold a reply that
 * quoted a credential, or output taken with `--secrets=allow`). Content with a secret is shown
 * redacted, its lines in place, with one warning per finding.
 */
export function redactedRef(ref: RefItem, warnings: Diagnostic[]): RefItem {
  const content = ref.content();
  const name = `ref:${ref.id}`;
  const found = scanUnnamedText(content);
  if (!found) return ref;
  for (const f of found.findings) {
    warnings.push({ code: 'secret_redacted', message: `redacted ${f.kind} at ${name}:${f.line}`, details: [], ref: name });
  }
  const redacted = withTerminators(content, found.lines);
  return { ...ref, chars: [...redacted].length, content: () => redacted };
}
