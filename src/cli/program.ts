import { readFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { FD_FORMATS } from '../core/output/render-fd.js';
import { REF_CONTENT_FORMATS, REF_LIST_FORMATS } from '../core/output/render-response-refs.js';
import { ENCODINGS } from '../core/tokens/tokenizer.js';
import { WRITE_MODES } from '../core/safe-write/write-mode.js';
import { SECRETS_MODES } from '../core/secrets/secrets-mode.js';
import type { ExitCode } from '../shared/errors.js';
import { type CheckCommand, VALIDATE, VERIFY_REFS } from './check-flags.js';
import { EXTRACT_FLAGS, type FlagSpec } from './extract-flags.js';
import { formatFlags, TABLE_FORMATS } from './format-flags.js';
import type { IO } from './io.js';
import { aliasPair, collect, FlagValueError, lineRange, pageNumber, positiveInt, revisionArg, slashRegex } from './options.js';

/** The extraction flags, one line each, for the top-level help: extracting is the main job. */
function extractFlagsHelp(): string {
  const width = Math.max(...EXTRACT_FLAGS.map((f) => f.flags.length)) + 2;
  return EXTRACT_FLAGS.map((f) => `  ${f.flags.padEnd(width)}${f.description}${f.choices ? ` (${f.choices.join(', ')})` : ''}`).join('\n');
}

/**
 * Build the commander program (STYLE 6). Commands are declared here, with their flags and help;
 * their implementations live in src/cli/commands/ and are imported only when run, so start-up
 * stays cheap (STYLE 11). Every action returns an exit code.
 */
export function createProgram(io: IO, setExit: (code: ExitCode) => void): Command {
  const program = new Command('refcat')
    .usage('[options] <refs...>    extract refs (the main job)\n       refcat <command> [options]')
    .description('Exact, attributed context for LLM workflows.')
    .version(VERSION, '-V, --version')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout(s),
      writeErr: (s) => io.stderr(s),
      // One line per error: commander puts its suggestion on a second line.
      outputError: (s, write) => write(s.replace(/^error:/, 'Error:').replace(/\n\(Did you mean (.+?)\)(?=\n|$)/, ' (did you mean $1)')),
    })
    .addHelpText(
      'after',
      `
Extracting refs (refcat [options] <refs...>):
${extractFlagsHelp()}

Examples:
  $ refcat @src/app.ts#L10-L50             lines 10-50 as attributed markdown
  $ refcat 'src/**/*.ts#/export function/'  the first match in every file that has one
  $ refcat loop:Sources/A.swift#L3-L9       a line range in an aliased repository
  $ refcat validate workflows/              check every .conv below a folder

Other commands' flags: refcat <command> --help

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

  const aliases = program
    .command('aliases')
    .description('list every alias, its target and where it was defined; for an alias workspace.lock.json pins, its pin and whether the checkout is at it');
  addFormatOptions(aliases, TABLE_FORMATS, 'text')
    .option('--alias <name=path>', 'add an explicit alias (repeatable)', commanderParser(aliasPair))
    .action(async (opts) => {
      const { runAliases } = await import('./commands/aliases.js');
      setExit(await runAliases(opts, io));
    });

  addCheckCommand(program, {
    description: 'validate .conv workflows: directives, values, blocks, INCLUDEs and every ref',
    command: VALIDATE,
    help: `
Examples:
  $ refcat validate flow.conv                  one workflow
  $ refcat validate . -e 'drafts/**'           every .conv below the current folder but drafts/
  $ refcat validate 'workflows/**/*.conv' --format github    annotations for GitHub Actions

Exit codes: 0 every workflow valid (warnings allowed), 1 a workflow has errors, 2 usage error.`,
    setExit,
  }, io);

  const verify = program
    .command('verify')
    .description('static checks without running anything (see: refcat verify refs --help)');
  addCheckCommand(verify, {
    description: 'check the references in workflows, markdown, text and yaml files',
    command: VERIFY_REFS,
    help: `
Scans .md .conv .txt .yaml .yml files, skipping .git node_modules .venv venv dist build
__pycache__ and what <folder>/.sdqctlignore and -e list. Finds @path.ext[#selector] and
alias:path.ext refs (not e-mails, URLs, @param words, version pins, host:port, path/to/...).
In markdown, a fenced code block whose first line is a comment holding a ref (\`// @src/a.ts#L3-L9\`),
or that follows a one-ref caption, is a cited snippet: its lines are compared with the code it
cites (verbatim, excerpt or stale).

Examples:
  $ refcat verify refs                         every doc below the current folder
  $ refcat verify refs docs/ README.md --suggest-fixes
  $ refcat verify refs --format github
  $ refcat verify refs --drift                 do line refs still point at the code they cite?
  $ refcat verify refs --fix                   rewrite the refs whose lines moved
  $ refcat verify refs --drift --since main    compare with main instead of each ref's commit
  $ refcat verify refs --fix-snippets          refresh snippets that were exact copies of changed code
  $ refcat verify refs --no-snippets           check cited snippets' refs, not their lines

--drift needs git and the history (in CI: actions/checkout with fetch-depth: 0). --fix implies
--drift; --fix-snippets implies --fix; --dry-run implies --fix and writes nothing; --since and
--accept imply --drift.

Exit codes: 0 no broken reference, 1 a reference is broken or a snippet stale (or changed or deleted with
--drift; moved, unknown and changed refs by name too with --strict), 2 usage error.`,
    setExit,
  }, io);

  const symbols = program
    .command('symbols')
    .description('list the declarations of files, globs or symbol refs, each with the ref that reads it')
    .argument('[refs...]', 'files, globs, alias:path or a symbol ref (@src/app.ts#Store) to list what it holds');
  addFormatOptions(symbols, TABLE_FORMATS, 'text')
    .option('--alias <name=path>', 'add an explicit alias (repeatable)', commanderParser(aliasPair))
    .option('--no-ignore', 'include .gitignore\'d files, node_modules/ and .git/ in globs')
    .option('--at <rev>', 'read refs without an alias at a commit, branch or tag of this repository', commanderParser(revisionArg))
    .option('--worktree', 'read pinned aliases from their checkouts as they are, not at the lockfile pin')
    .option('--pinned', 'a pin missing from its clone is an error, not a warning')
    .addOption(new Option('--secrets <mode>', 'a name that is a credential: redact it and list its declaration by lines (default; withhold and fail do the same), or allow it as is').choices(SECRETS_MODES))
    .addHelpText(
      'after',
      `
One line per declaration: its symbol ref, line range and kind, members indented under their type.
Languages: TypeScript, JavaScript, Python, Swift, Kotlin, Java, Go, Rust, C, C++, C#, Ruby.

Examples:
  $ refcat symbols src/app.ts                  every declaration of one file
  $ refcat symbols 'src/**/*.ts' --json        a codebase's names, for an agent
  $ refcat symbols @src/app.ts#Store           Store and its members

Refs by name: docs/symbols.md
Exit codes: 0 listed, 1 a ref failed (a missing file, no grammar, too large), 2 usage error.`,
    )
    .action(async (refs: string[], opts) => {
      const { runSymbols } = await import('./commands/symbols.js');
      setExit(await runSymbols(refs, opts, io));
    });
  addFdCommands(program, io, setExit);
  addRefCommands(program, io, setExit);
  addAnchorCommand(program, io, setExit);
  program
    .command('mcp')
    .description('serve the refcat tools to an AI agent (Model Context Protocol on stdio)')
    .option('--root <dir>', 'the folder tools may read and write in (default: the current folder)')
    .option('--store <dir>', 'fd store folder (as for refcat fd)')
    .addOption(new Option('--secrets <mode>', 'what every answer does with a credential: redact (default), withhold, fail, allow; no tool call can change it').choices(SECRETS_MODES))
    .addHelpText('after', '\nSetup for Claude Code, Cursor and VS Code: docs/agents.md')
    .action(async (opts) => {
      const { runMcp } = await import('./commands/mcp.js');
      setExit(await runMcp({ ...opts, version: VERSION }, io));
    });
  program
    .command('lsp')
    .description('serve refs to your editor (Language Server Protocol on stdio) for markdown and .conv files')
    .option('--stdio', 'talk over stdin/stdout (the default and only transport; accepted since many clients pass it)')
    .addHelpText('after', '\nSetup for VS Code, Neovim, Helix and Zed: docs/editor.md')
    .action(async () => {
      const { runLsp } = await import('./commands/lsp.js');
      setExit(await runLsp(io));
    });
  return program;
}

