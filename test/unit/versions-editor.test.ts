import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Hover, Location } from 'vscode-languageserver-protocol/node.js';
import { GitRepo } from '../helpers/git-repo.js';
import { type LspSession, startLsp } from '../helpers/lsp-client.js';
import { tmpDir } from '../helpers/tmp.js';

// The editor reads a pinned alias at its pin (docs/editor.md#refs-at-a-version): diagnostics and
// hover use the pinned content, go to definition opens the file on disk, and the hover says when
// the checkout is elsewhere.

let session: LspSession | null = null;
afterEach(async () => {
  if (session) await session.stop().catch(() => {});
  session = null;
});

const pos = (uri: string, line: number, character: number) => ({ textDocument: { uri }, position: { line, character } });

function workspace() {
  const ws = tmpDir();
  const ext = GitRepo.init({}, path.join(ws, 'externals', 'ext'));
  const c1 = ext.commit('c1', { 'f.txt': 'pinned 1\npinned 2\n', 'only-pin.txt': 'p\n' });
  ext.git('rm', '-q', 'only-pin.txt');
  ext.commit('c2', { 'f.txt': 'checkout 1\n', 'only-head.txt': 'h\n' });
  fs.writeFileSync(path.join(ws, 'workspace.lock.json'), JSON.stringify({ repos: [{ alias: 'ext', name: 'ext', ref: c1 }] }));
  return { ws, ext, c1 };
}

describe('the editor reads a pinned alias at its pin', () => {
  it('diagnostics judge at the pin; hover shows the pinned lines and says the checkout is elsewhere; definition opens the file on disk', async () => {
    const { ws, ext, c1 } = workspace();
    session = await startLsp(ws, { HOME: ws });
    const s = session;
    const text = 'A ext:f.txt#L2 B ext:only-pin.txt C ext:only-head.txt\n';
    const uri = s.open('doc.md', text);
    const published = await s.diagnostics(uri);
    expect(published.diagnostics.map((d) => [text.slice(d.range.start.character, d.range.end.character), d.severity])).toEqual([['ext:only-head.txt', 1]]);
    const hover = (await s.client.sendRequest('textDocument/hover', pos(uri, 0, text.indexOf('ext:f.txt') + 2))) as Hover;
    const value = (hover.contents as { value: string }).value;
    expect(value).toContain('2 | pinned 2');
    expect(value).toContain(`@${c1.slice(0, 7)}`);
    expect(value).toContain(`ext is checked out at ${ext.head().slice(0, 7)}, workspace.lock.json pins ${c1.slice(0, 7)}`);
    // Asked again, the hover says it again.
    const again = (await s.client.sendRequest('textDocument/hover', pos(uri, 0, text.indexOf('ext:f.txt') + 2))) as Hover;
    expect((again.contents as { value: string }).value).toContain('is checked out at');
    const def = (await s.client.sendRequest('textDocument/definition', pos(uri, 0, text.indexOf('ext:f.txt') + 2))) as Location[];
    expect(def.map((l) => l.uri)).toEqual([`file://${path.join(ws, 'externals', 'ext', 'f.txt')}`]);
  });

  it('at the pin, the hover has no warning', async () => {
    const { ws, ext, c1 } = workspace();
    ext.git('checkout', '-q', c1);
    session = await startLsp(ws, { HOME: ws });
    const text = 'A ext:f.txt#L2\n';
    const uri = session.open('doc.md', text);
    const hover = (await session.client.sendRequest('textDocument/hover', pos(uri, 0, 4))) as Hover;
    const value = (hover.contents as { value: string }).value;
    expect(value).toContain('2 | pinned 2');
    expect(value).not.toContain('Warning');
  });
});
