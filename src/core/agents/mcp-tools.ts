import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Context } from '../../shared/context.js';
import { type Diagnostic, FdError, isRefcatError, RefcatError, toDiagnostic, UsageError } from '../../shared/errors.js';
import { AliasResolver } from '../alias/resolve-aliases.js';
import { PatternBudget } from '../extract/pattern-search.js';
import { DEFAULT_RENDER_OPTIONS, renderDiagnostic } from '../output/render-extraction.js';
import { escapeAttr, fdErrorRenderers, fdRenderers, renderClose, renderList, renderWrite } from '../output/render-fd.js';
import { refListRenderers } from '../output/render-response-refs.js';
import { validateRenderers } from '../output/render-validate.js';
import { verifyRenderers } from '../output/render-verify.js';
import { readFd } from '../paging/fd-read.js';
import { Store } from '../paging/fd-store.js';
import { parseRef } from '../ref-spec/parse-ref-spec.js';
import { exportRef, findRef, readTranscript, type RefSet, refsFromText } from '../response-refs/response-refs.js';
import { WRITE_MODES } from '../safe-write/write-mode.js';
import { readTextFile } from '../safe-read/read-text-file.js';
import { VERIFY_EXTENSIONS, verifyRefs } from '../verify-refs/verify-refs.js';
import type { ConvReader } from '../workflow/load-conv.js';
import { collectFiles } from '../walk/collect-files.js';
import { hasGlobChars } from '../walk/glob.js';
import { validateConv } from '../workflow/validate-conv.js';
import { Confinement, confinementOf, outside } from '../safe-read/confinement.js';
import { runExtraction, type StoredOutput, TextSink } from '../pipeline/run-extraction.js';
import { CounterPool } from '../tokens/counter-pool.js';
import { ENCODINGS } from '../tokens/tokenizer.js';
import { primeSymbolTables } from '../symbols/prime-tables.js';
import { HeavyCalls } from './heavy-calls.js';

/** What the server knows: the root (also the working directory of every tool) and the store. */
export interface AgentContext {
  ctx: Context;
  /** `--store DIR`; else REFCAT_STORE, else the default, as for the CLI. */
  store?: string;
}

export interface ToolAnswer {
  text: string;
  isError: boolean;
  /** For a failed call: one line for the server's log, when the text does not start with one (a JSON report). */
  log?: string;
}