/** `refcat fd read|list|close|write` (docs/reference.md#fd-and-ref). */
/** `refcat anchor`: line refs that are one declaration become refs by name (docs/drift.md#anchoring). */
function addAnchorCommand(program: Command, io: IO, setExit: (code: ExitCode) => void): void {
  const anchor = program
    .command('anchor')
    .description('rewrite line refs that select exactly one declaration into refs by name (#Class.method)')
    .argument('[paths...]', 'docs, .conv files and folders to scan (default: .)');
  addFormatOptions(anchor, TABLE_FORMATS, 'text')
    .option('--drift', 'anchor each ref at the version it was written against (needs git)')
    .option('--since <rev>', 'with --drift: compare every ref with this revision (implies --drift)')
    .option('--dry-run', 'print what would be rewritten, write nothing')
    .option('-e, --exclude <glob>', 'skip files and folders matching the glob (repeatable)', commanderParser(collect))
    .option('--skip-ignored', 'skip files named directly that ./.sdqctlignore lists too')
    .option('--alias <name=path>', 'define an alias (repeatable)', commanderParser(aliasPair))
    .showSuggestionAfterError(true)
    .addHelpText(
      'after',
      `
A line ref whose lines are exactly one function, method, type or property (from its first line or
its doc comment to its end) becomes that declaration's ref by name, when the name is unique in its
file: @src/app.ts#L40-L52 -> @src/app.ts#Store.save. Every other ref is left as written. Only
the refs' characters change; a cited snippet is not touched.

Examples:
  $ refcat anchor docs/                 anchor the refs of every doc below docs/
  $ refcat anchor --dry-run             show what would change, write nothing
  $ refcat anchor --drift               anchor each ref to the declaration it was written against

Exit codes: 0 done (refs left as written are not a failure), 1 a file could not be written, 2 usage error.`,
    )
    .action(async (paths: string[], opts) => {
      const { runAnchor } = await import('./commands/anchor.js');
      setExit(await runAnchor(paths, opts, io));
    });
}

