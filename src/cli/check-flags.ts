import { CHECK_FORMATS } from '../core/output/render-findings.js';
import type { ExitCode } from '../shared/errors.js';
import type { FlagSpec } from './extract-flags.js';
import { formatFlags } from './format-flags.js';
import type { IO } from './io.js';
import { aliasPair, collect } from './options.js';
import { optimizeOnlyLongRunningCode } from './tiering.js';

/**
 * The flags of the check commands (`validate`, `verify refs`), as data, as extract-flags.ts has
 * them for extraction: program.ts builds the commander options from these tables, and
 * fast-argv.ts parses the common case from the same tables without loading commander (20-25 ms of
 * every `verify refs`, the command CI runs on each push). Keep this file free of heavy imports.
 */
export interface CheckCommand {
  /** The words that name it: `['validate']`, `['verify', 'refs']`. */
  words: readonly string[];
  /** Its own flags first, then the shared ones, in the order `--help` lists them. */
  flags: readonly FlagSpec[];
  /** Its paths, as commander declares them: `<files...>` needs at least one, `[paths...]` none. */
  argument: [string, string];
  /** The implementation, imported only when the command runs. */
  run: (paths: string[], opts: any, io: IO) => Promise<ExitCode>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** --strict, --json, --format, -e/--exclude, --alias: every check command has them. */
const SHARED_FLAGS: readonly FlagSpec[] = [
  { flags: '--strict', description: 'warnings count as errors' },
  ...formatFlags(CHECK_FORMATS, 'text'),
  { flags: '-e, --exclude <glob>', description: 'skip files and folders matching the glob (repeatable)', parse: collect },
  { flags: '--skip-ignored', description: 'skip files named directly that ./.sdqctlignore lists too (for pre-commit, which names every file)' },
  { flags: '--alias <name=path>', description: 'define an alias (repeatable)', parse: aliasPair },
  { flags: '--worktree', description: 'read pinned aliases from their checkouts as they are, not at the lockfile pin' },
  { flags: '--pinned', description: 'a pin missing from its clone is an error, not a warning' },
];

export const VALIDATE: CheckCommand = {
  words: ['validate'],
  flags: [{ flags: '--allow-missing', description: 'missing files, unknown aliases and unmatched CONTEXT are warnings, not errors' }, ...SHARED_FLAGS],
  argument: ['<files...>', 'workflow files, folders (every *.conv below) or globs'],
  run: async (paths, opts, io) => (await import('./commands/validate.js')).runValidate(paths, opts, io),
};

export const VERIFY_REFS: CheckCommand = {
  words: ['verify', 'refs'],
  flags: [
    { flags: '--suggest-fixes', description: 'for a missing file, propose existing files with the same name' },
    { flags: '--allow-missing', description: 'refs into an alias folder not cloned are warnings, not errors (every other ref is checked)' },
    ...SHARED_FLAGS,
    { flags: '--drift', description: 'say which line refs moved, changed or lost their file since they were written (needs git)' },
    { flags: '--fix', description: 'rewrite moved line refs in place (implies --drift)' },
    { flags: '--dry-run', description: 'with --fix: print what would be rewritten, write nothing (implies --fix)' },
    { flags: '--since <rev>', description: 'compare every ref with this revision, not the commit of its line (implies --drift)' },
    { flags: '--accept', description: 'record every changed line ref as reviewed, in refcat-accepted.json (implies --drift)' },
    { flags: '--fix-snippets', description: 'rewrite stale snippets that were exact copies when written with the current code (implies --fix)' },
    { flags: '--no-snippets', description: 'do not compare cited snippets with the code (their refs are still checked)' },
  ],
  argument: ['[paths...]', 'files and folders to scan (default: .)'],
  run: async (paths, opts, io) => {
    optimizeOnlyLongRunningCode();
    return (await import('./commands/verify-refs.js')).runVerifyRefs(paths, opts, io);
  },
};

export const CHECK_COMMANDS: readonly CheckCommand[] = [VALIDATE, VERIFY_REFS];
