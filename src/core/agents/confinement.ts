import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../shared/errors.js';

/**
 * Where an agent may read (docs/reference.md#refcat-mcp): the root and the alias targets, judged by
 * real paths, so `..`, an absolute path elsewhere or a symlink leading out is refused whatever
 * its spelling.
 */
export class Confinement {
  private readonly allowed: string[];

  constructor(
    readonly root: string,
    aliasTargets: readonly string[] = [],
  ) {
    this.allowed = [root, ...aliasTargets].map(realOrSelf);
  }

  /** Whether `file` (absolute, or relative to the root) lies inside the root or an alias target. */
  allows(file: string): boolean {
    const real = realOrNearest(path.resolve(this.root, file));
    return this.allowed.some((dir) => inside(real, dir));
  }

  /**
   * Whether `file` (absolute, or relative to the root) is in a `.git` folder, judged by its real
   * path: git runs what its config and hooks name, so a write there is a way to run commands.
   */
  inGitDir(file: string): boolean {
    const real = realOrNearest(path.resolve(this.root, file));
    return real.split(path.sep).includes('.git');
  }

  /** The absolute path of `file`, or a refusal naming it. */
  checkRead(file: string): string {
    const abs = path.resolve(this.root, file);
    if (!this.allows(abs)) throw outside(file, this.root);
    return abs;
  }
}

export function outside(file: string, root: string): UsageError {
  return new UsageError(`Refused: ${file} is outside the root ${root} (and every alias target)`, { code: 'outside_root' });
}

function inside(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function realOrSelf(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** A missing file is judged by the real path of its nearest existing folder. */
function realOrNearest(p: string): string {
  let rest = '';
  let cur = p;
  for (;;) {
    try {
      return path.join(fs.realpathSync(cur), rest);
    } catch {
      const parent = path.dirname(cur);
      if (parent === cur) return p;
      rest = path.join(path.basename(cur), rest);
      cur = parent;
    }
  }
}
