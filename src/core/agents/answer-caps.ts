import type { ExtractionOutcome, StoredOutput } from '../pipeline/run-extraction.js';
import type { FdView } from '../paging/fd-read.js';
import type { Store } from '../paging/fd-store.js';
import { groupDigits } from '../../shared/group-digits.js';

/**
 * The most characters of one answer of refcat mcp (docs/agents.md#large-answers-and-citations):
 * about 100,000 tokens, more than an agent reads at once. Past it, `extract` and `verify_refs`
 * store the whole answer as an fd to page with fd_read, and `fd_read` itself answers at most this.
 */
export const ANSWER_CAP_CHARS = 400_000;

const n = groupDigits;

/**
 * The end of an extract answer past the cap: where the rest is and the fd_read call that reads on
 * from the first line not shown (a page holds whole lines, so the page that holds it may start
 * lines before it: the call names the lines, and the page is said beside it).
 */
export function storedNote(s: StoredOutput): string {
  const next = s.shownLines + 1;
  const call = `fd_read ${JSON.stringify({ fd: s.fd, lines: `${next}-` })}`;
  return (
    `\n… cut: this answer stops at the cap of ${n(s.cap)} characters, after line ${n(s.shownLines)} of ${n(s.totalLines)}. ` +
    `The whole answer (${n(s.chars)} characters) is stored as ${s.fd}: ${call} reads on from line ${n(next)} ` +
    `(by pages: line ${n(next)} is on page ${n(s.nextPage)} of ${n(s.pages)}, ${n(s.pageSize)} characters a page).\n`
  );
}

/** fd_read's `page_size` over the cap is taken as the cap, and the answer says so. */
export function pageSizeNote(asked: number): string {
  return `Note: page_size ${n(asked)} is more than one answer holds: pages of ${n(ANSWER_CAP_CHARS)} characters were read instead\n`;
}

/**
 * fd_read's `lines`: the view's text cut after the last whole line within `cap` characters (a
 * first line longer than the cap: its first `cap` characters), with the note that names the call
 * reading on. Nothing to say when the lines fit. The view's text is consumed and replaced.
 */
export function capLines(view: FdView, cap: number, again: { path: string } | { fd: string }): string[] {
  let kept = '';
  let over = false;
  for (const block of view.text) {
    if (kept.length + block.length > cap) {
      kept += block.slice(0, cap + 1 - kept.length);
      over = true;
      break;
    }
    kept += block;
  }
  if (!over) {
    view.text = [kept];
    return [];
  }
  const asked = `${view.lineStart}-${view.lineEnd}`;
  const end = view.lineEnd;
  const at = kept.lastIndexOf('\n', cap - 1);
  if (at === -1) {
    // One line longer than the cap: its start, cut between two characters (not inside a surrogate pair).
    let cut = cap;
    const code = kept.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut--;
    view.text = [kept.slice(0, cut) + '\n'];
    view.lineEnd = view.lineStart;
    const on = end > view.lineStart ? `; fd_read ${JSON.stringify({ ...again, lines: `${view.lineStart + 1}-${end}` })} reads on from the next line` : '';
    return [`… cut: line ${n(view.lineStart)} alone is longer than ${n(cap)} characters: only its start is shown (page through it with page and page_size)${on}\n`];
  }
  const shown = kept.slice(0, at + 1);
  let lines = 0;
  for (let i = shown.indexOf('\n'); i !== -1; i = shown.indexOf('\n', i + 1)) lines++;
  view.text = [shown];
  view.lineEnd = view.lineStart + lines - 1;
  const call = `fd_read ${JSON.stringify({ ...again, lines: `${view.lineEnd + 1}-${end}` })}`;
  return [`… cut: lines ${asked} hold more than ${n(cap)} characters; this answer stops after line ${n(view.lineEnd)}: ${call} reads on\n`];
}

/** The lists of the verify refs report, in the order a cut answer keeps them: what is broken first. */
const LISTS: readonly (readonly string[])[] = [['errors'], ['drift', 'refs'], ['snippets', 'refs'], ['warnings'], ['skipped']];
/** Drift verdicts that ask nothing of the reader: left out first when the report is cut. */
const QUIET = new Set(['unchanged', 'anchored']);

/**
 * verify_refs' JSON report within the cap (docs/agents.md#large-answers-and-citations): as it is
 * when it fits; else the whole report is stored as an fd, and the answer is the same JSON, its
 * counts whole, with a `cut` object after them saying what is shown, where the rest is and how to
 * narrow the call, and its lists cut to fit: errors first, then drift verdicts other than
 * unchanged and anchored, cited snippets, warnings, skipped files.
 */
