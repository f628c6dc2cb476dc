/**
 * Byte text: a UTF-8 file's bytes as a string of one character per byte (decoded as latin1), for
 * scanning many files fast (`verify refs` over a docs tree). Decoding UTF-8 turns a whole doc into
 * a two-byte string as soon as it holds one `✓` or em dash: twice the memory, and most of a scan's
 * garbage collection. Decoding latin1 is a copy. Every ASCII character, line breaks included,
 * stands where it stands in the file, and every other byte is a character of 0x80-0xFF, which no
 * ASCII syntax reads as its own: line numbers, markdown's block structure and ref syntax read the
 * same. A line holding such a byte is decoded (utf8Of) before anything reads its text, so what is
 * found is what a UTF-8 scan finds; test/unit/byte-text.test.ts holds the two scans equal.
 */

const HIGH_BYTE = /[\u0080-\u00ff]/;

/** The text of `bytes` (byte text) decoded as UTF-8; `bytes` itself when it is all ASCII. */
export function utf8Of(bytes: string): string {
  return HIGH_BYTE.test(bytes) ? Buffer.from(bytes, 'latin1').toString('utf8') : bytes;
}
