/**
 * The line ending a text is written with, as its first line ends: `\r\n` or `\n`; null when it has
 * none (one line). `ref export` ends a CRLF ref with `\r\n`, and append and insert keep a file's
 * own endings around what they add (docs/reference.md#writing-files-ref-export-and-fd-write).
 * Looks at most at the first 64 KiB.
 */
export function lineEndOf(bytes: Uint8Array): '\r\n' | '\n' | null {
  const nl = bytes.subarray(0, 64 * 1024).indexOf(0x0a);
  if (nl === -1) return null;
  return nl > 0 && bytes[nl - 1] === 0x0d ? '\r\n' : '\n';
}

/** lineEndOf() of a text already decoded: `\r\n` when its first line ends so, `\n` otherwise. */
export function lineEndOfText(text: string): '\r\n' | '\n' | null {
  const nl = text.indexOf('\n');
  if (nl === -1) return null;
  return nl > 0 && text.charCodeAt(nl - 1) === 0x0d ? '\r\n' : '\n';
}
