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
  /**
   * This process and a way to tell whether another one still runs, for the lock files of
   * append/insert (src/core/safe-write/write-lock.ts). Without it a lock is written with pid 0 and no lock
   * is ever judged stale: a crashed writer's lock then has to be removed by hand.
   */
  proc?: ProcessInfo;
}

export interface ProcessInfo {
  pid: number;
  /** Whether process `pid` exists (it may belong to another user). */
  isAlive: (pid: number) => boolean;
}