export interface ToolSpec {
  name: string;
  description: string;
  input: z.ZodRawShape;
  annotations: { readOnlyHint: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint: boolean };
  /** Calls that may read and write a lot wait their turn (see HeavyCalls). */
  heavy?: boolean;
  run: (args: any, agent: AgentContext) => Promise<ToolAnswer>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

const source = {
  text: z.string().optional().describe('The content itself, e.g. an LLM answer or a command output.'),
  path: z.string().optional().describe('A file under the root, relative to it (e.g. "logs/build.log").'),
  fd: z.string().optional().describe('A stored handle: "fd:N" from an earlier fd_read (or fd_list), or "ref:ID" stored by the refcat CLI\'s ref scan.'),
};

/** The tools of `refcat mcp` (docs/reference.md#refcat-mcp): names, schemas and handlers. */
export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'extract',
    description:
      'Extract exact line ranges of files as attributed markdown (a "## From: path:a-b" header and a fenced, line-numbered block), ' +
      'the same text as the refcat CLI. Refs look like "@src/app.ts#L10-L50" (lines 10 to 50), "@src/app.py#/def main/:function" ' +
      '(the function a regex match opens; also :class, :block), "@src/app.ts#/export const/:+5" (the match and 5 more lines), ' +
      '"@src/**/*.ts#L1-L5" (a glob) or "alias:path#L3". Paths are relative to the root. The answer ends with its token count (o200k_base).',
    input: {
      refs: z.array(z.string()).min(1).describe('Refs to extract, in the order they should appear, e.g. ["@src/a.ts#L1-L20"].'),
      format: z
        .enum(['markdown', 'json', 'cite'])
        .optional()
        .describe('markdown (default); the JSON report with one entry per ref; or cite: each ref as a fenced block whose first line is the ref in a comment, then the lines verbatim (to paste into docs).'),
      max_tokens: z.number().int().positive().optional().describe('Keep the markdown within this many tokens (o200k_base): refs after the budget are left out and the crossing one is cut at a line.'),
      context: z.number().int().min(0).optional().describe('Extra lines shown around every selection (like grep -C).'),
    },
    annotations: READ_ONLY,
    heavy: true,
    run: async (args: { refs: string[]; format?: 'markdown' | 'json' | 'cite'; max_tokens?: number; context?: number }, agent) => {
      const { ctx } = agent;
      const format = args.format ?? 'markdown';
      if (format !== 'markdown' && args.max_tokens !== undefined) throw new UsageError(`max_tokens budgets the markdown output: it does not combine with format ${format}`);
      const aliases = aliasesOf(ctx);
      const confinement = confinementOf(ctx, aliases);
      for (const ref of args.refs) checkRefText(ref, confinement);
      // Symbol refs' tables come from the parser worker now, so the extraction does not wait on it.
      await primeSymbolTables(args.refs, (spec) => [spec.alias ? aliases.resolve(spec.alias, spec.raw) : ctx.cwd], (abs) => confinement.allows(abs));
      const answer = new TextSink();
      const outcome = await runExtraction(
        {
          batches: [{ inputs: args.refs }],
          extract: { base: ctx.cwd, aliases, context: args.context ?? 0, patternBudget: new PatternBudget(), confine: confinement },
          format,
          render: DEFAULT_RENDER_OPTIONS,
          tokens: { encoding: ENCODINGS[0], count: true, maxTokens: args.max_tokens, budgetName: 'max_tokens', counters },
          admit: (r) => {
            if (!confinement.allows(r.path)) throw outside(r.ref, ctx.cwd);
          },
          cap: { chars: ANSWER_CAP_CHARS, store: () => Store.at(ctx, agent.store) },
        },
        answer,
        ctx,
      );
      // A ref that leads out (a glob or alias through a symlink) refuses the whole call; it was refused before anything was read.
      const refused = outcome.log.find((l) => l.diagnostic.code === 'outside_root');
      if (refused) throw new UsageError(refused.diagnostic.message, { code: 'outside_root' });
      const shown = answer.text + (outcome.stored ? storedNote(outcome.stored) : '');
      const log = outcome.log.map((l) => renderDiagnostic(l.level === 'error' ? 'Error' : 'Warning', l.diagnostic)).join('');
      // The JSON report carries its diagnostics and token counts, as the CLI prints it; markdown
      // ends with the CLI's stderr: diagnostics, then the --tokens line.
      const text = format === 'json' ? shown : shown + (shown ? '\n' : '') + log + (outcome.summary ?? '');
      return { text, isError: outcome.code !== 0 };
    },
  },
  {
    name: 'validate',
    description:
      'Validate .conv workflow files (directives, values, blocks, INCLUDEs and every ref they hold). Answers the JSON report: ' +
      '{"valid": bool, "files": [{"path", "valid", "errors": [{"code","message","line","ref"}], "warnings": [...]}]}.',
    input: {
      paths: z.array(z.string()).min(1).describe('Workflow files, folders (every *.conv below) or globs, relative to the root.'),
      strict: z.boolean().optional().describe('Warnings count as errors.'),
      allow_missing: z.boolean().optional().describe('Missing files, unknown aliases and unmatched CONTEXT patterns are warnings, not errors.'),
    },
    annotations: READ_ONLY,
    run: async (args: { paths: string[]; strict?: boolean; allow_missing?: boolean }, agent) => {
      const { ctx } = agent;
      const aliases = aliasesOf(ctx);
      const confinement = confinementOf(ctx, aliases);
      for (const p of args.paths) checkPathText(p, confinement);
      const { files, skipped } = collectFiles(args.paths, ctx, { extensions: ['.conv'], namedNeedExtension: true, confine: confinement });
      for (const f of files) if (!confinement.allows(f.path)) throw outside(f.path, ctx.cwd);
      if (files.length === 0) {
        const why = skipped.length > 0 ? ` (${skipped.length} skipped by ignore rules)` : '';
        throw new UsageError(`No .conv files found in ${args.paths.join(', ')}${why}`);
      }
      const patternBudget = new PatternBudget();
      const readFile = confinedReader(confinement);
      const results = files.map((f) =>
        validateConv(f.path, ctx, { allowMissing: args.allow_missing ?? false, strict: args.strict ?? false, aliases, patternBudget, readFile, confine: confinement }),
      );
      const invalid = results.filter((r) => !r.valid).length;
      return {
        text: chunksText(validateRenderers.json(results, { cwd: ctx.cwd }, skipped)),
        isError: invalid > 0,
        log: `${invalid} of ${results.length} ${results.length === 1 ? 'workflow' : 'workflows'} invalid`,
      };
    },
  },
  {
    name: 'verify_refs',
    description:
      'Check the file references (@path.ext#L10-L20, alias:path.ext) in markdown, .conv, .txt and .yaml files: that each file exists ' +
      'and each line range or pattern still fits. Answers the JSON report with every broken reference and its place. ' +
      'With `drift: true` it also says, per line ref, whether it still points at the code it was written against (git history): ' +
      'unchanged, moved (with `new_ref`, where the same lines are now), changed, deleted or unknown. Nothing is rewritten.',
    input: {
      paths: z.array(z.string()).optional().describe('Files and folders to scan, relative to the root (default: the whole root).'),
      exclude: z.array(z.string()).optional().describe('Globs to leave out of a folder scan (gitignore syntax, like -e/--exclude), e.g. ["vendor/**"].'),
      drift: z
        .boolean()
        .optional()
        .describe('Also compare each line ref with the version of its file it was written against (needs git history); default false.'),
    },
    annotations: READ_ONLY,
    run: async (args: { paths?: string[]; exclude?: string[]; drift?: boolean }, agent) => {
      const { ctx } = agent;
      const aliases = aliasesOf(ctx);
      const confinement = confinementOf(ctx, aliases);
      const paths = args.paths && args.paths.length > 0 ? args.paths : ['.'];
      for (const p of paths) checkPathText(p, confinement);
      // The files verify refs would scan, judged before any is read. A symlink leading out is
      // skipped with a warning, as the CLI skips what it cannot scan; a path named outright that
      // leads out was refused above.
      const collected = collectFiles(paths, ctx, { extensions: VERIFY_EXTENSIONS, exclude: args.exclude, confine: confinement });
      const leading = collected.files.filter((f) => !confinement.allows(f.path));
      // Left out as an anchored, escaped exclude rule, so the scan is otherwise the same.
      const exclude = [...(args.exclude ?? []), ...leading.map((f) => '/' + escapeRule(path.relative(ctx.cwd, f.path)))];
      const report = await verifyRefs(paths, ctx, { aliases, exclude, drift: args.drift ? { fix: false } : undefined, readFile: confinedReader(confinement), confine: confinement });
      const left = new Set(leading.map((f) => f.path));
      report.skipped = report.skipped.filter((f) => !left.has(f.path));
      for (const f of leading) {
        report.warnings.push({
          severity: 'warning',
          code: 'outside_root',
          message: `Skipped: a symlink leading outside the root ${ctx.cwd} (not read)`,
          details: ['Leave it out with exclude, or point it inside the root'],
          file: f.path,
          line: null,
        });
      }
      return {
        text: chunksText(verifyRenderers.json(report, { cwd: ctx.cwd, strict: false })),
        isError: !report.passed,
        log: `${report.broken} broken ${report.broken === 1 ? 'ref' : 'refs'}`,
      };
    },
  },
  {
    name: 'fd_read',
    description:
      'Page through large content. Give exactly one of `path` (a file under the root), `text` (content to store) or `fd` (a handle from an ' +
      'earlier call). Content that fits one page comes back as it is. Larger `text` is stored as "fd:N"; a larger file is read in place. ' +
      'Either way the answer is <fd_result pages="P"> with the first page and a message naming the call for page 2: call again with the same ' +
      '`fd` (or `path`) and `page` 2, 3, ... up to P (the pages joined give back the content exactly), or ask for whole `lines` "A-B".',
    input: {
      ...source,
      page: z.number().int().positive().optional().describe('The page to read, from 1.'),
      page_size: z.number().int().positive().optional().describe('Page size in characters (default 4000).'),
      lines: z.string().regex(/^\d+(-\d*)?$/).optional().describe('Whole lines to read, "A-B", "A-" (to the end) or "A".'),
    },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    run: async (args: { text?: string; path?: string; fd?: string; page?: number; page_size?: number; lines?: string }, agent) => {
      const { ctx } = agent;
      const given = oneSource(args);
      let sourceArg: string | undefined;
      let stdin: Iterable<string> = [];
      const confinement = confinementOf(ctx, aliasesOf(ctx));
      if (given === 'path') sourceArg = regularOrFolder(confinement.checkRead(args.path!), args.path!);
      else if (given === 'fd') sourceArg = checkHandle(args.fd!);
      else stdin = [args.text!];
      const view = await readFd(
        { source: sourceArg, page: args.page, pageSize: args.page_size, lines: args.lines ? lineRange(args.lines) : undefined, store: agent.store, confine: confinement },
        ctx,
        toAsync(stdin),
      ).catch((err: unknown) => {
        // A path that names no file is read as a glob or ref, each file judged; the refusal names the path as given.
        if (given === 'path' && isRefcatError(err) && err.code === 'outside_root') throw outside(args.path!, ctx.cwd);
        throw err;
      });
      // The way on is this tool, not the CLI command that `fd read` names.
      if (view.next !== null) view.next = nextCall(given === 'path' ? { path: args.path! } : { fd: view.fd }, args.page_size);
      let text = '';
      try {
        for (const block of fdRenderers.xml(view)) text += block;
      } finally {
        view.close();
      }
      // A file read in place is named by the `path` it was given: its absolute path is no fd.
      if (given === 'path') text = text.replace(/^<(fd_result|fd_content) fd="[^"]*"/, (_m, tag: string) => `<${tag} path="${escapeAttr(args.path!)}"`);
      // The way to ask for lines here is the `lines` argument, not the CLI's --lines.
      const shown = (d: Diagnostic) => ({ ...d, message: d.message.replace(/ --lines (\d+-\d+)$/, ' lines "$1"') });
      const warnings = view.warnings.map((d) => renderDiagnostic('Warning', shown(d))).join('');
      return { text: text + warnings, isError: false };
    },
  },
  {
    name: 'fd_list',
    description: 'List the stored fds and refs (id, source, size), shared with the refcat CLI.',
    input: {},
    annotations: READ_ONLY,
    run: async (_args, agent) => {
      const store = Store.at(agent.ctx, agent.store);
      const { entries } = store.listAll();
      if (entries.length === 0) return { text: `No fds or refs stored in ${store.dir}\n`, isError: false };
      return { text: renderList(entries, false, store.dir), isError: false };
    },
  },
  {
    name: 'fd_close',
    description: 'Close a stored fd: its content is deleted and its number is never reused.',
    input: { fd: z.string().describe('The handle to close: "fd:N" or "ref:ID".') },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: async (args: { fd: string }, agent) => {
      Store.at(agent.ctx, agent.store).close(checkHandle(args.fd));
      return { text: renderClose(args.fd), isError: false };
    },
  },
  {
    name: 'ref_list',
    description:
      'List the <ref id="ID">...</ref> sections of an LLM answer (give exactly one of `text`, `path` or `fd`): ' +
      '<ref_list count="N"> with one <ref id line lines chars /> per section.',
    input: source,
    annotations: READ_ONLY,
    run: async (args: { text?: string; path?: string; fd?: string }, agent) => {
      const set = await loadRefs(args, agent);
      const warnings = set.warnings.map((d) => renderDiagnostic('Warning', d)).join('');
      return { text: refListRenderers.xml(set.refs) + warnings, isError: false };
    },
  },
  {
    name: 'ref_export',
    description:
      'Write the content of one <ref id="ID"> section of an LLM answer (give exactly one of `text`, `path` or `fd`) to a file under the root. ' +
      'An existing file is refused unless `force`; `append` adds at the end. The write is atomic.',
    input: {
      ...source,
      id: z.string().describe('The id of the <ref> section to write.'),
      to: z.string().describe('The file to write, relative to the root (must stay inside it).'),
      mode: z.enum(WRITE_MODES as unknown as ['write', 'append', 'insert']).optional().describe('write (default), append, or insert (needs `line`).'),
      line: z.number().int().positive().optional().describe('insert: before this line (lines + 1 appends).'),
      force: z.boolean().optional().describe('write: replace an existing file.'),
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: async (
      args: { text?: string; path?: string; fd?: string; id: string; to: string; mode?: 'write' | 'append' | 'insert'; line?: number; force?: boolean },
      agent,
    ) => {
      const { ctx } = agent;
      const mode = args.mode ?? (args.line !== undefined ? 'insert' : 'write');
      if (mode === 'insert' && args.line === undefined) throw new UsageError('mode insert needs line N');
      if (args.force && mode !== 'write') throw new UsageError(`force only applies to mode write (${mode} never overwrites)`);
      const confinement = new Confinement(ctx.cwd);
      if (confinement.inGitDir(args.to)) {
        throw new UsageError(`Refused: ${args.to} is inside a .git folder (git runs what its config and hooks name)`, { code: 'outside_root' });
      }
      if (confinement.inHooksDir(args.to)) {
        throw new UsageError(`Refused: ${args.to} is in the repository's hooks folder (core.hooksPath: git runs what it holds)`, { code: 'outside_root' });
      }
      const set = await loadRefs(args, agent);
      const { result, lines, warnings } = await exportRef(
        findRef(set, args.id),
        { to: args.to, mode, line: args.line, force: args.force ?? false, root: ctx.cwd, allowOutside: false },
        ctx,
      ).catch((err: unknown) => {
        // The CLI's way round (--allow-outside) is not offered here: say so plainly.
        if (err instanceof UsageError && err.code === 'outside_root') {
          throw new UsageError(`Refused: ${err.message.replace(/ \(use --allow-outside to write there anyway\)$/, '')} (ref_export writes only under the root)`, {
            code: 'outside_root',
          });
        }
        // The CLI's --force is the `force` argument here.
        if (isRefcatError(err) && err.code === 'exists') {
          throw new RefcatError(err.message.replace(/ \(use --force to overwrite\)$/, ' (pass force: true to overwrite)'), { code: 'exists', exitCode: err.exitCode, details: err.details, ref: err.ref });
        }
        throw err;
      });
      const notes = [...set.warnings, ...warnings].map((d) => renderDiagnostic('Warning', d)).join('');
      return { text: renderWrite('ref_export', ['id', args.id], args.to, result, lines) + notes, isError: false };
    },
  },
  {
    name: 'aliases',
    description: 'List the aliases (NAME -> folder) that refs like "NAME:path#L3" can use, with where each was defined.',
    input: {},
    annotations: READ_ONLY,
    run: async (_args, agent) => {
      const { entries, errors } = aliasesOf(agent.ctx).listReadable();
      const seen = new Set<string>();
      const aliases = entries.map((e) => {
        const shadowed = seen.has(e.name);
        seen.add(e.name);
        return { name: e.name, target: e.target, source: e.source, origin: e.origin, shadowed };
      });
      const json = { version: 1, aliases, errors: errors.map((e) => ({ ref: null, code: e.code, message: e.message })) };
      return { text: JSON.stringify(json, null, 2) + '\n', isError: errors.length > 0, log: errors[0]?.message };
    },
  },
];

