import { describe, expect, it } from 'vitest';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

// A doc verify refs cannot read as text is reported as skipped, never passed over in silence
// (docs/reference.md#verify-refs).
describe('verify refs: docs that are not text', () => {
  const docs: [string, Buffer][] = [
    ['a NUL byte', Buffer.from('See @gone.py#L1\n\0\n')],
    ['invalid UTF-8', Buffer.from([0x53, 0x65, 0x65, 0x20, 0xff, 0xfe, 0x0a])],
  ];

  it.each(docs)('%s: a warning, counted in the summary, failing under --strict', async (_name, bytes) => {
    const dir = tmpDir({ 'docs/bad.md': bytes, 'docs/good.md': 'Fine.\n' });
    const plain = await refcatInProcess(['verify', 'refs', 'docs'], { cwd: dir });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('✓ PASSED: Scanned 1 file(s) (1 skipped: binary, not UTF-8 or too large), found 0 reference(s)');
    expect(plain.stdout).toContain('WARNING docs/bad.md: Not scanned: docs/bad.md is binary or not UTF-8');

    const strict = await refcatInProcess(['verify', 'refs', 'docs', '--strict'], { cwd: dir });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('✗ FAILED');

    const json = JSON.parse((await refcatInProcess(['verify', 'refs', 'docs', '--format', 'json'], { cwd: dir })).stdout);
    expect(json.not_scanned).toBe(1);
    expect(json.warnings.map((w: { code: string }) => w.code)).toEqual(['binary']);
  });
});