export async function capReport(text: string, cap: number, store: () => Store): Promise<string> {
  if (text.length <= cap) return text;
  const { fd, pages, pageSize } = await storeWhole(text, store);
  const doc = JSON.parse(text) as Record<string, unknown>;
  // Each list of the report, emptied, with the items it may take back (in order) while they fit.
  const lists: { key: string; list: unknown[]; pool: unknown[]; total: number; pad: number }[] = [];
  for (const at of LISTS) {
    const owner = ownerOf(doc, at);
    if (!owner) continue;
    const name = at[at.length - 1]!;
    const all = owner[name] as unknown[];
    const key = at.join('.');
    const pool = key === 'drift.refs' ? all.filter((r) => !QUIET.has((r as { status?: string }).status ?? '')) : all;
    const list: unknown[] = [];
    owner[name] = list;
    // Pretty-printed, each line of an item is indented two spaces a level.
    lists.push({ key, list, pool, total: all.length, pad: 2 * (at.length + 1) });
  }
  const render = () => {
    const cut = {
      cap,
      chars: text.length,
      fd,
      pages,
      page_size: pageSize,
      shown: Object.fromEntries(lists.map((l) => [l.key, l.list.length])),
      total: Object.fromEntries(lists.map((l) => [l.key, l.total])),
      read_on: `fd_read ${JSON.stringify({ fd, page: 1 })} pages the whole report (${n(pages)} pages); or call verify_refs again with fewer paths, or exclude`,
    };
    return JSON.stringify(withCut(doc, cut), null, 2) + '\n';
  };
  // Filled greedily by each item's size as printed, then trimmed until the text fits.
  let room = cap - render().length - 200;
  const added: unknown[][] = [];
  fill: for (const l of lists) {
    for (const item of l.pool) {
      const json = JSON.stringify(item, null, 2);
      const size = json.length + l.pad * json.split('\n').length + 2;
      if (size > room) break fill;
      room -= size;
      l.list.push(item);
      added.push(l.list);
    }
  }
  let out = render();
  while (out.length > cap && added.length > 0) {
    added.pop()!.pop();
    out = render();
  }
  return out;
}

/** The whole report as an fd entry of the store: its label and how many pages it has. */
async function storeWhole(text: string, store: () => Store): Promise<{ fd: string; pages: number; pageSize: number }> {
  const [{ Ingester }, { DEFAULT_PAGE_SIZE }] = await Promise.all([import('../paging/ingest.js'), import('../paging/page-builder.js')]);
  const ingester = new Ingester({ pageSize: DEFAULT_PAGE_SIZE, store, persist: 'always', source: 'verify_refs' });
  try {
    ingester.push(text);
    const content = ingester.finish();
    const pages = content.pages.count;
    content.pages.close();
    content.bytes.close();
    return { fd: content.label!, pages, pageSize: DEFAULT_PAGE_SIZE };
  } catch (err) {
    ingester.abort();
    throw err;
  }
}

function ownerOf(doc: Record<string, unknown>, at: readonly string[]): Record<string, unknown> | null {
  let o: unknown = doc;
  for (const k of at.slice(0, -1)) o = (o as Record<string, unknown> | null)?.[k];
  if (!o || typeof o !== 'object' || !Array.isArray((o as Record<string, unknown>)[at[at.length - 1]!])) return null;
  return o as Record<string, unknown>;
}

/** The report with `cut` after its counts (after `broken`), so that a reader meets it first. */
function withCut(doc: Record<string, unknown>, cut: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc)) {
    out[k] = v;
    if (k === 'broken') out.cut = cut;
  }
  if (!('cut' in out)) out.cut = cut;
  return out;
}

/**
 * extract's JSON answer (docs/agents.md#the-tools): the CLI's `--json` report as it streamed, with
 * a last field `tokens` counting the JSON before it, what the agent's context takes in. Past the cap
 * the text is cut JSON: it ends with where the whole answer is and the token line instead.
 */
export function jsonAnswer(json: string, outcome: ExtractionOutcome, shown: string, encoding: string): string {
  if (outcome.stored || outcome.tokens === null || !json.endsWith('\n}\n')) return shown + (outcome.summary ?? '');
  const tokens = JSON.stringify({ encoding, json: outcome.tokens }, null, 2).replaceAll('\n', '\n  ');
  return `${json.slice(0, -3)},\n  "tokens": ${tokens}\n}\n`;
}
