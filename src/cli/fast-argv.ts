import { EXTRACT_FLAGS, type FlagSpec } from './extract-flags.js';

/**
 * Every command name the program knows (first argument). test/unit/fast-argv.test.ts checks this
 * list against the commander program, so a new command cannot be shadowed by the fast path.
 */
export const COMMAND_NAMES: readonly string[] = ['refcat', 'aliases', 'validate', 'verify', 'fd', 'ref', 'mcp', 'lsp', 'help'];

interface Flag {
  spec: FlagSpec;
  attr: string;
  takesValue: boolean;
  negate: boolean;
}

let table: Map<string, Flag> | undefined;

function flags(): Map<string, Flag> {
  if (table) return table;
  table = new Map();
  for (const spec of EXTRACT_FLAGS) {
    const names = spec.flags.split(/[ ,|]+/).filter((f) => f.startsWith('-'));
    const long = names.find((n) => n.startsWith('--'))!;
    const negate = long.startsWith('--no-');
    const attr = long
      .slice(negate ? 5 : 2)
      .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    const flag = { spec, attr, takesValue: spec.flags.includes('<'), negate };
    for (const n of names) table.set(n, flag);
  }
  return table;
}

export interface FastParse {
  refs: string[];
  opts: Record<string, unknown>;
}

/**
 * Parse `refcat [REFS...] [flags]` the way commander would, for the common case only. Returns
 * null for anything else (a command name, --help, an unknown flag, a bad value, a missing value):
 * commander then parses the same argv and reports the problem with its usual messages.
 */
export function fastParseExtract(argv: readonly string[]): FastParse | null {
  let args = argv;
  if (args[0] === 'refcat') args = args.slice(1);
  else if (args.length > 0 && COMMAND_NAMES.includes(args[0]!)) return null;

  const opts: Record<string, unknown> = {};
  for (const f of flags().values()) if (f.negate) opts[f.attr] = true;
  const refs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      refs.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      refs.push(arg);
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
    const flag = flags().get(name);
    if (!flag) return null;
    if (!flag.takesValue) {
      if (value !== undefined) return null;
      opts[flag.attr] = !flag.negate;
      continue;
    }
    if (value === undefined) {
      value = args[++i];
      if (value === undefined) return null;
    }
    if (flag.spec.choices && !flag.spec.choices.includes(value)) return null;
    try {
      opts[flag.attr] = flag.spec.parse ? flag.spec.parse(value, opts[flag.attr] as never) : value;
    } catch {
      return null;
    }
  }
  return { refs, opts };
}
