import { type Diagnostic, FdError } from '../../shared/errors.js';
import { mayHoldSecret } from '../secrets/prefilter.js';
import { withTerminators } from '../secrets/redact.js';
import { MAX_REDACTED_FILE_BYTES, scanText } from '../secrets/secret-scan.js';
import type { SecretsMode } from '../secrets/secrets-mode.js';
import { type Content, inMemory, ingest, type IngestOptions } from './ingest.js';

/**
 * Bytes the prefilter reads at a time: under V8's large-object size, so each chunk's string dies
 * young; 1 MiB chunks went to the large-object space and raised a server's peak by 24 MiB on a
 * 60 MB file (test/hostile/bounded-memory.test.ts).
 */
const CHUNK = 64 * 1024;
const OVERLAP = 4096;

/**
 * `fd read`'s part of the secret check (docs/refs.md#secrets): the whole content (a file, a pipe,
 * stdin) is checked before any page is cut from it, so that no page, however small, spells part
 * of a secret. Clean content is returned as it is; content that holds a secret is paged from its
 * redacted text (line numbers hold). Content read again for each call (a file paged in place, an
 * fd) is redacted again for each call and keeps its own label: nothing is stored, so that every
 * page of a file is asked for the same way, by its path. Content this call stored (stdin, a pipe,
 * `--save`) has its redacted text stored in place of what was stored. Under `withhold`
 * or `fail` (a `refcat mcp` started so) such content is not answered at all: an fd error, as
 * extraction leaves the file out; what was stored stays stored (it may be the caller's own fd).
 */
export async function redactContent(content: Content, opts: IngestOptions & { name: string; mode?: SecretsMode }, warnings: Diagnostic[]): Promise<Content> {
  const size = content.totals.bytes;
  const json = opts.name.toLowerCase().endsWith('.json');
  let maybe = false;
  for (let at = 0; at < size && !maybe; at += CHUNK) {
    maybe = mayHoldSecret(content.bytes.bytes(Math.max(0, at - OVERLAP), Math.min(size, at + CHUNK)).toString('latin1'), json);
  }
  if (!maybe) return content;
  if (size > MAX_REDACTED_FILE_BYTES) {
    close(content, opts);
    throw new FdError('secret_too_large', opts.name, `${opts.name} may hold a secret, and content over ${MAX_REDACTED_FILE_BYTES / (1024 * 1024)} MiB is not redacted`);
  }
  let text = content.bytes.bytes(0, size).toString('utf8');
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  const found = scanText(text, opts.name);
  if (!found) return content;
  if (opts.mode === 'withhold' || opts.mode === 'fail') {
    content.bytes.close();
    content.pages.close();
    const list = found.findings.map((f) => `${f.kind} at ${opts.name}:${f.line}`).join(', ');
    throw new FdError(opts.mode === 'fail' ? 'secret_found' : 'secret_withheld', opts.name, `Left out ${opts.name}: it holds ${list} (--secrets=${opts.mode})`);
  }
  for (const f of found.findings) {
    warnings.push({ code: 'secret_redacted', message: `redacted ${f.kind} at ${opts.name}:${f.line}`, details: [], ref: opts.name });
  }
  const redacted = withTerminators(text, found.lines);
  if (!content.stored && content.label !== null) {
    content.bytes.close();
    content.pages.close();
    return inMemory(redacted, content.label, opts.pageSize);
  }
  close(content, opts);
  return ingest([redacted], { ...opts, persist: content.stored ? 'always' : opts.persist });
}

/** Gives up content about to be replaced; what it stored is closed (removed from the store). */
function close(content: Content, opts: IngestOptions): void {
  content.bytes.close();
  content.pages.close();
  if (content.stored && content.label) opts.store().close(content.label);
}
