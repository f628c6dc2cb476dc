import { describe, expect, it } from 'vitest';
import { mapLine, parseDiff } from '../../src/core/git/diff-hunks.js';

const HUNKS = [
  { oldStart: 3, oldCount: 0, newStart: 4, newCount: 2 }, // 2 lines inserted after old line 3
  { oldStart: 10, oldCount: 2, newStart: 12, newCount: 1 }, // old 10-11 replaced by 1 line
  { oldStart: 20, oldCount: 1, newStart: 20, newCount: 0 }, // old 20 deleted (git names the line before)
];

describe('mapLine: old line numbers through -U0 hunks (docs/reference.md#drift-verdicts)', () => {
  const table: [number, { line: number; edited: boolean }][] = [
    [1, { line: 1, edited: false }],
    [3, { line: 3, edited: false }],
    [4, { line: 6, edited: false }],
    [9, { line: 11, edited: false }],
    [10, { line: 12, edited: true }],
    [11, { line: 12, edited: true }],
    [12, { line: 13, edited: false }],
    [19, { line: 20, edited: false }],
    [20, { line: 20, edited: true }],
    [21, { line: 21, edited: false }],
  ];
  for (const [n, expected] of table) it(`old line ${n}`, () => expect(mapLine(HUNKS, n)).toEqual(expected));
});

describe('parseDiff: git diff -M -U0 output', () => {
  const table: [string, string, Record<string, unknown>][] = [
    [
      'an edit, with a removed line that looks like a header',
      'diff --git a/lib/x.js b/lib/x.js\nindex 1..2 100644\n--- a/lib/x.js\n+++ b/lib/x.js\n@@ -2 +2,2 @@\n--- a/not/a/header\n+one\n+two\n',
      { 'lib/x.js': { oldPath: 'lib/x.js', newPath: 'lib/x.js', hunks: [{ oldStart: 2, oldCount: 1, newStart: 2, newCount: 2 }] } },
    ],
    [
      'a pure rename of a name with spaces',
      'diff --git a/my file.js b/src/my file.js\nsimilarity index 100%\nrename from my file.js\nrename to src/my file.js\n',
      { 'my file.js': { oldPath: 'my file.js', newPath: 'src/my file.js', hunks: [] } },
    ],
    [
      'a deleted file and an added one (added files are not followed)',
      'diff --git a/old.js b/old.js\ndeleted file mode 100644\n--- a/old.js\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\ndiff --git a/new.js b/new.js\nnew file mode 100644\n--- /dev/null\n+++ b/new.js\n@@ -0,0 +1 @@\n+y\n',
      { 'old.js': { oldPath: 'old.js', newPath: null, hunks: [{ oldStart: 1, oldCount: 1, newStart: 0, newCount: 0 }] } },
    ],
    [
      'a quoted name',
      'diff --git "a/t\\tab.js" "b/t\\tab.js"\n--- "a/t\\tab.js"\n+++ "b/t\\tab.js"\n@@ -1 +1 @@\n-a\n+b\n',
      { 't\tab.js': { oldPath: 't\tab.js', newPath: 't\tab.js', hunks: [{ oldStart: 1, oldCount: 1, newStart: 1, newCount: 1 }] } },
    ],
  ];
  for (const [name, diff, expected] of table) it(name, () => expect(Object.fromEntries(parseDiff(diff))).toEqual(expected));
});
