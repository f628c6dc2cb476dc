import type { Context } from '../../shared/context.js';
import { safeWrite, type SafeWriteHooks, type SafeWriteOptions, type SafeWriteResult } from '../safe-write/safe-write.js';
import { type EntryMeta, Store } from './fd-store.js';

/**
 * `fd write fd:N --to PATH`: the entry's content, streamed (a 1 GiB fd is never held), written
 * with the file safety of docs/reference.md#writing-files-ref-export-and-fd-write. `write` mode copies the content byte for byte; append and
 * insert keep lines whole (see safeWrite).
 */
export async function writeEntry(
  id: string,
  opts: SafeWriteOptions,
  ctx: Context,
  storeDir?: string,
  hooks: SafeWriteHooks = {},
): Promise<{ result: SafeWriteResult; meta: EntryMeta }> {
  const entry = Store.at(ctx, storeDir).open(id);
  const source = entry.source();
  try {
    return { result: await safeWrite(source, opts, ctx, hooks), meta: entry.meta };
  } finally {
    source.close();
  }
}
