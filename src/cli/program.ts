import { readFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { ExitCode } from '../shared/errors.js';
import { EXTRACT_FLAGS, type FlagSpec } from './extract-flags.js';
import type { IO } from './io.js';
import { aliasPair, FlagValueError } from './options.js';

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
    .action(async (refs: string[], opts) => {
      const { runExtract } = await import('./commands/extract.js');
      setExit(await runExtract(refs, opts, io));
    });
  for (const spec of EXTRACT_FLAGS) extractCmd.addOption(toOption(spec));
  extractCmd.showSuggestionAfterError(true);

  program
    .command('aliases')
    .description('list every alias, its target and where it was defined')
    .option('--json', 'JSON output')
    .option('--alias <name=path>', 'add an explicit alias (repeatable)', commanderParser(aliasPair))
    .action(async (opts) => {
      const { runAliases } = await import('./commands/aliases.js');
      setExit(await runAliases(opts, io));
    });

  return program;
}

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** A commander Option from a flag table entry (extract-flags.ts). */
function toOption(spec: FlagSpec): Option {
  const opt = new Option(spec.flags, spec.description);
  if (spec.choices) opt.choices(spec.choices);
  if (spec.parse) opt.argParser(commanderParser(spec.parse));
  return opt;
}

/** Wrap our value parsers so that a bad value is commander's InvalidArgumentError (exit 2). */
function commanderParser<T>(parse: (value: string, previous?: any) => T): (value: string, previous: any) => T { // eslint-disable-line @typescript-eslint/no-explicit-any
  return (value, previous) => {
    try {
      return parse(value, previous);
    } catch (err) {
      if (err instanceof FlagValueError) throw new InvalidArgumentError(err.message);
      throw err;
    }
  };
}

/**
 * Parse and run `argv` with the full commander program. Commander's own errors (unknown flag,
 * bad value, missing argument) are usage errors: exit 2. Help and version exit 0.
 */
export async function runProgram(argv: string[], io: IO): Promise<ExitCode> {
  let code: ExitCode = 0;
  const program = createProgram(io, (c) => {
    code = c;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    const ok = ['commander.helpDisplayed', 'commander.version', 'commander.help'];
    return ok.includes(err.code) || err.exitCode === 0 ? 0 : 2;
  }
}
