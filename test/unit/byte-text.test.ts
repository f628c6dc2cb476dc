import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Of } from '../../src/shared/byte-text.js';
import { readTextFile } from '../../src/core/safe-read/read-text-file.js';
import { docCitations } from '../../src/core/snippets/judge-snippets.js';
import { findDocRefs } from '../../src/core/doc-refs/find-doc-refs.js';
import { REPO } from '../helpers/cli.js';

// verify refs reads docs as byte text (one character per byte) and decodes a line only when it
// reads it (src/shared/byte-text.ts). These hold what it finds equal to a scan of the decoded
// text: the same refs, citations and fences, on real docs and on generated ones full of the
// characters where the two could part: no-break and other wide spaces (JavaScript's \s), bytes
// 0xA0 inside other characters (`à` is C3 A0), `…`, a byte order mark, emoji.

const bytesOf = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
const isKnownAlias = (name: string) => name === 'loop';

function scan(text: string, bytes: boolean) {
  const cited = docCitations(text, [REPO], isKnownAlias, bytes);
  const refs = findDocRefs(text, { bytes, markdown: true, isKnownAlias, reportUnknownAlias: (n) => n === 'lop', fenced: cited.fenced });
  return { refs, cited };
}

function markdownFiles(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === '.git' || e.name === 'dist' || e.name.startsWith('.bench')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) markdownFiles(p, out);
    else if (/\.(md|markdown|txt)$/i.test(e.name)) out.push(p);
  }
  return out;
}

describe('byte text: a scan finds what a scan of the decoded text finds', () => {
  it('utf8Of decodes what bytesOf encoded, and leaves ASCII as it is', () => {
    for (const s of ['', 'plain', 'é', '\u00a0', 'voilà', '…', '\u3000', '\ufeffx', '😀 ✓ — ']) expect(utf8Of(bytesOf(s))).toBe(s);
    const ascii = 'no high byte here';
    expect(utf8Of(ascii)).toBe(ascii);
  });

  it('on every doc of this repository and the READMEs of its dependencies', () => {
    const readmes = fs.readdirSync(path.join(REPO, 'node_modules')).map((name) => path.join(REPO, 'node_modules', name, 'README.md'));
    const files = [...markdownFiles(REPO), ...readmes.filter((f) => fs.existsSync(f))];
    let refs = 0;
    let wide = 0;
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      const want = scan(text, false);
      refs += want.refs.length + want.cited.citations.length;
      if (/[^\x00-\x7f]/.test(text)) wide++;
      expect(scan(bytesOf(text), true), path.relative(REPO, file)).toEqual(want);
    }
    // Docs with refs, and docs with characters past ASCII, both in numbers.
    expect(refs).toBeGreaterThan(20);
    expect(wide).toBeGreaterThan(20);
  });

  it.each([
    ['a no-break space before a ref', 'see\u00a0@src/index.ts and more\n'],
    ['a byte 0xA0 inside a letter before a ref', 'voilà@src/index.ts\n'],
    ['an ideographic space after a ref', '@src/index.ts\u3000next\n'],
    ['an em space around an alias ref', 'x\u2003loop:Sources/A.swift#L1-L2\u2003y\n'],
    ['an ellipsis placeholder', 'see @src/…/index.ts\n'],
    ['a non-ASCII path', 'see @docs/Ünïcode.md and loop:Sources/Ä.swift\n'],
    ['a cited snippet with non-ASCII lines', '```ts\n// @src/index.ts#L1-L2\nconst é = "✓";\n```\n'],
    ['a caption with a no-break space', '**Source**:\u00a0@src/index.ts#L1-L2\n```ts\nx\n```\n'],
    ['a fence whose info ends in a no-break space', '```\u00a0\n@src/index.ts\n```\u00a0\nafter @src/index.ts\n'],
  ])('%s', (_name, text) => {
    expect(scan(bytesOf(text), true)).toEqual(scan(text, false));
  });

  it('on generated docs (fast-check)', () => {
    const piece = fc.constantFrom(
      '@src/index.ts', '@src/index.ts#L1-L3', 'loop:Sources/A.swift#L3-L9', 'lop:file.swift', 'src/index.ts',
      ' ', '\u00a0', '\u2003', '\u3000', '\ufeff', 'à', 'é', '…', '😀', '✓', '—', 'word', ':', '@', '(', '`',
      '**Source**:', '// ', '# ', '<!-- ', ' -->', 'https://x.org/@a.ts', 'user@example.com',
    ); // prettier-ignore
    const line = fc.oneof(
      fc.array(piece, { maxLength: 6 }).map((xs) => xs.join('')),
      fc.constantFrom('```', '```ts', '```\u00a0', '~~~', '- item', '> quote', '', '<!-- verify-refs: off -->', '<!-- verify-refs: on -->'),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 25 }), (lines) => {
        const text = lines.join('\n') + '\n';
        expect(scan(bytesOf(text), true)).toEqual(scan(text, false));
      }),
      { numRuns: 1500 },
    );
  });

  it('readTextFile reads byte text, a byte order mark dropped', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-bytes-'));
    try {
      const file = path.join(dir, 'doc.md');
      fs.writeFileSync(file, '\ufeffvoilà @src/index.ts ✓\n');
      expect(readTextFile(file, undefined, { bytes: true })).toBe(bytesOf('voilà @src/index.ts ✓\n'));
      expect(utf8Of(readTextFile(file, undefined, { bytes: true }))).toBe(readTextFile(file));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
