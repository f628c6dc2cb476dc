import fs from 'node:fs';
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { parseDeclarations } from './declaration-table.js';
import type { ParseAnswer, ParseRequest } from './declaration-worker.js';
import { configureSymbolEngine, loadGrammar, shareRuntime, symbolHeapBytes } from './grammar-loader.js';
import { MAX_SYMBOL_FILE_BYTES, SYMBOL_LANGUAGES, symbolLanguageOf } from './languages.js';
import { AHEAD_FREE, AHEAD_POSTED, AHEAD_THEIRS, type AheadAnswer, type AheadData, type AheadStart } from './tables-ahead.js';

// The other half of declaration-worker.ts and of tables-ahead.ts. For a server: parses text it is
// sent and answers the declaration table as plain data, with the size its WebAssembly heap has
// grown to, so the server can replace it. Requests come on the parent port (answered there) or,
// from a caller that blocks until the answer is back, on the sync port (answered there, then the
// shared flag is raised). For an outline (`ahead`): reads the files of the list from its end, each
// one it claims, until it meets the thread that reads them from the start.
const data = workerData as { flag: Int32Array; syncPort: MessagePort; tierUp: boolean } | { ahead: AheadData } | { waiting: true };

if ('waiting' in data) {
  // Started before the outline's plan was made (tables-ahead.ts): it comes as a message.
  parentPort!.once('message', (start: AheadStart) => void readAhead(start.ahead));
} else if ('ahead' in data) {
  void readAhead(data.ahead);
} else {
  serve(data.flag, data.syncPort, data.tierUp);
}

function serve(flag: Int32Array, syncPort: MessagePort, tierUp: boolean): void {
  // A server lives long: V8 may optimize the grammars (docs/symbols.md#cost).
  configureSymbolEngine({ tierUp });
  const byId = new Map(SYMBOL_LANGUAGES.map((l) => [l.id, l]));

  const answer = async (req: ParseRequest): Promise<ParseAnswer> => {
    try {
      const language = byId.get(req.language);
      if (!language) throw new Error(`no grammar ${req.language}`);
      const table = parseDeclarations(req.text, await loadGrammar(language));
      return { id: req.id, heapBytes: symbolHeapBytes(), table };
    } catch (err) {
      return { id: req.id, heapBytes: symbolHeapBytes(), error: (err as Error)?.message ?? String(err) };
    }
  };

  parentPort!.on('message', async (req: ParseRequest) => {
    parentPort!.postMessage(await answer(req));
  });

  syncPort.on('message', async (req: ParseRequest) => {
    syncPort.postMessage(await answer(req));
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  });
}

/** An outline's files from the end of the list, each claimed, read, answered and marked posted. */
async function readAhead({ files, claims, done, port, runtime }: AheadData): Promise<void> {
  // A command that runs once: the baseline compiler only, as in the thread that started this one,
  // and its runtime when it compiled one to be optimized (the same code, optimized once for both).
  configureSymbolEngine({ tierUp: false });
  if (runtime) shareRuntime(runtime);
  for (let i = files.length - 1; i >= 0; i--) {
    if (Atomics.compareExchange(claims, i, AHEAD_FREE, AHEAD_THEIRS) !== AHEAD_FREE) break;
    port.postMessage(await tableOf(files[i]!, i));
    Atomics.store(done, i, AHEAD_POSTED);
    Atomics.notify(done, i);
  }
}

async function tableOf(file: string, index: number): Promise<AheadAnswer> {
  try {
    const language = symbolLanguageOf(file);
    if (!language) return { index, error: 'no grammar' };
    const stat = fs.statSync(file);
    // A named FIFO would block this thread's read, and the process's exit, for a writer forever.
    if (!stat.isFile()) return { index, error: 'not a regular file' };
    if (stat.size > MAX_SYMBOL_FILE_BYTES) return { index, error: 'too large' };
    // Parsed only: the thread that takes the table keeps it between runs, under its own key
    // (table-cache.ts stamps an entry with the code that reads it, and this worker is other code).
    const text = fs.readFileSync(file, 'utf8');
    return { index, text, table: parseDeclarations(text, await loadGrammar(symbolLanguageOf(file, text) ?? language)) };
  } catch (err) {
    return { index, error: (err as Error)?.message ?? String(err) };
  }
}
