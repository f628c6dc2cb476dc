import { describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

// A .conv path gets its REFCAT/CONTEXT refs checked with validate's rules
// (docs/reference.md#verify-refs): both commands give a workflow's refs the same verdict.
describe('verify refs on a .conv: the verdicts of validate', () => {
  it.each<[string, string, number, number, string]>([
    // workflow, flags, validate exit, verify refs exit, the verify refs report
    ['VALIDATION-MODE lenient\nCONTEXT @missing.md\nPROMPT go\n', '', 0, 0,
      '✓ PASSED: Scanned 1 file(s), found 1 reference(s): 1 valid, 0 broken (1 warning)\n' +
      '  WARNING len.conv:2: CONTEXT pattern matches nothing: @missing.md\n' +
      '    Searched: {dir}/missing.md\n' +
      '    Reported as a warning: VALIDATION-MODE lenient\n'],
    ['VALIDATION-MODE exploratory\nREFCAT @nope.md\nPROMPT go\n', '', 0, 0,
      '✓ PASSED: Scanned 1 file(s), found 1 reference(s): 1 valid, 0 broken (1 warning)\n' +
      '  WARNING len.conv:2: REFCAT ref not found: @nope.md\n' +
      '    Searched: {dir}/nope.md\n' +
      '    Reported as a warning: VALIDATION-MODE exploratory\n'],
    ['VALIDATION-MODE lenient\nCONTEXT @missing.md\nPROMPT go\n', '--strict', 1, 1,
      '✗ FAILED: Scanned 1 file(s), found 1 reference(s): 1 valid, 0 broken (1 warning, --strict)\n' +
      '  WARNING len.conv:2: CONTEXT pattern matches nothing: @missing.md\n' +
      '    Searched: {dir}/missing.md\n' +
      '    Reported as a warning: VALIDATION-MODE lenient\n'],
    // The last VALIDATION-MODE wins, as in validate.
    ['VALIDATION-MODE lenient\nVALIDATION-MODE strict\nCONTEXT @missing.md\nPROMPT go\n', '', 1, 1,
      '✗ FAILED: Scanned 1 file(s), found 1 reference(s): 0 valid, 1 broken\n' +
      '  ERROR len.conv:3: Broken reference: @missing.md\n' +
      '    CONTEXT pattern matches nothing: @missing.md\n'],
  ])('%j %s', async (conv, flags, validateCode, verifyCode, report) => {
    const dir = tmpDir({ 'len.conv': conv });
    const extra = flags ? [flags] : [];
    const validated = await refcatInProcess(['validate', 'len.conv', ...extra], { cwd: dir });
    const verified = await refcatInProcess(['verify', 'refs', 'len.conv', ...extra], { cwd: dir });
    expect(validated.code).toBe(validateCode);
    expect(verified).toEqual({ code: verifyCode, stdout: report.replaceAll('{dir}', dir), stderr: '' });
  }); // prettier-ignore

  it('--drift: a relaxed missing file has its WARNING line, not an UNKNOWN line as well (--json keeps the verdict)', async () => {
    const repo = GitRepo.init({ 'len.conv': 'VALIDATION-MODE lenient\nREFCAT @nope.txt#L3\nPROMPT go\n' });
    const r = await refcatInProcess(['verify', 'refs', 'len.conv', '--drift'], { cwd: repo.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  WARNING len.conv:2: REFCAT ref not found: @nope.txt#L3\n');
    expect(r.stdout).not.toContain('UNKNOWN');
    const json = JSON.parse((await refcatInProcess(['verify', 'refs', 'len.conv', '--drift', '--json'], { cwd: repo.dir })).stdout);
    expect(json.drift.refs.map((e: { status: string }) => e.status)).toEqual(['unknown']);
  });
});
