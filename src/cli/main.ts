import os from 'node:os';
import { interruptedBy, requestStop, undoAll, watchInterrupts } from '../shared/interrupt.js';
import { writeAll } from '../shared/write-all.js';
import type { IO } from './io.js';
import { runCli } from './run.js';

/**
 * The process edge: the only place that reads process.*, and the only place an error becomes an
 * exit code (STYLE 4). Exit via process.exitCode so that piped stdout is flushed first.
 */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  // `refcat ... | head` closes the pipe early: the rest of the output is dropped quietly, and the
  // command goes on to its end, so its diagnostics still reach stderr and its exit code stands. Any
  // other failure to write the output (a full disk, /dev/full) is the command failing: one line, exit 1.
  let stdoutGone = false;
  const stdoutFailed = (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') {
      stdoutGone = true;
      return;
    }
    const why = /^[A-Z]+: ([^,]+)/.exec(err.message)?.[1] ?? err.message;
    process.stderr.write(`Error: cannot write the output: ${why}\n`);
    process.exit(1);
  };
  process.stdout.on('error', stdoutFailed);
  const cwd = workingFolder(argv);
  if (cwd === null) {
    process.stderr.write('Error: the current folder no longer exists (deleted or moved): cd to an existing folder\n');
    process.exitCode = 2;
    return;
  }
  watchInterrupts(listenForInterrupts);
  const io: IO = {
    ctx: { cwd, env: process.env, home: process.env.HOME ?? os.homedir(), proc: { pid: process.pid, isAlive } },
    stdout: (s) => void (stdoutGone || process.stdout.write(s)),
    stdoutBytes: (bytes, done) => {
      if (stdoutGone) return done();
      const fd = fileFd(process.stdout);
      if (fd === null) return void process.stdout.write(bytes, () => done());
      try {
        writeAll(fd, bytes);
      } catch (err) {
        stdoutFailed(err as NodeJS.ErrnoException);
      }
      done();
    },
    drain: () => (!stdoutGone && process.stdout.writableNeedDrain ? drained(process.stdout) : Promise.resolve()),
    stderr: (s) => void process.stderr.write(s),
    // Made on first use: the stream costs 5 ms, and most commands never read it.
    get stdin() {
      return process.stdin;
    },
    color: colorWanted(),
    progress: Boolean(process.stderr.isTTY) && process.env.TERM !== 'dumb',
    writeHooks: crashHooks(process.env.REFCAT_TEST_CRASH),
  };
  try {
    process.exitCode = await runCli(argv, io);
    // A task stopped by a signal between its steps has reported; the status still says why it ended.
    const signal = interruptedBy();
    if (signal) process.exitCode = 128 + SIGNAL_NUMBERS[signal];
  } catch (err) {
    // A bug, not a user's mistake: one line unless REFCAT_DEBUG=1 asks for the stack.
    if (process.env.REFCAT_DEBUG === '1') process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
    else process.stderr.write(`Error: internal error: ${(err as Error)?.message ?? String(err)} (set REFCAT_DEBUG=1 for details)\n`);
    process.exitCode = 1;
  }
}

/** The descriptor of a stream to a file (Node writes those synchronously), else null. */
function fileFd(stream: NodeJS.WriteStream): number | null {
  return (stream as { _type?: string })._type === 'fs' ? (stream as unknown as { fd: number }).fd : null;
}

/** Resolves when `stream` can take more, or can take nothing any more (its reader left). */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      for (const e of ['drain', 'close', 'error']) stream.off(e, done);
      resolve();
    };
    for (const e of ['drain', 'close', 'error']) stream.once(e, done);
  });
}

/**
 * The working folder, or null when it was deleted under refcat's feet: every command then stops with
 * one line, except `--version` and `--help`, which need no folder.
 */
function workingFolder(argv: string[]): string | null {
  try {
    return process.cwd();
  } catch {
    return argv.length === 1 && ['--version', '-V', '--help', '-h'].includes(argv[0]!) ? os.homedir() || '/' : null;
  }
}

const INTERRUPTS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const SIGNAL_NUMBERS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

/**
 * While a write is in flight, a Ctrl-C (or SIGTERM, SIGHUP) first removes its temp file and lock,
 * then ends the process by the same signal, so the shell sees the usual status (130 for Ctrl-C).
 * At any other time no listener is installed and the signal's default action stops refcat at once.
 */
function listenForInterrupts(active: boolean): void {
  for (const signal of INTERRUPTS) {
    process.removeListener(signal, onInterrupt);
    if (active) process.on(signal, onInterrupt);
  }
}

function onInterrupt(signal: NodeJS.Signals): void {
  if (requestStop(signal)) return; // a task stops between its steps and reports
  undoAll();
  listenForInterrupts(false);
  process.kill(process.pid, signal);
}

/**
 * Failures on demand, for the end-to-end tests of interrupted writes
 * (docs/reference.md#writing-files-ref-export-and-fd-write): `REFCAT_TEST_CRASH=before-rename`
 * kills the process with SIGKILL (no cleanup, as in a real crash) once the temp file is complete
 * and before it is renamed over the target; `pause-mid-write` says so on stderr after the first
 * block and waits there, for a test to send a signal.
 */
function crashHooks(value: string | undefined): IO['writeHooks'] {
  if (value === 'before-rename') return { beforeRename: () => process.kill(process.pid, 'SIGKILL') };
  if (value === 'pause-mid-write') {
    return {
      afterBlock: () => {
        process.stderr.write('paused mid-write\n');
        return new Promise(() => setInterval(() => {}, 1000));
      },
    };
  }
  return undefined;
}

/**
 * Signal 0 checks for existence without signalling. EPERM means the process exists but belongs
 * to someone else: alive, so its lock is respected.
 */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** chalk's rules for stderr without loading chalk: NO_COLOR / FORCE_COLOR, else a TTY. */
function colorWanted(): boolean {
  const env = process.env;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return Boolean(process.stderr.isTTY) && env.TERM !== 'dumb';
}
