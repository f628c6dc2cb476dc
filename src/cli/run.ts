import fs from 'node:fs';
import path from 'node:path';
import { tableCacheDir, useTableCache } from '../core/symbols/table-cache-folder.js';
import { closest } from '../shared/did-you-mean.js';
import { type ExitCode, isRefcatError, UsageError } from '../shared/errors.js';
import { COMMAND_NAMES, commandFirst, fastParseCheck, fastParseExtract, firstWord, missingSubcommand } from './fast-argv.js';
import { type IO, printDiagnostics } from './io.js';

/**
 * Run the CLI on `argv` (without node and script) and return the exit code. A user's mistake
 * never throws out of here: RefcatErrors are printed as one `Error:` line (plus details) and
 * mapped to their exit code; only a bug escapes, for main.ts to report.
 *
 * The common cases, a plain extraction, `validate` and `verify refs`, are parsed without loading
 * commander (fast-argv.ts); everything else goes through the full commander program.
 */
export async function runCli(argv: string[], io: IO): Promise<ExitCode> {
  // Declaration tables are kept between runs (docs/symbols.md#the-table-cache); nothing is read until a symbol ref asks.
  useTableCache(tableCacheDir(io.ctx));
  try {
    // Flags before a command name apply to the command (docs/reference.md#commands).
    argv = [...commandFirst(argv)];
    const missing = missingSubcommand(argv);
    if (missing) throw new UsageError(missing);
    checkCommandTypo(argv[0]?.startsWith('-') ? argv[firstWord(argv)] : argv[0], io);
    argv = helpTopic(argv);
    const fast = fastParseExtract(argv);
    if (fast) {
      const { runExtract } = await import('./commands/extract.js');
      return await runExtract(fast.refs, fast.opts as never, io);
    }
    const check = fastParseCheck(argv);
    if (check) return await check.command.run(check.paths, check.opts, io);
    const { runProgram } = await import('./program.js');
    return await runProgram(argv, io);
  } catch (err) {
    if (!isRefcatError(err)) throw err;
    await printDiagnostics(io, [{ code: err.code, message: err.message, details: err.details }]);
    return err.exitCode;
  }
}

/**
 * `refcat help <command> [<subcommand>]` is `refcat <command> [<subcommand>] --help`, and `refcat
 * help` or `refcat help help` the main help (commander would show `verify`'s help for `help verify
 * refs`, and answer `help help` on stderr with exit 2). A word that names no command is a usage
 * error that says so (commander would print the whole help, and exit 2 without a word why).
 */
function helpTopic(argv: string[]): string[] {
  if (argv[0] !== 'help') return argv;
  const words = argv.slice(1);
  const topic = words[0];
  if (topic === undefined || topic === 'help') return ['--help'];
  if (topic.startsWith('-')) return argv;
  if (!COMMAND_NAMES.includes(topic)) {
    const meant = closest(topic.toLowerCase(), COMMAND_NAMES.filter((c) => c !== 'help' && c !== 'refcat'));
    throw new UsageError(`Unknown command '${topic}'${meant ? ` (did you mean ${meant}?)` : ''}: 'refcat --help' lists the commands, and extracting refs is the main job, without one`);
  }
  return [...words.filter((w) => !w.startsWith('-')), '--help'];
}

/**
 * `refcat valdate x.conv` would read `valdate` as a ref to a missing file. A first word that is
 * close to a command name, looks like no path (no `/`, `.`, `@`, `#` or `:`) and names no file is a
 * typo: a usage error with the command it was probably meant to be.
 */
function checkCommandTypo(first: string | undefined, io: IO): void {
  if (first === undefined || !/^[a-z][a-z-]*$/i.test(first) || COMMAND_NAMES.includes(first)) return;
  const meant = closest(first.toLowerCase(), COMMAND_NAMES);
  if (meant === null || fs.existsSync(path.resolve(io.ctx.cwd, first))) return;
  throw new UsageError(`Unknown command '${first}' (did you mean ${meant}?)`);
}
