import { CHECK_COMMANDS, type CheckCommand } from './check-flags.js';
import { EXTRACT_FLAGS, type FlagSpec } from './extract-flags.js';

/**
 * Every command name the program knows (first argument). test/unit/fast-argv.test.ts checks this
 * list against the commander program, so a new command cannot be shadowed by the fast path.
 */
export const COMMAND_NAMES: readonly string[] = ['refcat', 'aliases', 'validate', 'verify', 'symbols', 'fd', 'ref', 'mcp', 'lsp', 'anchor', 'help'];

/** The commands whose next word names a subcommand (`verify refs`, `fd read`, `ref show`), with their subcommands. */
export const SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  verify: ['refs'],
  fd: ['read', 'list', 'close', 'write'],
  ref: ['list', 'show', 'scan', 'export'],
};
export const PARENT_COMMANDS: readonly string[] = Object.keys(SUBCOMMANDS);

/**
 * `refcat verify --json` (or `refcat --json verify`): flags, and no subcommand for them to go
 * with. The message names the subcommands, the flags after the first (commander would only say
 * `unknown option '--json'`). Null for any other argv, and for a parent command alone or asked
 * for its help (commander prints its help then).
 */
export function missingSubcommand(argv: readonly string[]): string | null {
  const command = argv[0] ?? '';
  // Own names only: `refcat constructor --json` names a file, not Object's constructor.
  if (!Object.hasOwn(SUBCOMMANDS, command) || argv.length < 2) return null;
  const subcommands = SUBCOMMANDS[command]!;
  const rest = argv.slice(1);
  if (rest.some((a) => !a.startsWith('-') || a === '-' || PROGRAM_FLAGS.includes(a))) return null;
  const names = subcommands.length === 1 ? subcommands[0] : `${subcommands.slice(0, -1).join(', ')} or ${subcommands[subcommands.length - 1]}`;
  return `'refcat ${command}' needs a command for its flags: ${names} (refcat ${command} ${subcommands[0]} ${rest.join(' ')})`;
}

/**
 * `refcat --json validate f.conv` as `refcat validate --json f.conv`: flags before a command name
 * apply to that command (docs/reference.md#commands). The first word that is not a flag (nor a
 * flag's value) is the command when it is a command name, as it is when it comes first; a file of
 * that name is `@validate` or `./validate`, and `--` ends the flags. The flags go right after the
 * command's words, in their order. An argv that starts with no flag is returned as it is, at once:
 * a plain `refcat @file#L1` pays nothing.
 */
export function commandFirst(argv: readonly string[]): readonly string[] {
  if (!argv[0]?.startsWith('-')) return argv;
  const i = firstWord(argv);
  if (i <= 0 || !COMMAND_NAMES.includes(argv[i]!)) return argv;
  const words = PARENT_COMMANDS.includes(argv[i]!) && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-') ? 2 : 1;
  return [...argv.slice(i, i + words), ...argv.slice(0, i), ...argv.slice(i + words)];
}

/** The index of the first word that is no flag nor a flag's value; -1 at `--`, `-h` or `-V` first (the program's own). */
export function firstWord(argv: readonly string[]): number {
  const known = [flagsOf(EXTRACT_FLAGS), ...CHECK_COMMANDS.map((c) => flagsOf(c.flags))];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--' || PROGRAM_FLAGS.includes(arg)) return -1;
    if (!arg.startsWith('-') || arg === '-') return i;
    // `--alias x=y` takes the next word; `--alias=x=y`, `-C3` and a flag no table knows do not.
    if (arg.startsWith('--') ? arg.includes('=') : arg.length > 2) continue;
    if (known.some((t) => t.get(arg)?.takesValue)) i++;
  }
  return -1;
}

const PROGRAM_FLAGS: readonly string[] = ['-h', '--help', '-V', '--version'];

interface Flag {
  spec: FlagSpec;
  attr: string;
  takesValue: boolean;
  negate: boolean;
}

const tables = new Map<readonly FlagSpec[], Map<string, Flag>>();

/** Every name of every flag of `specs` (`-C` and `--context` alike), with what it sets. */
function flagsOf(specs: readonly FlagSpec[]): Map<string, Flag> {
  let table = tables.get(specs);
  if (table) return table;
  table = new Map();
  for (const spec of specs) {
    const names = spec.flags.split(/[ ,|]+/).filter((f) => f.startsWith('-'));
    const long = names.find((n) => n.startsWith('--'))!;
    const negate = long.startsWith('--no-');
    const attr = long
      .slice(negate ? 5 : 2)
      .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    const flag = { spec, attr, takesValue: spec.flags.includes('<'), negate };
    for (const n of names) table.set(n, flag);
  }
  tables.set(specs, table);
  return table;
}

export interface FastParse {
  refs: string[];
  opts: Record<string, unknown>;
}

/**
 * Parse `refcat [REFS...] [flags]` the way commander would, for the common case only. Returns
 * null for anything else (a command name, --help, an unknown flag, a bad value, a missing value, a
 * value starting with `-`, which commander's own `-h` or `-V` may claim): commander then parses the
 * same argv and reports the problem with its usual messages.
 */
export function fastParseExtract(argv: readonly string[]): FastParse | null {
  let args = argv;
  if (args[0] === 'refcat') args = args.slice(1);
  else if (args.length > 0 && COMMAND_NAMES.includes(args[0]!)) return null;
  const parsed = parseFlags(args, EXTRACT_FLAGS);
  return parsed && { refs: parsed.args, opts: parsed.opts };
}

/**
 * `refcat validate ...` and `refcat verify refs ...` parsed as commander would, for the common
 * case only (null otherwise, as fastParseExtract): the command, its paths and its options.
 */
export function fastParseCheck(argv: readonly string[]): { command: CheckCommand; paths: string[]; opts: Record<string, unknown> } | null {
  const command = CHECK_COMMANDS.find((c) => c.words.every((w, i) => argv[i] === w));
  if (!command) return null;
  const parsed = parseFlags(argv.slice(command.words.length), command.flags);
  // A missing required path is commander's to report.
  if (!parsed || (command.argument[0].startsWith('<') && parsed.args.length === 0)) return null;
  return { command, paths: parsed.args, opts: parsed.opts };
}

/**
 * Arguments and flags as commander reads them, or null where commander would reject them (an
 * unknown flag, a flag value that is missing or bad) or may read them otherwise (a flag value
 * that starts with `-`: commander takes it as the value, unless it is the program's `-h` or `-V`).
 */
function parseFlags(args: readonly string[], specs: readonly FlagSpec[]): { args: string[]; opts: Record<string, unknown> } | null {
  const flags = flagsOf(specs);
  const opts: Record<string, unknown> = {};
  for (const f of flags.values()) if (f.negate) opts[f.attr] = true;
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    let name = arg;
    let value: string | undefined;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq !== -1) {
      name = arg.slice(0, eq);
      value = arg.slice(eq + 1);
    } else if (!arg.startsWith('--') && arg.length > 2) {
      name = arg.slice(0, 2);
      value = arg.slice(2);
    }
    const flag = flags.get(name);
    if (!flag) return null;
    if (!flag.takesValue) {
      if (value !== undefined) return null;
      opts[flag.attr] = !flag.negate;
      continue;
    }
    if (value === undefined) {
      value = args[++i];
      if (value === undefined || value.startsWith('-')) return null;
    }
    if (flag.spec.choices && !flag.spec.choices.includes(value)) return null;
    try {
      opts[flag.attr] = flag.spec.parse ? flag.spec.parse(value, opts[flag.attr] as never) : value;
    } catch {
      return null;
    }
  }
  return { args: positional, opts };
}
