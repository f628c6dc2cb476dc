import { describe, expect, it } from 'vitest';
import { fencedBlocks } from '../../src/core/snippets/fenced-blocks.js';
import { findCitations } from '../../src/core/snippets/find-citations.js';
import { applyLineEdits, refreshEdits } from '../../src/core/snippets/refresh-snippet.js';

/** Refresh the first citation of `md` to `newRef` selecting `code`; the new document. */
function refresh(md: string, newRef: string, code: string[]): string {
  const lines = md.split('\n');
  const stripped = lines.map((l) => l.replace(/\r$/, ''));
  const [c] = findCitations((i) => stripped[i] ?? '', fencedBlocks(md), { isKnownAlias: () => true, bareFileExists: () => false });
  const { edits, refused } = refreshEdits(lines, c!, newRef, code);
  if (edits === null) throw new Error(refused);
  return applyLineEdits(lines, edits).join('\n');
}

const CODE = ['def f(x):', '    y = x + 1', '', '    return y'];

describe('refreshEdits: only the ref and the snippet lines change', () => {
  it.each<[string, string, string, string[], string]>([
    ['in-fence, top level', '# T\n\n```py\n# @a.py#L1-L3 (simplified)\ndef f(x):\n    return x\n```\nafter\n', '@a.py#L4-L7', CODE, '# T\n\n```py\n# @a.py#L4-L7 (simplified)\ndef f(x):\n    y = x + 1\n\n    return y\n```\nafter\n'],
    ['same ref: only the lines', '```py\n# @a.py#L1-L3\nold\n```', '@a.py#L1-L3', CODE, '```py\n# @a.py#L1-L3\ndef f(x):\n    y = x + 1\n\n    return y\n```'],
    ['in a list item', '- x\n\n  ```py\n  # @a.py#L1\n  old\n  ```\n', '@a.py#L2-L5', CODE, '- x\n\n  ```py\n  # @a.py#L2-L5\n  def f(x):\n      y = x + 1\n\n      return y\n  ```\n'],
    ['in a block quote', '> ```py\n> # @a.py#L1\n> old\n> ```\n', '@a.py#L2-L5', CODE, '> ```py\n> # @a.py#L2-L5\n> def f(x):\n>     y = x + 1\n>\n>     return y\n> ```\n'],
    ['a dedented snippet stays dedented', '```py\n# @a.py#L1\nreturn x\n```', '@a.py#L9', ['        return y', '        # done'], '```py\n# @a.py#L9\nreturn y\n# done\n```'],
    ['an indented snippet keeps its indentation', '```py\n# @a.py#L1\n    return x\n```', '@a.py#L9', ['return y'], '```py\n# @a.py#L9\n    return y\n```'],
    ['CRLF stays CRLF', '```py\r\n# @a.py#L1\r\nold\r\n```\r\n', '@a.py#L2', ['new', ''], '```py\r\n# @a.py#L2\r\nnew\r\n\r\n```\r\n'],
    ['a caption', '**Source**: `@a.py#L1`\n\n```py\nold\n```', '@a.py#L7', ['new'], '**Source**: `@a.py#L7`\n\n```py\nnew\n```'],
    ['a bare ref stays bare', '```py\n# src/a.py#L1\nold\n```', '@src/a.py#L3', ['new'], '```py\n# src/a.py#L3\nnew\n```'],
    ['an unclosed fence', '```py\n# @a.py#L1\nold\nold2\n', '@a.py#L2', ['new'], '```py\n# @a.py#L2\nnew\n'],
    ['code with ``` lengthens the fence', '```md\n<!-- @a.md#L1 -->\nold\n```\n', '@a.md#L2', ['```', '# h'], '````md\n<!-- @a.md#L2 -->\n```\n# h\n````\n'],
    ['code with a longer run: one more', '```md\n<!-- @a.md#L1 -->\nold\n```', '@a.md#L1', ['x `````` y'], '```````md\n<!-- @a.md#L1 -->\nx `````` y\n```````'],
    ['a caption, CRLF, in a list item', '- **Source**: `@a.md#L1`\r\n\r\n  ```md\r\n  old\r\n  ```\r\n', '@a.md#L2', ['```'], '- **Source**: `@a.md#L2`\r\n\r\n  ````md\r\n  ```\r\n  ````\r\n'],
    ['a tilde fence and backticks: no change', '~~~md\n<!-- @a.md#L1 -->\nold\n~~~', '@a.md#L1', ['```'], '~~~md\n<!-- @a.md#L1 -->\n```\n~~~'],
    ['a tilde fence and tildes', '~~~md\n<!-- @a.md#L1 -->\nold\n~~~~~', '@a.md#L1', ['~~~~~'], '~~~~~~md\n<!-- @a.md#L1 -->\n~~~~~\n~~~~~~'],
    ['a closing fence long enough stays', '```md\n<!-- @a.md#L1 -->\nold\n``````', '@a.md#L1', ['```'], '````md\n<!-- @a.md#L1 -->\n```\n``````'],
    ['an unclosed fence is lengthened at its opening', '```md\n<!-- @a.md#L1 -->\nold\n', '@a.md#L1', ['```'], '````md\n<!-- @a.md#L1 -->\n```\n'],
  ])('%s', (_name, md, newRef, code, expected) => {
    expect(refresh(md, newRef, code)).toBe(expected);
  });
});

describe('refreshEdits refuses what it cannot keep inside the fence', () => {
  it('a closing fence that is not where the block says: refused, with the reason --fix-snippets prints', () => {
    const md = '```md\n<!-- @a.md#L1 -->\nold\n```\n';
    const [c] = findCitations((i) => md.split('\n')[i] ?? '', fencedBlocks(md), { isKnownAlias: () => true, bareFileExists: () => false });
    const lines = md.split('\n');
    lines[3] = 'not a fence';
    expect(refreshEdits(lines, c!, '@a.md#L2', ['```'])).toEqual({ edits: null, refused: 'the new code would close its fence early, and the fence at line 4 cannot be lengthened' });
    // Code that cannot close it needs no fence edit, and is refreshed.
    expect(refreshEdits(lines, c!, '@a.md#L2', ['new']).refused).toBeNull();
  });
});
