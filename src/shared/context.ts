/**
 * The explicit environment every core function receives instead of reading `process.*`
 * (STYLE 3). The CLI builds it once, at the edge; tests build their own.
 */
export interface Context {
  /** Absolute working directory. */
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The user's home folder (used for `~` expansion and the default ~/.sdqctl). */
  home: string;
}
