import { Store } from '../../core/paging/fd-store.js';
import { renderWrite } from '../../core/output/render-fd.js';
import { exportRef, findRef, readTranscript, type RefSet, refsFromStore, refsFromText, scanRefs } from '../../core/response-refs/response-refs.js';
import { redactedRef } from '../../core/response-refs/ref-secrets.js';
import { type RefContentFormat, type RefListFormat, refListRenderers, renderRefContent } from '../../core/output/render-response-refs.js';
import type { ExitCode } from '../../shared/errors.js';
import { chosenFormat, type FormatOptions, formatOf } from '../format-flags.js';
import { type IO, printDiagnostics } from '../io.js';
import { type WriteCliOptions, writeOptions } from '../write-flags.js';

interface FromOptions {
  from?: string;
  store?: string;
}

/** `ref list [--from FILE]`. */
export async function runRefList(opts: FromOptions & FormatOptions<RefListFormat>, io: IO): Promise<ExitCode> {
  const format = formatOf(opts, 'xml');
  const set = await loadRefs(opts, io);
  io.stdout(refListRenderers[format](set.refs));
  await printDiagnostics(io, [], set.warnings);
  return 0;
}

/** `ref show ID [--from FILE] [--raw | --json | --format F]`. */
export async function runRefShow(id: string, opts: FromOptions & FormatOptions<RefContentFormat> & { raw?: boolean }, io: IO): Promise<ExitCode> {
  const format = chosenFormat<RefContentFormat>([opts.json && 'json', opts.format, opts.raw && 'raw'], 'xml');
  const set = await loadRefs(opts, io);
  const shown = redactedRef(findRef(set, id), set.warnings);
  await printDiagnostics(io, [], set.warnings);
  io.stdout(renderRefContent(shown, format));
  return 0;
}

/** `ref scan FILE`: store every ref as ref:ID. */
export async function runRefScan(file: string, opts: FormatOptions<RefListFormat> & { store?: string }, io: IO): Promise<ExitCode> {
  const format = formatOf(opts, 'xml');
  const set = await loadRefs({ from: file }, io);
  const store = Store.at(io.ctx, opts.store);
  scanRefs(set, store);
  io.stdout(refListRenderers[format](set.refs, [['store', store.dir]], true));
  await printDiagnostics(io, [], set.warnings);
  return 0;
}

/** `ref export ID --to PATH [--from FILE] ...`. */
export async function runRefExport(id: string, opts: WriteCliOptions & FromOptions & { stripFence?: boolean }, io: IO): Promise<ExitCode> {
  const write = writeOptions(opts);
  const set = await loadRefs(opts, io);
  const { result, lines, warnings } = await exportRef(findRef(set, id), { ...write, stripFence: opts.stripFence }, io.ctx, io.writeHooks);
  io.stdout(renderWrite('ref_export', ['id', id], write.to, result, lines));
  await printDiagnostics(io, [], [...set.warnings, ...warnings]);
  return 0;
}

/** The refs of `--from FILE` (`-`: stdin), or the stored ones without --from. */
async function loadRefs(opts: FromOptions, io: IO): Promise<RefSet> {
  if (opts.from === undefined) return refsFromStore(Store.at(io.ctx, opts.store));
  if (opts.from === '-') return refsFromText(await readAll(io.stdin), 'stdin');
  return refsFromText(readTranscript(opts.from, io.ctx), opts.from);
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
  return Buffer.concat(chunks).toString('utf8');
}
