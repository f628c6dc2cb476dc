import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { type ExitCode, isRefcatError } from '../shared/errors.js';
import type { IO } from './io.js';
import { aliasPair, nonNegativeInt } from './options.js';

/**
 * Build the commander program (STYLE 6). Commands are declared here, with their flags and help;
 * their implementations live in src/cli/commands/ and are imported only when run, so start-up
 * stays cheap (STYLE 11). Every action returns an exit code.
 */
export function createProgram(io: IO, setExit: (code: ExitCode) => void): Command {
  const program = new Command('refcat')
    .description('Exact, attributed context for LLM workflows.')
    .version(VERSION, '-V, --version')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout(s),
      writeErr: (s) => io.stderr(s),
      outputError: (s, write) => write(s.replace(/^error:/, 'Error:')),
    })
    .addHelpText(
      'after',
      `
Examples:
  $ refcat @src/app.ts#L10-L50            lines 10-50 as attributed markdown
  $ refcat 'src/**/*.ts#/export function/' first match in every file
  $ refcat loop:Sources/A.swift#L3-L9      a line range in an aliased repository
  $ refcat validate workflows/             check every .conv below a folder

Exit codes: 0 success (warnings allowed), 1 a check or ref failed, 2 usage error.`,
    );

  const extractCmd = program
    .command('refcat', { isDefault: true })
    .description('extract refs as attributed markdown, JSON, raw text or normalized specs (the default command)')
    .argument('[refs...]', 'refs like @path#L10-L50, path#/regex/:+5, alias:path#L3, src/**/*.ts')
    .option('--json', 'JSON output (same as --format json)')
    .option('--spec', 'one normalized ref spec per line (same as --format spec)')
    .option('-q, --quiet', 'raw selected lines only (same as --format raw)')
    .addOption(new Option('--format <format>', 'output format').choices(['markdown', 'json', 'spec', 'raw']))
    .option('--no-line-numbers', 'do not number lines')
    .option('--no-cwd', "drop ' (relative to ...)' from headers")
    .option('--absolute', 'show absolute paths')
    .option('--relative-to <dir>', 'base folder for relative refs and shown paths')
    .option('--no-attribution', 'fenced block only, no "## From:" header')
    .option('-C, --context <n>', 'extra lines around every selection', nonNegativeInt)
    .option('--alias <name=path>', 'define an alias (repeatable)', aliasPair)
    .option('--validate-only', 'check the refs; print one line per ref, no content')
    .option('--list-files', 'print the files the refs expand to')
    .option('--from-workflow <file>', 'also take the REFCAT and CONTEXT refs of a .conv workflow')
    .option('--no-ignore', 'globs: do not skip .gitignore, node_modules/ and .git/')
    .action(async (refs: string[], opts) => {
      const { runExtract } = await import('./commands/extract.js');
      setExit(await runExtract(refs, opts, io));
    });
  extractCmd.showSuggestionAfterError(true);

  program
    .command('aliases')
    .description('list every alias, its target and where it was defined')
    .option('--json', 'JSON output')
    .option('--alias <name=path>', 'add an explicit alias (repeatable)', aliasPair)
    .action(async (opts) => {
      const { runAliases } = await import('./commands/aliases.js');
      setExit(await runAliases(opts, io));
    });

  return program;
}

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/**
 * Run the CLI on `argv` (without node and script). Returns the exit code; never throws for a
 * user's mistake. Commander's own errors (unknown flag, bad value) are usage errors: exit 2.
 */
export async function runCli(argv: string[], io: IO): Promise<ExitCode> {
  let code: ExitCode = 0;
  const program = createProgram(io, (c) => {
    code = c;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0) return 0;
      if (err.code === 'commander.help') return 0;
      return 2;
    }
    if (isRefcatError(err)) {
      const { printDiagnostics } = await import('./io.js');
      await printDiagnostics(io, [{ code: err.code, message: err.message, details: err.details }]);
      return err.exitCode;
    }
    throw err;
  }
}
