import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store } from '../../src/core/paging/fd-store.js';
import type { RefcatError } from '../../src/shared/errors.js';
import { tmpDir } from '../helpers/tmp.js';

const totals = (s: string) => ({ bytes: Buffer.byteLength(s), chars: s.length, lines: s.split('\n').length });
const put = (store: Store, id: string, text: string) => store.putRef(id, text, 'test.md', 1, totals(text));
const hashDir = (store: Store, id: string) => path.join(store.dir, 'refs', crypto.createHash('sha256').update(id).digest('hex').slice(0, 32));
const text = (store: Store, id: string) => {
  const entry = store.open(id);
  try {
    const src = entry.source();
    return src.bytes(0, src.size).toString('utf8');
  } finally {
    entry.close();
  }
};

describe('Store: replacing a ref', () => {
  it('writes a version folder and switches `current` to it; the replaced version goes', () => {
    const store = new Store(path.join(tmpDir(), 'store'));
    put(store, 'a', 'one');
    const dir = hashDir(store, 'a');
    const first = fs.readFileSync(path.join(dir, 'current'), 'utf8').trim();
    expect(first).toMatch(/^v-[0-9a-f]{16}$/);
    put(store, 'a', 'two');
    const second = fs.readFileSync(path.join(dir, 'current'), 'utf8').trim();
    expect(second).not.toBe(first);
    expect(fs.readdirSync(dir).sort()).toEqual(['current', second]);
    expect(text(store, 'ref:a')).toBe('two');
  });

  it('a reader that opened the old version reads it whole after the switch', () => {
    const store = new Store(path.join(tmpDir(), 'store'));
    put(store, 'a', 'old '.repeat(1000));
    const entry = store.open('ref:a');
    const pages = entry.pages(100);
    put(store, 'a', 'new');
    const src = entry.source();
    expect(src.bytes(0, src.size).toString('utf8')).toBe('old '.repeat(1000));
    expect(pages.count).toBe(40);
    entry.close();
    pages.close();
    expect(text(store, 'ref:a')).toBe('new');
  });

  it('follows the pointer again when the version it named vanished', () => {
    const store = new Store(path.join(tmpDir(), 'store'));
    put(store, 'a', 'one');
    const dir = hashDir(store, 'a');
    // As if a concurrent scan switched to a new version and removed the old one right after our
    // first read of `current`: the first read names a version that is gone.
    const real = fs.readFileSync;
    let calls = 0;
    const gone = path.join(dir, 'v-00');
    const spy = (file: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
      if (file === path.join(dir, 'current') && calls++ === 0) return 'v-00\n';
      return (real as (...a: unknown[]) => unknown)(file, ...rest);
    };
    (fs as { readFileSync: unknown }).readFileSync = spy;
    try {
      expect(fs.existsSync(gone)).toBe(false);
      expect(store.open('ref:a').meta.id).toBe('ref:a');
      expect(calls).toBe(2);
    } finally {
      (fs as { readFileSync: unknown }).readFileSync = real;
    }
  });

  it('reads entries of the older flat layout, and converts them when the id is stored again', () => {
    const store = new Store(path.join(tmpDir(), 'store'));
    const dir = hashDir(store, 'old');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'content'), 'legacy');
    fs.writeFileSync(path.join(dir, 'pages-4000.idx'), '');
    fs.writeFileSync(
      path.join(dir, 'meta.json'),
      JSON.stringify({ version: 1, id: 'ref:old', created: '2025-01-01T00:00:00.000Z', source: 'x.md', bytes: 6, chars: 6, lines: 1, line: 1 }),
    );
    expect(store.list().map((m) => m.id)).toEqual(['ref:old']);
    expect(text(store, 'ref:old')).toBe('legacy');
    put(store, 'old', 'fresh');
    expect(text(store, 'ref:old')).toBe('fresh');
    expect(fs.readdirSync(dir).filter((f) => !f.startsWith('v-'))).toEqual(['current']);
  });

  it('leaves versions no pointer names alone while young (a concurrent scan may be writing one)', () => {
    const store = new Store(path.join(tmpDir(), 'store'));
    put(store, 'a', 'one');
    const dir = hashDir(store, 'a');
    fs.mkdirSync(path.join(dir, 'v-0123456789abcdef'));
    const old = path.join(dir, 'v-00000000000000ff');
    fs.mkdirSync(old);
    const hourAgo = new Date(Date.now() - 3600_000);
    fs.utimesSync(old, hourAgo, hourAgo);
    put(store, 'a', 'two');
    expect(fs.existsSync(path.join(dir, 'v-0123456789abcdef'))).toBe(true);
    expect(fs.existsSync(old)).toBe(false);
  });
});

describe('Store: file-system failures are store_error, one line naming the store', () => {
  const code = (run: () => unknown) => {
    try {
      run();
    } catch (err) {
      return [(err as RefcatError).code, (err as Error).message];
    }
    return null;
  };

  it('a store that is a regular file', () => {
    const file = path.join(tmpDir({ f: 'x' }), 'f');
    const store = new Store(file);
    const expected = ['store_error', `The store ${file} is not a folder (set --store or REFCAT_STORE to a folder)`];
    expect(code(() => store.newFd('stdin'))).toEqual(expected);
    expect(code(() => put(store, 'a', 'x'))).toEqual(expected);
    expect(code(() => store.open('fd:1'))).toEqual(expected);
    expect(code(() => store.open('ref:a'))).toEqual(expected);
    expect(code(() => store.list())).toEqual(expected);
  });

  it.skipIf(process.platform === 'win32' || process.getuid?.() === 0)('a store without write permission', () => {
    const dir = path.join(tmpDir(), 'store');
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o500);
    try {
      const [c, message] = code(() => new Store(dir).newFd('stdin'))!;
      expect(c).toBe('store_error');
      expect(message).toMatch(new RegExp(`^Cannot use the store ${dir}: EACCES: permission denied, mkdir '${dir}/1'$`));
    } finally {
      fs.chmodSync(dir, 0o700);
    }
  });
});
