import { parentPort, workerData } from 'node:worker_threads';
import { type Encoding, loadTokenizer } from './tokenizer.js';

// The other half of counter.ts: loads the tokenizer while the main thread extracts, then counts
// each batch of texts it is sent.
const tokenizer = loadTokenizer((workerData as { encoding: Encoding }).encoding);
parentPort!.on('message', async (texts: string[]) => {
  const tok = await tokenizer;
  parentPort!.postMessage(texts.map((t) => tok.count(t)));
});
