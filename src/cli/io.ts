import type { Context } from '../shared/context.js';
import type { SafeWriteHooks } from '../core/safe-write/safe-write.js';
import type { Diagnostic, ExitCode } from '../shared/errors.js';
import type { Logged } from '../core/extract/extract-batches.js';
import { renderDiagnostic } from '../core/output/render-extraction.js';
import { knownAliasesOnce } from '../core/output/known-aliases-once.js';

/** Everything a command may touch of the outside world; tests pass their own. */
export interface IO {
  ctx: Context;
  /** Text, or UTF-8 bytes passed through from a file (a chunk may end inside a character). */
  stdout: (chunk: string | Uint8Array) => void;
  /**
   * Bytes whose buffer the caller uses again: `done()` is called once they are written (at once
   * for a file, which is written synchronously; for a pipe, when the stream has written them).
   * Absent: they are given to `stdout`, and their buffer is not used again.
   */
  stdoutBytes?: (bytes: Uint8Array, done: () => void) => void;
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
 * Output gathered into large writes, in buffers used again once written. `write()` resolves at
 * once unless stdout is full (a pipe whose reader is behind), then once it has drained: output
 * streamed through it keeps memory bounded whatever its size (docs/reference.md#streaming-and-memory).
 *
 * Every chunk is copied in, so its bytes are free again when write() resolves (ExtractionSink):
 * a glob's files are read into the same few buffers, and written from the same few. Memory used
 * for the first time costs a page fault per 4 KiB, as much as the copy of the page.
 */
export class StdoutWriter {
  private buf: Buffer | null = null;
  private used = 0;
  /** Buffers written out and free again (stdoutBytes). */
  private readonly free: Buffer[] = [];

  constructor(
    private readonly io: IO,
    private readonly writeSize = 1 << 18,
  ) {}

  /** A promise only when the output is written and stdout must drain first. */
  write(chunk: string | Uint8Array): Promise<void> | void {
    const room = this.writeSize - this.used;
    // At most 3 bytes a UTF-16 unit: a text that may not fit what is left waits for the next
    // buffer, and one larger than a buffer is encoded first.
    if (typeof chunk === 'string') {
      if (chunk.length * 3 < room) {
        this.used += this.buffer().write(chunk, this.used);
        return;
      }
    } else if (chunk.length < room) {
      this.buffer().set(chunk, this.used);
      this.used += chunk.length;
      return;
    }
    return this.writeFilling(chunk);
  }

  /** A chunk that fills the buffer: written in as many buffers as it takes. */
  private async writeFilling(chunk: string | Uint8Array): Promise<void> {
    if (typeof chunk === 'string') {
      if (chunk.length * 3 <= this.writeSize) {
        await this.flush();
        this.used += this.buffer().write(chunk, this.used);
        return;
      }
      chunk = Buffer.from(chunk);
    }
    for (let at = 0; at < chunk.length; ) {
      const n = Math.min(chunk.length - at, this.writeSize - this.used);
      this.buffer().set(chunk.subarray(at, at + n), this.used);
      this.used += n;
      at += n;
      if (this.used >= this.writeSize) await this.flush();
    }
  }

  /** Write what is left; call once at the end. */
  async end(): Promise<void> {
    await this.flush();
  }

  private buffer(): Buffer {
    return (this.buf ??= this.free.pop() ?? Buffer.allocUnsafeSlow(this.writeSize));
  }

  private async flush(): Promise<void> {
    const buf = this.buf;
    if (buf === null || this.used === 0) return;
    const bytes = buf.subarray(0, this.used);
    this.buf = null;
    this.used = 0;
    if (this.io.stdoutBytes) {
      this.io.stdoutBytes(bytes, () => {
        if (this.free.length < 2) this.free.push(buf);
      });
    } else {
      this.io.stdout(bytes);
    }
    await this.io.drain?.();
  }
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

/** Print diagnostics to stderr in the order given; the known aliases once (known-aliases-once.ts). */
export async function printLog(io: IO, log: Logged[]): Promise<void> {
  if (log.length === 0) return;
  const { red, yellow } = await stderrColors(io);
  const once = knownAliasesOnce();
  let out = '';
  for (const { level, diagnostic } of log) {
    const d = once(diagnostic);
    out += level === 'error' ? renderDiagnostic('Error', d, red) : renderDiagnostic('Warning', d, yellow);
  }
  io.stderr(out);
}

/** Exit code for a set of ref errors: 2 if any was a usage error (unparseable ref), else 1. */
export function exitCodeFor(errors: Diagnostic[]): ExitCode {
  if (errors.length === 0) return 0;
  return errors.some((e) => e.exitCode === 2) ? 2 : 1;
}
