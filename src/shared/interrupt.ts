/**
 * Undo work in progress when the user interrupts refcat (docs/reference.md#limits-and-hostile-input):
 * a Ctrl-C or a SIGTERM during a write removes the temp file and the lock it holds instead of
 * leaving them in the user's folder.
 *
 * Core code registers what to undo while it has something in flight; the process edge
 * (src/cli/main.ts) listens for signals only while something is registered, so that an
 * interrupt at any other time stops refcat at once, as the default action does.
 */

type Undo = () => void;

const pending = new Set<Undo>();
let watcher: ((active: boolean) => void) | undefined;

/** Register `undo` to run if the process is interrupted; call the returned function when done. */
export function undoOnInterrupt(undo: Undo): () => void {
  pending.add(undo);
  if (pending.size + stops.size === 1) watcher?.(true);
  return () => {
    if (pending.delete(undo) && pending.size + stops.size === 0) watcher?.(false);
  };
}

const stops = new Set<() => void>();
let stoppedBy: NodeJS.Signals | null = null;

/**
 * A task made of steps (`--fix` writing file after file) that an interrupt should stop between
 * two steps, so that it can say what it did: while registered, a signal calls `stop` instead of
 * ending the process. Call the returned function when done.
 */
export function stopOnInterrupt(stop: () => void): () => void {
  stops.add(stop);
  if (pending.size + stops.size === 1) watcher?.(true);
  return () => {
    if (stops.delete(stop) && pending.size + stops.size === 0) watcher?.(false);
  };
}

/** The process edge: hand `signal` to the registered tasks; false when none takes it. */
export function requestStop(signal: NodeJS.Signals): boolean {
  if (stops.size === 0) return false;
  stoppedBy = signal;
  for (const stop of stops) stop();
  return true;
}

/** The signal a task was stopped by, for the exit status (130 for Ctrl-C). */
export function interruptedBy(): NodeJS.Signals | null {
  return stoppedBy;
}

/** Run (and forget) everything registered, newest first; one failing undo does not stop the rest. */
export function undoAll(): void {
  const all = [...pending].reverse();
  pending.clear();
  for (const undo of all) {
    try {
      undo();
    } catch {
      // Best effort: what cannot be removed now is reclaimed by the next run (reclaimTemps, stale locks).
    }
  }
  if (stops.size === 0) watcher?.(false);
}

/** The process edge's hook: told when the first undo is registered and when none is left. */
export function watchInterrupts(onChange: ((active: boolean) => void) | undefined): void {
  watcher = onChange;
  if (pending.size > 0) watcher?.(true);
}