function addFdCommands(program: Command, io: IO, setExit: (code: ExitCode) => void): void {
  const fd = program
    .command('fd')
    .description('page through large content across calls (stdin, files, fd:N, ref:ID, ref specs)')
    .addHelpText(
      'after',
      `
Examples:
  $ some-command | refcat fd read          store the output, show page 1 and its fd
  $ refcat fd read fd:3 --page 2           the next page, in a later call
  $ refcat fd read big.log --lines 100-150 whole lines of a file
  $ refcat fd write fd:3 --to out.txt      save an fd to a file

Store: --store DIR, else $REFCAT_STORE, else ~/.sdqctl/fd/.`,
    );
  const fdRead = fd.command('read')
    .description('show content that fits one page, or page 1 and an fd to read the others')
    .argument('[source]', 'a file, - (stdin, the default), fd:N, ref:ID, or a ref spec like @src/a.ts#L1-L50')
    .option('--page <n>', 'read page N (from 1)', commanderParser(pageNumber))
    .option('--all', 'read everything (page="all")')
    .option('--lines <a-b>', 'read whole lines A to B (A-, A also work)', commanderParser(lineRange))
    .option('--page-size <n>', 'page size in characters (Unicode code points)', commanderParser(positiveInt), 4000)
    .option('--pretty-json', 'pretty-print JSON content (2 spaces) before paging');
  addFormatOptions(fdRead, FD_FORMATS, 'xml')
    .option('--save', 'store the content and answer with an fd even if it is a file or fits one page')
    .option('--store <dir>', 'store folder')
    .option('--tokens', 'count the tokens of the page shown (tokens="N")')
    .addOption(new Option('--encoding <encoding>', 'tokenizer for --tokens (default o200k_base)').choices(ENCODINGS))
    .action(async (source: string | undefined, opts) => {
      const { runFdRead } = await import('./commands/fd.js');
      setExit(await runFdRead(source, opts, io));
    });
  addFormatOptions(fd.command('list').description('list stored fds and refs'), TABLE_FORMATS, 'text')
    .option('--store <dir>', 'store folder')
    .action(async (opts) => {
      const { runFdList } = await import('./commands/fd.js');
      setExit(await runFdList(opts, io));
    });
  fd.command('close')
    .description('close an fd (its content is deleted; its number is never reused)')
    .argument('<fd>', 'fd:N or ref:ID')
    .option('--store <dir>', 'store folder')
    .action(async (id: string, opts) => {
      const { runFdClose } = await import('./commands/fd.js');
      setExit(await runFdClose(id, opts, io));
    });
  addWriteOptions(
    fd.command('write')
      .description('write an fd to a file (no silent overwrite; append; insert)')
      .argument('<fd>', 'fd:N or ref:ID'),
  ).action(async (id: string, opts) => {
    const { runFdWrite } = await import('./commands/fd.js');
    setExit(await runFdWrite(id, opts, io));
  });
}

