import { visible } from '../../shared/visible.js';
import { readFd } from '../../core/paging/fd-read.js';
import { type FdFormat, fdErrorRenderers, fdRenderers, renderClose, renderList, renderWrite } from '../../core/output/render-fd.js';
import { Store } from '../../core/paging/fd-store.js';
import { writeEntry } from '../../core/paging/fd-write.js';
import type { FdView, LineRange } from '../../core/paging/fd-read.js';
import type { Encoding } from '../../core/tokens/tokenizer.js';
import { type ExitCode, FdError, UsageError } from '../../shared/errors.js';
import { type FormatOptions, formatOf, type TableFormat } from '../format-flags.js';
import { type IO, printDiagnostics } from '../io.js';
import { type WriteCliOptions, writeOptions } from '../write-flags.js';
import { groupDigits } from '../../shared/group-digits.js';

export interface FdReadCliOptions {
  page?: number;
  all?: boolean;
  lines?: LineRange;
  pageSize: number;
  prettyJson?: boolean;
  format?: FdFormat;
  json?: boolean;
  save?: boolean;
  store?: string;
  tokens?: boolean;
  encoding?: Encoding;
}

/** `refcat fd read [SOURCE]`. FdErrors are answered as fd_error on stdout (docs/reference.md#fd-and-ref), exit 1. */
export async function runFdRead(source: string | undefined, opts: FdReadCliOptions, io: IO): Promise<ExitCode> {
  const format = formatOf(opts, 'xml');
  return withFdErrors(format, io, async () => {
    // Without SOURCE on a terminal nothing would come: say so instead of waiting (`-` still reads it).
    if (source === undefined && (io.stdin as { isTTY?: boolean }).isTTY) {
      throw new UsageError('No SOURCE and stdin is a terminal: pipe content in, or name a file, fd:N, ref:ID or a ref spec');
    }
    if (opts.tokens && opts.all) throw new UsageError('--tokens counts one page: it does not combine with --all (count with --lines or --page)');
    if (opts.encoding && !opts.tokens) throw new UsageError('--encoding chooses the tokenizer of --tokens: give --tokens too');
    let view = await readFd({ ...opts, source }, io.ctx, io.stdin as AsyncIterable<Buffer>);
    if (opts.tokens) view = await countedView(view, opts.encoding ?? 'o200k_base', io);
    try {
      for (const block of fdRenderers[format](view)) {
        io.stdout(block);
        await io.drain?.();
      }
    } finally {
      view.close();
    }
    await printDiagnostics(io, [], view.warnings);
    if (format === 'raw' && view.kind === 'result') {
      io.stderr(`Note: page 1 of ${view.pages} of ${view.fd}${view.next ? `; next: ${view.next} --format raw` : ''}\n`);
    }
    return 0;
  });
}

export async function runFdList(opts: FormatOptions<TableFormat> & { store?: string }, io: IO): Promise<ExitCode> {
  const json = formatOf(opts, 'text') === 'json';
  const store = Store.at(io.ctx, opts.store);
  const { entries, damaged, temps } = store.listAll();
  for (const d of damaged) io.stderr(`Warning: damaged store entry ${visible(d.dir)}: ${d.problem} (remove the folder)\n`);
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  if (temps.reclaimed > 0) io.stderr(`Reclaimed ${mib(temps.reclaimed)} left by interrupted writes\n`);
  if (temps.inUse > 0) io.stderr(`${mib(temps.inUse)} are being written by running refcat processes (not reclaimable now)\n`);
  if (entries.length === 0 && !json) {
    io.stderr(`No fds or refs stored in ${store.dir}\n`);
    return 0;
  }
  io.stdout(renderList(entries, json, store.dir));
  return 0;
}

export async function runFdClose(id: string, opts: { store?: string }, io: IO): Promise<ExitCode> {
  return withFdErrors('xml', io, async () => {
    Store.at(io.ctx, opts.store).close(id);
    io.stdout(renderClose(id));
    return 0;
  });
}

export async function runFdWrite(id: string, opts: WriteCliOptions, io: IO): Promise<ExitCode> {
  return withFdErrors('xml', io, async () => {
    const write = writeOptions(opts);
    const { result, meta } = await writeEntry(id, write, io.ctx, opts.store, io.writeHooks);
    io.stdout(renderWrite('fd_write', ['fd', meta.id], write.to, result, meta.lines));
    return 0;
  });
}

/** The view with its (one page of) text held and counted; plain content gets the count on stderr. */
async function countedView(view: FdView, encoding: Encoding, io: IO): Promise<FdView> {
  const { loadTokenizer } = await import('../../core/tokens/tokenizer.js');
  let text = '';
  for (const block of view.text) text += block;
  const tokens = (await loadTokenizer(encoding)).count(text);
  if (view.kind === 'plain') io.stderr(`refcat: ${groupDigits(tokens)} tokens (${encoding})\n`);
  return { ...view, text: [text], tokens, close: () => view.close() };
}

/** An FdError becomes the fd_error answer on stdout (raw output: an `Error:` line on stderr). */
async function withFdErrors(format: FdFormat, io: IO, run: () => Promise<ExitCode>): Promise<ExitCode> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof FdError) || format === 'raw') throw err;
    io.stdout(fdErrorRenderers[format](err));
    return err.exitCode;
  }
}
