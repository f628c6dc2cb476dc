import { Writable } from 'node:stream';
import type { ExitCode } from '../../shared/errors.js';
import type { IO } from '../io.js';

/** `refcat lsp [--stdio]`: serve the editor until the client exits or hangs up (docs/editor.md). */
export async function runLsp(io: IO): Promise<ExitCode> {
  // The language server library is loaded here only, so no other command pays for it.
  const { serveLanguageServer } = await import('../../core/editor/language-server.js');
  const output = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      io.stdout(chunk);
      done();
    },
  });
  const code = await serveLanguageServer({ ctx: io.ctx, input: io.stdin, output, log: (line) => io.stderr(line + '\n') });
  // After `exit` the client may keep its end of the pipe open: stop reading so the process can end.
  (io.stdin as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
  return code;
}
