/**
 * The one error hierarchy of refcat. Every failure a user can cause is a RefcatError carrying the
 * exit code it maps to (docs/reference.md#exit-codes-and-messages: 1 = a check or ref failed, 2 = usage error), a stable machine code
 * (used in --json output) and optional detail lines printed indented under the message.
 * Errors become exit codes in exactly one place: the CLI entry (src/cli/main.ts).
 */
export type ExitCode = 0 | 1 | 2;

export class RefcatError extends Error {
  readonly exitCode: ExitCode;
  readonly code: string;
  readonly details: string[];
  /** The ref (as the user wrote it) the error is about, when there is one. */
  readonly ref: string | undefined;

  constructor(
    message: string,
    opts: { code: string; exitCode?: ExitCode; details?: string[]; ref?: string } = { code: 'error' },
  ) {
    // An expected failure, told by its message and never by a stack (stacks are for bugs, which
    // are not RefcatErrors): a docs tree with hundreds of broken refs would build a stack trace
    // for each, 20 ms a run that no one reads. The limit is restored at once, for other errors.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = new.target.name;
    this.code = opts.code;
    this.exitCode = opts.exitCode ?? 1;
    this.details = opts.details ?? [];
    this.ref = opts.ref;
  }
}

/** Bad flags, bad values, unparseable refs: exit 2. */
export class UsageError extends RefcatError {
  constructor(message: string, opts: { code?: string; details?: string[]; ref?: string } = {}) {
    super(message, { code: opts.code ?? 'usage', exitCode: 2, details: opts.details, ref: opts.ref });
  }
}

/** Past this, a ref is cut short in "Cannot parse ref". */
const MAX_QUOTED_REF_CHARS = 500;

export class RefParseError extends UsageError {
  readonly reason: string;
  constructor(ref: string, reason: string) {
    // A ref of thousands of characters (a pasted blob, a huge revision) is cut short: the message stays readable.
    const shown = ref.length > MAX_QUOTED_REF_CHARS ? `${ref.slice(0, 200)}… (${ref.length} characters)` : ref;
    super(`Cannot parse ref: ${shown} (${reason})`, { code: 'invalid_ref', ref });
    this.reason = reason;
  }
}

/**
 * A malformed configuration file (workspace.lock.json, aliases.yaml): named, never skipped. Also
 * one `refcat mcp` refuses to read (`refused`, code outside_root), reported the same way.
 */
export class ConfigError extends RefcatError {
  readonly file: string;
  constructor(file: string, problem: string, opts: { refused?: boolean } = {}) {
    super(opts.refused ? `Refused: ${file} ${problem}` : `Invalid config file ${file}: ${problem}`, { code: opts.refused ? 'outside_root' : 'invalid_config' });
    this.file = file;
  }
}

/** A failure about one ref: missing file, unknown alias, binary file, pattern not found, ... */
export class RefError extends RefcatError {
  constructor(code: string, message: string, ref: string, details: string[] = []) {
    super(message, { code, exitCode: 1, details, ref });
  }
}

/** A ref that names a folder, on disk or at a version: the glob that reads its files is the hint (`@src/**`). */
export function directoryError(refText: string): RefError {
  const hash = refText.indexOf('#');
  const folder = (hash === -1 ? refText : refText.slice(0, hash)).replace(/\/+$/, '');
  const glob = `${folder}/**${hash === -1 ? '' : refText.slice(hash)}`;
  return new RefError('is_directory', `Is a directory: ${refText}`, refText, [`A glob reads the files in it: ${glob}`]);
}

export function isRefcatError(err: unknown): err is RefcatError {
  return err instanceof RefcatError;
}

/** A diagnostic as it travels to a renderer: the same shape for errors and warnings. */
export interface Diagnostic {
  code: string;
  message: string;
  details: string[];
  ref?: string;
  /** The exit code of the error this came from, when it is not 1 (a check or a ref failed). */
  exitCode?: ExitCode;
}

export function toDiagnostic(err: RefcatError): Diagnostic {
  const d: Diagnostic = { code: err.code, message: err.message, details: err.details };
  if (err.exitCode !== 1) d.exitCode = err.exitCode;
  if (err.ref !== undefined) d.ref = err.ref;
  return d;
}

/** A diagnostic with its place: what `validate` and `verify refs` report. */
export interface Finding extends Diagnostic {
  severity: 'error' | 'warning';
  /** Absolute path of the file the finding is in. */
  file: string;
  /** 1-based line, or null for a finding about the whole file. */
  line: number | null;
}

/**
 * A failure of the fd pager about one piece of content (docs/reference.md#fd-and-ref): unknown or closed fd, page or line
 * range out of bounds, binary content. `type` is the fd_error type; `fd` the source as named.
 */
export class FdError extends RefcatError {
  readonly type: string;
  readonly fd: string;
  /** What `fd` is: a handle or a file read in place as the CLI names it (`fd`), or the `path` an agent gave (refcat mcp). */
  readonly source: 'fd' | 'path';
  constructor(type: string, fd: string, message: string, source: 'fd' | 'path' = 'fd') {
    super(message, { code: type, exitCode: 1, ref: fd });
    this.type = type;
    this.fd = fd;
    this.source = source;
  }
}