/** The most characters of one extract answer; past it the whole answer is stored, to page with fd_read. */
export const ANSWER_CAP_CHARS = 400_000;

/** The end of an answer past the cap: where the rest is and the fd_read call that reads on. */
export function storedNote(s: StoredOutput): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const call = `fd_read ${JSON.stringify({ fd: s.fd, page: s.nextPage })}`;
  return (
    `\n… cut: this answer stops at the cap of ${n(s.cap)} characters, after line ${n(s.shownLines)} of ${n(s.totalLines)}. ` +
    `The whole answer (${n(s.chars)} characters) is stored as ${s.fd}: ${call} reads on from line ${n(s.shownLines + 1)} ` +
    `(page ${n(s.nextPage)} of ${n(s.pages)}, ${n(s.pageSize)} characters a page).\n`
  );
}

/** Heavy calls of this server: two at a time, eight more waiting, then refused. */
const heavyCalls = new HeavyCalls(2, 8);

/** extract's counting worker, kept between calls: its tokenizer loads once per server. */
const counters = new CounterPool(1);

/** Run a tool: every failure becomes an isError answer with the CLI's message; nothing escapes. */
export async function runTool(tool: ToolSpec, args: unknown, agent: AgentContext): Promise<ToolAnswer> {
  try {
    if (tool.heavy) return await heavyCalls.run(tool.name, () => tool.run(args ?? {}, agent));
    return await tool.run(args ?? {}, agent);
  } catch (err) {
    if (err instanceof FdError) return { text: fdErrorRenderers.xml(err), isError: true };
    if (isRefcatError(err)) return { text: renderDiagnostic('Error', toDiagnostic(err)), isError: true };
    return { text: `Error: internal error: ${(err as Error)?.message ?? String(err)}\n`, isError: true };
  }
}

