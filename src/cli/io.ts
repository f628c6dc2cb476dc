import type { Context } from '../shared/context.js';
import type { SafeWriteHooks } from '../core/safe-write/safe-write.js';
import type { Diagnostic, ExitCode } from '../shared/errors.js';
import type { Logged } from '../core/extract/extract-batches.js';
import { renderDiagnostic } from '../core/output/render-extraction.js';

/** Everything a command may touch of the outside world; tests pass their own. */
export interface IO {
  ctx: Context;
  /** Text, or UTF-8 bytes passed through from a file (a chunk may end inside a character). */
  stdout: (chunk: string | Uint8Array) => void;
  /**
   * Several chunks at once, in order, without joining them first (one `writev`): a glob's output
   * is thousands of headers and file contents. Absent: they are joined and given to `stdout`.
   */
  stdoutParts?: (chunks: readonly (string | Uint8Array)[]) => void;
  /**
   * Resolves once stdout can take more (a pipe's reader has caught up). Commands that stream a lot
   * (`fd read --all`) await it between blocks so that memory stays bounded (docs/reference.md#fd-and-ref).
   */
  drain?: () => Promise<void>;
  stderr: (text: string) => void;
  /** Standard input, for commands that read `-`. */
  stdin: NodeJS.ReadableStream;
  /** Whether stderr diagnostics are coloured (chalk's rules, decided at the edge). */
  color: boolean;
  /** Whether long runs may show progress on stderr (a terminal, not a log or a pipe). */
  progress?: boolean;
  /** Test seam for file writes (see main.ts); absent in normal runs. */
  writeHooks?: SafeWriteHooks;
}

/**
 * Text for stdout gathered into large writes. `write()` resolves at once unless stdout is full (a
 * pipe whose reader is behind), then once it has drained: output streamed through it keeps memory
 * bounded whatever its size (docs/reference.md#streaming-and-memory).
 */
export class StdoutWriter {
  private pending: (string | Uint8Array)[] = [];
  private size = 0;

  constructor(
    private readonly io: IO,
    private readonly writeSize = 1 << 16,
  ) {}

  async write(chunk: string | Uint8Array): Promise<void> {
    // Text after text is joined as it comes (a glob's fence, then the next header): one piece to
    // encode and write, not two.
    const last = this.pending.length - 1;
    if (typeof chunk === 'string' && last >= 0 && typeof this.pending[last] === 'string') this.pending[last] += chunk;
    else this.pending.push(chunk);
    this.size += chunk.length;
    if (this.size >= this.writeSize) await this.flush();
  }

  /** Write what is left; call once at the end. */
  async end(): Promise<void> {
    if (this.size > 0) await this.flush();
  }

  private async flush(): Promise<void> {
    const parts = this.pending;
    this.pending = [];
    this.size = 0;
    if (parts.every((p) => typeof p === 'string')) this.io.stdout(parts.join(''));
    else if (parts.length === 1) this.io.stdout(parts[0]!);
    else if (this.io.stdoutParts) this.io.stdoutParts(parts);
    else this.io.stdout(joinBytes(parts));
    await this.io.drain?.();
  }
}

/** The parts as one buffer, strings encoded straight into it (a glob's headers: thousands of them). */
function joinBytes(parts: readonly (string | Uint8Array)[]): Buffer {
  let length = 0;
  for (const p of parts) length += typeof p === 'string' ? Buffer.byteLength(p) : p.length;
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  for (const p of parts) {
    if (typeof p === 'string') {
      at += out.write(p, at);
    } else {
      out.set(p, at);
      at += p.length;
    }
  }
  return out;
}

/** Label colours for stderr; chalk is only loaded when colour is on. */
export async function stderrColors(io: IO): Promise<{ red: (s: string) => string; yellow: (s: string) => string }> {
  if (!io.color) return { red: (s) => s, yellow: (s) => s };
  const { chalkStderr } = await import('chalk');
  return { red: (s) => chalkStderr.red.bold(s), yellow: (s) => chalkStderr.yellow.bold(s) };
}

export type { Logged } from '../core/extract/extract-batches.js';

/** Print diagnostics to stderr: warnings, then errors. */
export async function printDiagnostics(io: IO, errors: Diagnostic[], warnings: Diagnostic[] = []): Promise<void> {
  await printLog(io, [...warnings.map((d) => ({ level: 'warning' as const, diagnostic: d })), ...errors.map((d) => ({ level: 'error' as const, diagnostic: d }))]);
}

/** Print diagnostics to stderr in the order given. */
export async function printLog(io: IO, log: Logged[]): Promise<void> {
  if (log.length === 0) return;
  const { red, yellow } = await stderrColors(io);
  let out = '';
  for (const { level, diagnostic } of log) {
    out += level === 'error' ? renderDiagnostic('Error', diagnostic, red) : renderDiagnostic('Warning', diagnostic, yellow);
  }
  io.stderr(out);
}

/** Exit code for a set of ref errors: 2 if any was a usage error (unparseable ref), else 1. */
export function exitCodeFor(errors: Diagnostic[]): ExitCode {
  if (errors.length === 0) return 0;
  return errors.some((e) => e.exitCode === 2) ? 2 : 1;
}
