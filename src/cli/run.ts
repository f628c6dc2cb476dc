import { type ExitCode, isRefcatError } from '../shared/errors.js';
import { fastParseExtract } from './fast-argv.js';
import { type IO, printDiagnostics } from './io.js';

/**
 * Run the CLI on `argv` (without node and script) and return the exit code. A user's mistake
 * never throws out of here: RefcatErrors are printed as one `Error:` line (plus details) and
 * mapped to their exit code; only a bug escapes, for main.ts to report.
 *
 * The common case, a plain extraction, is parsed without loading commander (fast-argv.ts);
 * everything else goes through the full commander program.
 */
export async function runCli(argv: string[], io: IO): Promise<ExitCode> {
  try {
    const fast = fastParseExtract(argv);
    if (fast) {
      const { runExtract } = await import('./commands/extract.js');
      return await runExtract(fast.refs, fast.opts as never, io);
    }
    const { runProgram } = await import('./program.js');
    return await runProgram(argv, io);
  } catch (err) {
    if (!isRefcatError(err)) throw err;
    await printDiagnostics(io, [{ code: err.code, message: err.message, details: err.details }]);
    return err.exitCode;
  }
}
