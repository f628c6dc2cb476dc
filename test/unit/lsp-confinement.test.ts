import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CompletionList, Hover } from 'vscode-languageserver-protocol/node.js';
import { type LspSession, startLsp } from '../helpers/lsp-client.js';
import { tmpDir } from '../helpers/tmp.js';

// Completion and hover reach only the root and the alias targets defined outside it, as refcat
// mcp does (docs/editor.md#what-you-get): a doc is anyone's to write, and `@../`, `@/etc/` or a
// symlink leading out must not list or show what lies outside.

let session: LspSession | null = null;
afterEach(async () => {
  if (session) await session.stop().catch(() => {});
  session = null;
});

function project(): { top: string; root: string } {
  const top = tmpDir({ 'secret.txt': 'TOPSECRET 1\nTOPSECRET 2\n', 'private/key.txt': 'PRIVATE\n', 'shared/lib.py': 'x = 1\n' });
  const root = path.join(top, 'root');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src', 'app.py'), 'print(1)\nprint(2)\n');
  fs.symlinkSync(path.join(top, 'secret.txt'), path.join(root, 'leak.txt'));
  fs.symlinkSync(path.join(top, 'private'), path.join(root, 'linkdir'));
  fs.symlinkSync(path.join(root, 'src'), path.join(root, 'inner'));
  // An alias the user defined outside the root (the home's aliases.yaml) is readable.
  fs.mkdirSync(path.join(top, 'home', '.sdqctl'), { recursive: true });
  fs.writeFileSync(path.join(top, 'home', '.sdqctl', 'aliases.yaml'), `aliases:\n  shared: ${path.join(top, 'shared')}\n`);
  return { top, root };
}

const pos = (uri: string, line: number, character: number) => ({ textDocument: { uri }, position: { line, character } });

async function labels(s: LspSession, text: string): Promise<string[]> {
  const uri = s.open('c.md', text);
  const list = (await s.client.sendRequest('textDocument/completion', pos(uri, 0, text.length))) as CompletionList | null;
  return list?.items.map((i) => `${i.label}${i.detail ? ` (${i.detail})` : ''}`) ?? [];
}

describe('the editor is confined to the root and the alias targets', () => {
  it('completion lists nothing outside: @../, an absolute folder, a symlinked folder leading out, a symlink to a file outside', async () => {
    const { top, root } = project();
    session = await startLsp(root, { HOME: path.join(top, 'home'), SDQCTL_HOME: path.join(top, 'home', '.sdqctl') });
    const s = session;
    expect(await labels(s, 'see @../')).toEqual([]);
    expect(await labels(s, 'see @../sec')).toEqual([]);
    expect(await labels(s, `see @${top}/`)).toEqual([]);
    expect(await labels(s, 'see @/etc/')).toEqual([]);
    expect(await labels(s, 'see @linkdir/')).toEqual([]);
    expect(await labels(s, 'see @../secret.txt#L')).toEqual([]);
    expect(await labels(s, 'see @leak.txt#L')).toEqual([]);
    // Inside: the root's own entries, a symlink that stays inside, and an alias target the user defined.
    expect(await labels(s, 'see @')).toEqual(['inner/', 'src/']);
    expect(await labels(s, 'see @src/app.py#L')).toEqual(['L1-L2 (2 lines)', 'L2 (2 lines)']);
    expect(await labels(s, 'see shared:')).toEqual(['lib.py']);
  });

  it('hover shows nothing of a file outside, by .., an absolute path or a symlink; a file inside as before', async () => {
    const { top, root } = project();
    session = await startLsp(root, { HOME: path.join(top, 'home'), SDQCTL_HOME: path.join(top, 'home', '.sdqctl') });
    const s = session;
    const text = `A @../secret.txt#L1 B @${path.join(top, 'secret.txt')} C @leak.txt D @linkdir/key.txt E @src/app.py#L2\n`;
    const uri = s.open('doc.md', text);
    const hover = async (ref: string) => {
      const h = (await s.client.sendRequest('textDocument/hover', pos(uri, 0, text.indexOf(ref) + 2))) as Hover | null;
      return (h?.contents as { value: string } | undefined)?.value ?? '';
    };
    for (const ref of ['@../secret.txt#L1', `@${path.join(top, 'secret.txt')}`, '@leak.txt', '@linkdir/key.txt']) {
      const value = await hover(ref);
      expect(value, ref).not.toContain('TOPSECRET');
      expect(value, ref).not.toContain('PRIVATE');
      expect(value, ref).toContain(`Error: Refused: ${ref} is outside the root ${root} (and every alias target)`);
    }
    expect(await hover('@src/app.py#L2')).toContain('2 | print(2)');
  });
});
