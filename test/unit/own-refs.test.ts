import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';
import { refcatInProcess } from '../helpers/in-process.js';

// The project passes its own check: `refcat verify refs .` on this repository. The fixtures hold
// broken refs on purpose and `.sdqctlignore` keeps them out, and says so on stderr.
describe('refcat verify refs on this repository', () => {
  it('passes, with the fixtures kept out by .sdqctlignore', async () => {
    const r = await refcatInProcess(['verify', 'refs', '.'], { cwd: REPO });
    expect(r.stdout).toMatch(/^✓ PASSED: Scanned \d+ file\(s\), found \d+ reference\(s\): \d+ valid, 0 broken\n/);
    expect(r.stderr).toMatch(/^Skipped \d+ files that \.sdqctlignore lists/m);
    expect(r.code).toBe(0);
  });
});
