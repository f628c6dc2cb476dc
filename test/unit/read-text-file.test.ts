import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTextFile } from '../../src/core/safe-read/read-text-file.js';
import { tmpDir } from '../helpers/tmp.js';

// Small files are read into one reused buffer (src/core/safe-read/read-text-file.ts): each read
// must give back exactly its file, whatever was read before it, on both sides of the buffer's size.
describe('readTextFile: one reused buffer for small files, chunks for large ones', () => {
  const MiB = 1 << 20;
  const text = (n: number, c: string) => c.repeat(Math.ceil(n / 6)).slice(0, n);
  it.each([
    ['empty', 0],
    ['one byte', 1],
    ['a doc', 12_345],
    ['one byte under the buffer', MiB - 1],
    ['exactly the buffer', MiB],
    ['one byte over', MiB + 1],
    ['several chunks', 3 * MiB + 17],
  ])('%s, read after a larger and a smaller file', (_name, size) => {
    const dir = tmpDir({ 'big.md': text(2 * MiB + 5, 'zyxwv\n'), 'small.md': 'tiny\n', 'x.md': text(size, 'ab cd\n') });
    readTextFile(path.join(dir, 'big.md'));
    readTextFile(path.join(dir, 'small.md'));
    expect(readTextFile(path.join(dir, 'x.md'))).toBe(text(size, 'ab cd\n'));
    expect(readTextFile(path.join(dir, 'small.md'))).toBe('tiny\n');
  });

  it('still refuses a file over the limit', () => {
    const dir = tmpDir({ 'x.md': 'a'.repeat(100) });
    expect(() => readTextFile(path.join(dir, 'x.md'), 99)).toThrow('is larger than');
  });
});
