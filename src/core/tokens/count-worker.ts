import { parentPort, workerData } from 'node:worker_threads';
import type { CountRequest } from './counter.js';
import { type Encoding, loadTokenizer, PieceCounter } from './tokenizer.js';

// The other half of counter.ts: loads the tokenizer while the main thread extracts, then counts
// each batch of texts it is sent, or the pieces of one streamed text as they come. Messages are
// handled in the order they arrive (each waits for the same tokenizer).
const { encoding, counted } = workerData as { encoding: Encoding; counted: Int32Array };
const tokenizer = loadTokenizer(encoding);
let stream: PieceCounter | undefined;
parentPort!.on('message', async (request: CountRequest) => {
  const tok = await tokenizer;
  if (Array.isArray(request)) {
    parentPort!.postMessage(request.map((t) => tok.count(t)));
    return;
  }
  stream ??= new PieceCounter((t) => tok.count(t));
  if ('add' in request) {
    for (const piece of request.add) stream.add(piece);
    // The main thread sends no more than a few batches ahead of this count (counter.ts).
    Atomics.add(counted, 0, 1);
    Atomics.notify(counted, 0);
  } else {
    parentPort!.postMessage({ total: stream.total() });
    stream = undefined;
  }
});
