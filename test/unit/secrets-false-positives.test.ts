import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanText } from '../../src/core/secrets/secret-scan.js';

// docs/design/secrets.md#false-positives: refcat's own files hold no credential the rules find,
// so `refcat '**/*'` over this repository prints it as it is. The tests' made-up credentials are
// put together at run time (test/helpers/fake-secrets.ts); a literal one in a test file made every
// glob over the repository load secretlint and print a redaction (bench 16: 1.84x, output differs).
const root = path.join(import.meta.dirname, '..', '..');

function trackedFiles(): string[] | null {
  try {
    return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 }).split('\0').filter(Boolean);
  } catch {
    return null; // not a git checkout (an unpacked tarball): nothing to list
  }
}

describe("this repository's own files", () => {
  const files = trackedFiles();
  it.skipIf(files === null)('hold no secret the rules find', () => {
    const found: string[] = [];
    for (const rel of files!) {
      const abs = path.join(root, rel);
      let bytes: Buffer;
      try {
        const stat = fs.lstatSync(abs);
        if (!stat.isFile() || stat.size > 4 * 1024 * 1024) continue;
        bytes = fs.readFileSync(abs);
      } catch {
        continue; // deleted in the working tree
      }
      if (bytes.subarray(0, 8192).includes(0)) continue; // binary: never printed
      const redacted = scanText(bytes.toString('utf8'), rel);
      for (const f of redacted?.findings ?? []) found.push(`${f.kind} at ${rel}:${f.line}`);
    }
    expect(found).toEqual([]);
  });
});
