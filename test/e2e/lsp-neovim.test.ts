import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tmpDir } from '../helpers/tmp.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(REPO, 'bin/refcat.js');
const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
const hasNvim = nvim.status === 0;

// .ci/run installs Neovim (Debian's package) when it is missing; elsewhere this is skipped, and says why.
describe.skipIf(!hasNvim)(`a real editor: headless Neovim's LSP client${hasNvim ? '' : ' (skipped: nvim is not on PATH; apt-get install neovim)'}`, () => {
  it('gets diagnostics, hover, definition, completion and a code action, a live diagnostic after an unsaved edit, and shuts down cleanly', () => {
    const root = tmpDir({
      'src/app.ts': 'export const a = 1;\nexport const b = 2;\n',
      'lib/deep/helper.py': 'def helper():\n  return 1\n',
      'docs/notes.md': 'Code @src/app.ts#L2 here.\nOld @helper.py#L1 here.\nsee @src/\n',
    });
    const home = tmpDir();
    const outFile = path.join(home, 'out.json');
    const r = spawnSync('nvim', ['--headless', '--clean', '-n', '-c', `luafile ${path.join(REPO, 'test/e2e/neovim-lsp.lua')}`], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        XDG_CONFIG_HOME: path.join(home, 'config'),
        XDG_DATA_HOME: path.join(home, 'data'),
        XDG_STATE_HOME: path.join(home, 'state'),
        XDG_CACHE_HOME: path.join(home, 'cache'),
        LSP_ROOT: root,
        REFCAT_BIN: BIN,
        OUT: outFile,
      },
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(r.error).toBeUndefined();
    const out = JSON.parse(fs.readFileSync(outFile, 'utf8'));
    expect(out.error).toBeUndefined();
    expect(out.started).toBe(true);
    expect(out.diagnostics).toEqual(['1:4-17 REFCAT ref not found: @helper.py#L1']);
    expect(out.shown).toBe(1);
    expect(out.hover).toBe(`## From: src/app.ts:2 (relative to ${root})\n\`\`\`typescript\n2 | export const b = 2;\n\`\`\`\n`);
    expect(out.definition).toEqual({ uri: pathToFileURL(path.join(root, 'src/app.ts')).href, line: 1 });
    expect(out.completion).toEqual(['app.ts']);
    expect(out.actions).toEqual(['Replace with @lib/deep/helper.py#L1']);
    expect(out.after_action).toBe('Old @lib/deep/helper.py#L1 here.');
    expect(out.live).toEqual(['3:11-23 REFCAT ref not found: @src/typo.ts']);
    expect(out.modified).toBe(true);
    expect(fs.readFileSync(path.join(root, 'docs/notes.md'), 'utf8')).toBe('Code @src/app.ts#L2 here.\nOld @helper.py#L1 here.\nsee @src/\n');
    expect(out.exit_code).toBe(0);
  }, 300_000);
});