/** `refcat ref list|show|scan|export` (docs/reference.md#refcat-ref-list--show--scan--export). */
function addRefCommands(program: Command, io: IO, setExit: (code: ExitCode) => void): void {
  const ref = program
    .command('ref')
    .description('<ref id="..."> sections of LLM output: list, show, store, export to files')
    .addHelpText(
      'after',
      `
Examples:
  $ refcat ref list --from answer.md
  $ refcat ref show fib_iterative --from answer.md --raw
  $ refcat ref export fib_iterative --from answer.md --to fibonacci.py
  $ refcat ref scan answer.md && refcat fd read ref:fib_iterative

Without --from, refs come from the store (see 'ref scan').`,
    );
  const from = '--from <file>';
  const fromHelp = 'transcript file (- for stdin); default: the refs stored by ref scan';
  addFormatOptions(ref.command('list').description('list the refs of a transcript').option(from, fromHelp), REF_LIST_FORMATS, 'xml')
    .option('--store <dir>', 'store folder')
    .action(async (opts) => {
      const { runRefList } = await import('./commands/ref.js');
      setExit(await runRefList(opts, io));
    });
  const refShow = ref.command('show')
    .description("show one ref's content")
    .argument('<id>', 'ref id')
    .option(from, fromHelp)
    .option('--raw', 'the content only (same as --format raw)');
  addFormatOptions(refShow, REF_CONTENT_FORMATS, 'xml')
    .option('--store <dir>', 'store folder')
    .action(async (id: string, opts) => {
      const { runRefShow } = await import('./commands/ref.js');
      setExit(await runRefShow(id, opts, io));
    });
  const refScan = ref.command('scan')
    .description('store every ref of a transcript as ref:ID (then fd read ref:ID works)')
    .argument('<file>', 'transcript file (- for stdin)');
  addFormatOptions(refScan, REF_LIST_FORMATS, 'xml')
    .option('--store <dir>', 'store folder')
    .action(async (file: string, opts) => {
      const { runRefScan } = await import('./commands/ref.js');
      setExit(await runRefScan(file, opts, io));
    });
  addWriteOptions(
    ref.command('export')
      .description("write a ref's content to a file, ending with a newline")
      .argument('<id>', 'ref id')
      .option(from, fromHelp)
      .option('--strip-fence', 'a ref that is exactly one fenced code block exports the code inside'),
  ).action(async (id: string, opts) => {
    const { runRefExport } = await import('./commands/ref.js');
    setExit(await runRefExport(id, opts, io));
  });
}

/** `--json` and `--format` (format-flags.ts), the same on every command that has them. */
function addFormatOptions(cmd: Command, choices: readonly string[], fallback: string): Command {
  for (const spec of formatFlags(choices, fallback)) cmd.addOption(toOption(spec));
  return cmd;
}

/** The file-safety flags shared by `ref export` and `fd write` (docs/reference.md#writing-files-ref-export-and-fd-write). */
function addWriteOptions(cmd: Command): Command {
  return cmd
    .option('--to <path>', 'target file, required (inside the working directory or --root)')
    .addOption(new Option('--mode <mode>', 'write (default), append or insert').choices(WRITE_MODES))
    .option('--line <n>', 'insert before line N (lines+1 appends); implies --mode insert', commanderParser(positiveInt))
    .option('--after <regex>', 'insert after the first line matching /regex/; implies --mode insert', commanderParser(slashRegex))
    .option('--force', 'overwrite an existing file (write mode)')
    .option('--root <dir>', 'folder targets must stay in (default: the working directory)')
    .option('--allow-outside', 'allow a target outside the root')
    .option('--store <dir>', 'store folder');
}

interface CheckCommandSpec {
  description: string;
  /** Its words, paths, flags and implementation (check-flags.ts, shared with the fast path of fast-argv.ts). */
  command: CheckCommand;
  help: string;
  setExit: (code: ExitCode) => void;
}

/**
 * `validate` and `verify refs`: the same shape and the flags they share (--strict, --json,
 * --format, -e/--exclude, --alias). The implementation is imported only when the command runs.
 */
function addCheckCommand(parent: Command, spec: CheckCommandSpec, io: IO): Command {
  // Its name is the last of its words (`verify refs`: `refs`, under `verify`).
  const cmd = parent.command(spec.command.words.at(-1)!).description(spec.description).argument(...spec.command.argument);
  for (const flag of spec.command.flags) cmd.addOption(toOption(flag));
  return cmd
    .showSuggestionAfterError(true)
    .action(async (args: string[], opts) => spec.setExit(await spec.command.run(args, opts, io)))
    .addHelpText('after', spec.help);
}

/** The version in refcat's package.json: two folders up from dist/cli/, one from the bundle in dist/bin/. */
const VERSION = ((): string => {
  for (const up of ['../../package.json', '../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'refcat' && pkg.version) return pkg.version;
    } catch {
      // not there: try the next place
    }
  }
  return 'unknown';
})();

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
    // Help asked for is a success; help shown because a subcommand is missing (`refcat verify`)
    // comes with exitCode 1 and is a usage error.
    const ok = ['commander.helpDisplayed', 'commander.version'];
    return ok.includes(err.code) || err.exitCode === 0 ? 0 : 2;
  }
}