/** The aliases of a call: an alias file under the root that leads outside is refused, not read. */
export function aliasesOf(ctx: Context): AliasResolver {
  return new AliasResolver(ctx, { confine: new Confinement(ctx.cwd) });
}

/** A ref's path must not name a place outside before anything is read (globs are checked per file after). */
export function checkRefText(ref: string, confinement: Confinement): void {
  const spec = parseRef(ref);
  if (spec.alias !== null) {
    if (spec.path.split(/[\\/]/).includes('..') || path.isAbsolute(spec.path)) throw outside(ref, confinement.root);
    return;
  }
  if (hasGlobChars(spec.path)) {
    if (spec.path.split(/[\\/]/).includes('..') || path.isAbsolute(spec.path)) throw outside(ref, confinement.root);
    return;
  }
  if (!confinement.allows(spec.path)) throw outside(ref, confinement.root);
}

/**
 * A workflow reader that refuses files outside the root and the alias targets: an INCLUDE leading
 * out becomes the including file's `include_unreadable` error, and the file is never read.
 */
function confinedReader(confinement: Confinement): ConvReader {
  return (abs) => {
    if (!confinement.allows(abs)) throw new Error(`refused: outside the root ${confinement.root} (and every alias target)`);
    return readTextFile(abs);
  };
}

