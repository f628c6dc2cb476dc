import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { END_OF_INPUT, InputReader } from '../../src/core/editor/input-reader.js';

const frame = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const exit = '{"jsonrpc":"2.0","method":"exit"}';
const shutdown = '{"jsonrpc":"2.0","id":2,"method":"shutdown"}';
const accented = Buffer.from(frame('{"jsonrpc":"2.0","method":"é"}'));
const split = accented.indexOf(0xc3) + 1;

/** What the reader hands on and reports for the chunks, written one by one, then the end of the input. */
async function read(chunks: (string | Buffer)[]): Promise<unknown[]> {
  const input = new PassThrough();
  const reader = new InputReader(input);
  const seen: unknown[] = [];
  reader.onError((err) => seen.push(`error: ${err.message}`));
  const closed = new Promise<void>((resolve) => reader.onClose(() => resolve()));
  reader.listen((message) => seen.push(message === END_OF_INPUT ? 'END' : message));
  for (const chunk of chunks) input.write(chunk);
  input.end();
  await closed;
  reader.dispose();
  return seen;
}

describe('InputReader: each message in order, then the end of the input last', () => {
  it.each<[string, (string | Buffer)[], unknown[]]>([
    ['two frames in one chunk', [frame(shutdown) + frame(exit)], [JSON.parse(shutdown), JSON.parse(exit), 'END']],
    ['a frame split in its header and its body', ['Content-Len', `gth: ${exit.length}\r\n\r\n${exit.slice(0, 17)}`, exit.slice(17)], [JSON.parse(exit), 'END']],
    ['a two-byte character split across chunks', [accented.subarray(0, split), accented.subarray(split)], [{ jsonrpc: '2.0', method: 'é' }, 'END']],
    ['a body that is not JSON: an error, and the next frame is still read', [frame('{nope') + frame(exit)], [expect.stringMatching(/^error: .*JSON/), JSON.parse(exit), 'END']],
    ['a Content-Length that is not a number', ['Content-Length: x\r\n\r\n{}'], ['error: Content-Length must be a number of bytes, got "x"', 'END']],
    ['a frame cut off by the end of the input', [frame(exit).slice(0, -3)], ['END']],
    ['no input at all', [], ['END']],
  ])('%s', async (_name, chunks, expected) => {
    expect(await read(chunks)).toEqual(expected);
  });

  it('hands nothing on once disposed', async () => {
    const input = new PassThrough();
    const reader = new InputReader(input);
    const seen: unknown[] = [];
    reader.listen((message) => seen.push(message));
    reader.dispose();
    input.end(frame(exit));
    await new Promise((resolve) => input.on('close', resolve));
    expect(seen).toEqual([]);
  });
});
