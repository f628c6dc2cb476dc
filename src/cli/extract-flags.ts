import { OUTPUT_FORMATS } from '../core/output/render-extraction.js';
import { ENCODINGS } from '../core/tokens/tokenizer.js';
import { SECRETS_MODES } from '../core/secrets/secrets-mode.js';
import { formatFlag, JSON_FLAG } from './format-flags.js';
import { aliasPair, nonNegativeInt, positiveInt, revisionArg } from './options.js';

/**
 * The flags of the default command (`refcat [REFS...]`), as data. program.ts builds the commander
 * options from this table, and fast-argv.ts parses the common case from the same table without
 * loading commander at all: commander alone costs more start-up than the whole extraction, and
 * start-up is benchmarked against `node -e 0`. Keep this file free of heavy imports.
 */
export interface FlagSpec {
  /** Commander flags syntax: '-C, --context <n>', '--no-cwd', '--json'. */
  flags: string;
  description: string;
  /** Converts and checks a value; throws commander's InvalidArgumentError on a bad one. */
  parse?: (value: string, previous?: any) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any
  choices?: readonly string[];
}

export const EXTRACT_FLAGS: readonly FlagSpec[] = [
  JSON_FLAG,
  { flags: '--spec', description: 'one normalized ref spec per line (same as --format spec)' },
  { flags: '-q, --quiet', description: 'raw selected lines only (same as --format raw)' },
  { flags: '--cite', description: 'each ref as a citation: fenced, its ref in a comment, lines verbatim (same as --format cite)' },
  formatFlag(OUTPUT_FORMATS, 'markdown'),
  { flags: '--no-line-numbers', description: 'do not number lines' },
  { flags: '--no-cwd', description: "drop ' (relative to ...)' from headers" },
  { flags: '--absolute', description: 'show absolute paths' },
  { flags: '--relative-to <dir>', description: 'base folder for relative refs and shown paths' },
  { flags: '--no-attribution', description: 'fenced block only, no "## From:" header' },
  { flags: '-C, --context <n>', description: 'extra lines around every selection', parse: nonNegativeInt },
  { flags: '--alias <name=path>', description: 'define an alias (repeatable)', parse: aliasPair },
  { flags: '--validate-only', description: 'check the refs; print one line per ref, no content' },
  { flags: '--list-files', description: 'print the files the refs expand to' },
  { flags: '--from-workflow <file>', description: 'also take the REFCAT and CONTEXT refs of a .conv workflow' },
  { flags: '--no-ignore', description: 'globs: do not skip .gitignore, node_modules/ and .git/' },
  { flags: '--at <rev>', description: 'read refs without an alias at a commit, branch or tag of this repository', parse: revisionArg },
  { flags: '--worktree', description: 'read pinned aliases from their checkouts as they are, not at the lockfile pin' },
  { flags: '--pinned', description: 'a pin missing from its clone is an error, not a warning' },
  { flags: '--secrets <mode>', description: 'a file holding a credential: redact it (default), withhold the file, fail (exit 1), or allow it as is', choices: SECRETS_MODES },
  { flags: '--outline', description: 'each file as an outline: signatures and doc comments, bodies as refs that read them' },
  { flags: '--tokens', description: 'count tokens: a summary on stderr, "tokens" fields with --json' },
  { flags: '--encoding <encoding>', description: 'tokenizer for --tokens and --max-tokens (default o200k_base)', choices: ENCODINGS },
  { flags: '--max-tokens <n>', description: 'keep the markdown output within N tokens (refs that do not fit are cut or left out)', parse: positiveInt },
];
