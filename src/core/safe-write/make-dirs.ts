import fs from 'node:fs';
import path from 'node:path';

/**
 * `mkdir -p`, one level at a time. Not `fs.mkdirSync(dir, { recursive: true })`: on procfs
 * (`/proc/x`) mkdir answers ENOENT although the parent exists, and Node's recursive mkdir retries
 * that forever (nodejs/node#27198), so `--store /proc/x` would spin instead of failing. Here every
 * error of the last level is final and reaches the caller.
 */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  let at = path.resolve(dir);
  for (;;) {
    try {
      if (fs.statSync(at).isDirectory()) break;
      // A file where a folder should be: let mkdir report it (EEXIST / ENOTDIR) below.
      missing.push(at);
      break;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') throw err;
    }
    missing.push(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const d of missing.reverse()) {
    try {
      fs.mkdirSync(d);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && fs.statSync(d).isDirectory()) continue; // made meanwhile by another process
      throw err;
    }
  }
}
