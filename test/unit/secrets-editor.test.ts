import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EditorSession } from '../../src/core/editor/editor-session.js';
import { hoverMarkdown } from '../../src/core/editor/ref-navigation.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';
import { fakeSecrets } from '../helpers/fake-secrets.js';

// docs/refs.md#secrets: an editor hover shows a ref's lines as the CLI prints them, redacted.
describe('editor hover', () => {
  it('every rule: the hover of a ref to the file holds no value', () => {
    const fakes = fakeSecrets();
    const root = tmpDir(Object.fromEntries(fakes.map((s) => [s.file, s.rule === 'gcp' ? `${s.text}\n` : `// before\n${s.text}\n// after\n`])));
    const session = new EditorSession(testCtx(root));
    for (const s of fakes) {
      const ref = `@${s.file}`;
      const md = hoverMarkdown({ line: 0, start: 0, end: ref.length, text: ref, ref }, path.join(root, 'doc.md'), session);
      expect(md, s.rule).not.toContain(s.value);
      expect(md, s.rule).toMatch(/\[REDACTED [a-z0-9-]+\]/);
    }
  });
});
