import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonErrorOffset, parseJson, textPosition } from '../../src/core/safe-read/data-file-syntax.js';

describe('parseJson tells where a file stops being JSON, never what it holds', () => {
  // [file text, the problem]
  const table: [string, string | null][] = [
    ['{"repos": []}', null],
    ['', 'not valid JSON (unexpected end at line 1, column 1)'],
    ['root:x:0:0:root\nSECRET=1\n', 'not valid JSON (unexpected character at line 1, column 1)'],
    ['{\n  "repos": [\n    {"name": tru}\n  ]\n}\n', 'not valid JSON (unexpected character at line 3, column 17)'],
    ['{"a": 1,}', 'not valid JSON (unexpected character at line 1, column 9)'],
    ['{"é😀": x}', 'not valid JSON (unexpected character at line 1, column 8)'],
    ['{"a": "\\q"}', 'not valid JSON (unexpected character at line 1, column 9)'],
    ['{"a": "b\u0001"}', 'not valid JSON (unexpected character at line 1, column 9)'],
    ['[1, 2\n', 'not valid JSON (unexpected end at line 2, column 1)'],
    ['{} {}', 'not valid JSON (unexpected character at line 1, column 4)'],
    ['\r\n-x', 'not valid JSON (unexpected character at line 2, column 2)'],
  ];

  it.each(table)('%j', (text, problem) => {
    if (problem === null) expect(parseJson(text)).toEqual(JSON.parse(text));
    else expect(() => parseJson(text)).toThrow(new Error(problem));
  });

  it('a text nested 100,000 deep is judged without recursion', () => {
    expect(jsonErrorOffset('['.repeat(100_000) + ']'.repeat(100_000))).toBeNull();
    expect(jsonErrorOffset('['.repeat(100_000) + 'x')).toBe(100_000);
  });

  it('agrees with JSON.parse on what is JSON, and on the position wherever V8 gives one', () => {
    const piece = fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '"a"', '1', '-', '0', '.5', 'e3', 'true', 'tru', 'null', ' ', '\n', '\\', '\\u12', '\\u00e9', '\\n', '\u0001', 'x', 'é', '😀');
    const texts = fc.oneof(fc.array(piece, { maxLength: 12 }).map((a) => a.join('')), fc.json());
    fc.assert(
      fc.property(texts, (text) => {
        let v8: string | null = null;
        try {
          JSON.parse(text);
        } catch (err) {
          v8 = (err as Error).message;
        }
        const ours = jsonErrorOffset(text);
        expect(ours === null).toBe(v8 === null);
        const at = v8 === null ? null : / at position (\d+)/.exec(v8);
        if (at) expect(ours).toBe(Number(at[1]));
        if (v8 === 'Unexpected end of JSON input') expect(ours).toBe(text.length);
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['abc', 0, 'line 1, column 1'],
    ['abc', 3, 'line 1, column 4'],
    ['a\nb\n', 2, 'line 2, column 1'],
    ['a\nb\n', 4, 'line 3, column 1'],
    ['😀x', 2, 'line 1, column 2'],
  ])('textPosition(%j, %i) is %s', (text, at, where) => {
    expect(textPosition(text, at)).toBe(where);
  });
});
