import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { parseDeclarations } from './declaration-table.js';
import type { ParseAnswer, ParseRequest } from './declaration-worker.js';
import { configureSymbolEngine, loadGrammar, symbolHeapBytes } from './grammar-loader.js';
import { SYMBOL_LANGUAGES } from './languages.js';

// The other half of declaration-worker.ts: parses text it is sent and answers the declaration
// table as plain data, with the size its WebAssembly heap has grown to, so the server can replace
// it. Requests come on the parent port (answered there) or, from a caller that blocks until the
// answer is back, on the sync port (answered there, then the shared flag is raised).
const { flag, syncPort, tierUp } = workerData as { flag: Int32Array; syncPort: MessagePort; tierUp: boolean };

// A server lives long: V8 may optimize the grammars (docs/symbols.md#cost).
configureSymbolEngine({ tierUp });

const byId = new Map(SYMBOL_LANGUAGES.map((l) => [l.id, l]));

async function answer(req: ParseRequest): Promise<ParseAnswer> {
  try {
    const language = byId.get(req.language);
    if (!language) throw new Error(`no grammar ${req.language}`);
    const table = parseDeclarations(req.text, await loadGrammar(language));
    return { id: req.id, heapBytes: symbolHeapBytes(), table };
  } catch (err) {
    return { id: req.id, heapBytes: symbolHeapBytes(), error: (err as Error)?.message ?? String(err) };
  }
}

parentPort!.on('message', async (req: ParseRequest) => {
  parentPort!.postMessage(await answer(req));
});

syncPort.on('message', async (req: ParseRequest) => {
  syncPort.postMessage(await answer(req));
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
