/**
 * Offsets of the first character (of a string) or byte (of a buffer) of every line of `text`. Lines
 * end at `\n`; a final `\n` starts no line, and an empty text has none.
 */
export function lineStarts(text: string | Buffer): number[] {
  const starts = text.length === 0 ? [] : [0];
  const nl = typeof text === 'string' ? '\n' : 0x0a;
  for (let i = text.indexOf(nl as never); i !== -1 && i + 1 < text.length; i = text.indexOf(nl as never, i + 1)) starts.push(i + 1);
  return starts;
}

/** Where line `i` of `text` ends (its `\n` excluded), given `starts = lineStarts(text)`. */
export function lineEnd(text: string, starts: readonly number[], i: number): number {
  if (i + 1 < starts.length) return starts[i + 1]! - 1;
  return text.endsWith('\n') ? text.length - 1 : text.length;
}

/**
 * The lines of a whole file's text as a ref reads them (the line reader's rules): without
 * terminators (`\n`, `\r\n`), no line after a final `\n`, and no UTF-8 BOM on line 1.
 */
export function textLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  if (lines[0]?.startsWith('\ufeff')) lines[0] = lines[0].slice(1);
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}