function checkPathText(p: string, confinement: Confinement): void {
  if (p.split(/[\\/]/).includes('..') || (path.isAbsolute(p) && !confinement.allows(p))) throw outside(p, confinement.root);
  if (!hasGlobChars(p) && !confinement.allows(p)) throw outside(p, confinement.root);
}

/**
 * fd_read reads files, not pipes: a FIFO or socket could hold the call (and the agent) for ever,
 * and a device may never end. A folder is left to readFd, which says so.
 */
function regularOrFolder(abs: string, given: string): string {
  let st: fs.Stats;
  try {
    st = fs.statSync(abs);
  } catch {
    return abs; // readFd reports the missing file
  }
  if (st.isFile() || st.isDirectory()) return abs;
  const what = st.isFIFO() ? 'a FIFO' : st.isSocket() ? 'a socket' : 'a device';
  throw new FdError('not_regular', given, `Not a regular file: ${given} (${what}; fd_read pages files, and takes other content as text)`);
}

/** A path as a literal gitignore-style rule: every character that would be a pattern is escaped. */
function escapeRule(rel: string): string {
  return rel.split(path.sep).join('/').replace(/[\\*?[\]!# ]/g, (c) => `\\${c}`);
}

function checkHandle(id: string): string {
  if (!/^(fd:\d+|ref:[A-Za-z0-9_.:-]+)$/.test(id)) throw new UsageError(`Not an fd: ${id} (expected fd:N or ref:ID; a file is read with path)`);
  return id;
}

/** `fd_read {"fd":"fd:1","page":2}`: the call that reads page 2 (a file is read in place, by its path). */
function nextCall(source: { path: string } | { fd: string }, pageSize: number | undefined): string {
  return `fd_read ${JSON.stringify({ ...source, page: 2, ...(pageSize !== undefined ? { page_size: pageSize } : {}) })}`;
}

function oneSource(args: { text?: string; path?: string; fd?: string }): 'text' | 'path' | 'fd' {
  const given = (['text', 'path', 'fd'] as const).filter((k) => args[k] !== undefined);
  if (given.length !== 1) throw new UsageError(`Give exactly one of text, path and fd (got ${given.length === 0 ? 'none' : given.join(' and ')})`);
  return given[0]!;
}

async function loadRefs(args: { text?: string; path?: string; fd?: string }, agent: AgentContext): Promise<RefSet> {
  const { ctx } = agent;
  const given = oneSource(args);
  if (given === 'text') return refsFromText(args.text!, 'text');
  if (given === 'path') {
    const abs = confinementOf(ctx, aliasesOf(ctx)).checkRead(args.path!);
    return refsFromText(readTranscript(abs, ctx), args.path!);
  }
  const view = await readFd({ source: checkHandle(args.fd!), all: true, store: agent.store }, ctx, toAsync([]));
  let text = '';
  try {
    for (const block of view.text) text += block;
  } finally {
    view.close();
  }
  return refsFromText(text, args.fd!);
}

function lineRange(s: string): { start: number; end: number | null } {
  const m = /^(\d+)(?:-(\d*))?$/.exec(s)!;
  const start = Number(m[1]);
  const end = m[2] === undefined ? start : m[2] === '' ? null : Number(m[2]);
  if (start < 1 || (end !== null && end < start)) throw new UsageError(`Invalid line range: ${s}`);
  return { start, end };
}

async function* toAsync(items: Iterable<string>): AsyncIterable<string> {
  yield* items;
}

function chunksText(chunks: readonly { stream: string; text: string }[]): string {
  return chunks.map((c) => c.text).join('');
}

