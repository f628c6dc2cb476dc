import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { Context } from '../../src/shared/context.js';

const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp folder holding `files` (path -> content), removed after the test. */
export function tmpDir(files: Record<string, string | Buffer> = {}): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-test-')));
  made.push(dir);
  writeFiles(dir, files);
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

/** A Context whose home is an empty temp folder: tests never read the real `~`. */
export function testCtx(cwd: string, env: Record<string, string> = {}): Context {
  const home = tmpDir();
  return { cwd, home, env: { HOME: home, SDQCTL_HOME: path.join(home, '.sdqctl'), ...env } };
}
