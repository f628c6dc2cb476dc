import path from 'node:path';
import { z } from 'zod';
import { FdError, isRefcatError, RefcatError, toDiagnostic, UsageError } from '../../shared/errors.js';
import { PatternBudget } from '../regex/pattern-search.js';
import { DEFAULT_RENDER_OPTIONS, renderDiagnostic } from '../output/render-extraction.js';
import { escapeAttr, fdErrorRenderers, fdRenderers, renderClose, renderList, renderWrite } from '../output/render-fd.js';
import { refListRenderers } from '../output/render-response-refs.js';
import { validateRenderers } from '../output/render-validate.js';
import { verifyRenderers } from '../output/render-verify.js';
import { readFd } from '../paging/fd-read.js';
import { SecretScanner } from '../secrets/secret-scan.js';
import { Store } from '../paging/fd-store.js';
import { exportRef, findRef } from '../response-refs/response-refs.js';
import { WRITE_MODES } from '../safe-write/write-mode.js';
import { VERIFY_EXTENSIONS, verifyRefs } from '../verify-refs/verify-refs.js';
import { collectFiles } from '../walk/collect-files.js';
import { validateWorkflows } from '../workflow/validate-conv.js';
import { confinementOf } from '../alias/alias-confinement.js';
import { Confinement, outside } from '../safe-read/confinement.js';
import { runExtraction, TextSink } from '../pipeline/run-extraction.js';
import { CounterPool } from '../tokens/counter-pool.js';
import { ENCODINGS } from '../tokens/tokenizer.js';
import { ANSWER_CAP_CHARS, capLines, capReport, jsonAnswer, pageSizeNote, storedNote } from './answer-caps.js';
import { primeSymbolTables } from '../symbols/prime-tables.js';
import { pinStates } from '../versions/pin-report.js';
import { HeavyCalls } from './heavy-calls.js';
import { SYMBOLS_TOOL } from './symbols-tool.js';
import type { ToolAnswer, ToolSpec } from './tool-spec.js';
import {
  type AgentContext,
  aliasesOf,
  argumentWords,
  inArgumentWords,
  checkHandle,
  checkPathText,
  checkRefText,
  chunksText,
  confinedReader,
  escapeRule,
  type ExportArgs,
  exportPlacement,
  lineRange,
  loadRefs,
  nextCall,
  oneSource,
  regularOrFolder,
  suggestionInside,
  toAsync,
} from './tool-inputs.js';
import { groupDigits } from '../../shared/group-digits.js';

export type { AgentContext } from './tool-inputs.js';
export type { ToolAnswer, ToolSpec } from './tool-spec.js';

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

const source = {
  text: z.string().optional().describe('The content itself, e.g. an LLM answer or a command output.'),
  path: z.string().optional().describe('A file under the root, relative to it (e.g. "logs/build.log").'),
  fd: z.string().optional().describe('A stored handle: "fd:N" from an earlier fd_read (or fd_list), or "ref:ID" stored by the refcat CLI\'s ref scan.'),
};

/** The tools of `refcat mcp` (docs/reference.md#refcat-mcp), in the order it lists them: names, schemas and handlers. */
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
          extract: { base: ctx.cwd, aliases, context: args.context ?? 0, patternBudget: new PatternBudget(), confine: confinement, secrets: new SecretScanner(agent.secrets ?? 'redact', ctx.cwd) },
          format,
          render: DEFAULT_RENDER_OPTIONS,
          // JSON streams as markdown does, counted as it is written: per-ref counts would hold every selection in memory.
          tokens: { encoding: ENCODINGS[0], count: true, maxTokens: args.max_tokens, budgetName: 'max_tokens', counters, json: 'printed' },
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
      const text = format === 'json' ? jsonAnswer(answer.text, outcome, shown, ENCODINGS[0]) : shown + (shown ? '\n' : '') + log + (outcome.summary ?? '');
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
      const options = { allowMissing: args.allow_missing ?? false, strict: args.strict ?? false, aliases, patternBudget, readFile, confine: confinement };
      const results = await validateWorkflows(files.map((f) => f.path), ctx, options);
      for (const r of results) inArgumentWords([...r.errors, ...r.warnings], Object.keys(tool('validate').input));
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
      suggest_fixes: z
        .boolean()
        .optional()
        .describe('For a ref to a missing file, propose files of the same name ("suggestions", closest path first, at most 5); default false.'),
    },
    annotations: READ_ONLY,
    run: async (args: { paths?: string[]; exclude?: string[]; drift?: boolean; suggest_fixes?: boolean }, agent) => {
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
      const report = await verifyRefs(paths, ctx, {
        aliases,
        exclude,
        drift: args.drift ? { fix: false } : undefined,
        suggestFixes: args.suggest_fixes ?? false,
        readFile: confinedReader(confinement),
        confine: confinement,
      });
      // A suggestion is a file's name: one outside the root (the repository above it) is not told.
      for (const e of report.errors) if (e.suggestions) e.suggestions = e.suggestions.filter((s) => suggestionInside(s, ctx.cwd, aliases, confinement));
      inArgumentWords([...report.errors, ...report.warnings], Object.keys(tool('verify_refs').input));
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
      const json = chunksText(verifyRenderers.json(report, { cwd: ctx.cwd, strict: false }));
      return {
        text: await capReport(json, ANSWER_CAP_CHARS, () => Store.at(ctx, agent.store)),
        isError: !report.passed,
        log: `${report.broken} broken ${report.broken === 1 ? 'ref' : 'refs'}`,
      };
    },
  },
  {
    name: 'fd_read',
    description:
      'Page through large content. Give exactly one of `path` (a file under the root, or a ref such as "@src/app.py#L1-L3"), `text` (content to store) or `fd` (a handle from an ' +
      'earlier call). Content that fits one page comes back as it is. Larger `text` is stored as "fd:N"; a larger file is read in place. ' +
      'Either way the answer is <fd_result pages="P"> with the first page and a message naming the call for page 2: call again with the same ' +
      '`fd` (or `path`) and `page` 2, 3, ... up to P (the pages joined give back the content exactly), or ask for whole `lines` "A-B". ' +
      `One answer holds at most ${groupDigits(ANSWER_CAP_CHARS)} characters.`,
    input: {
      ...source,
      page: z.number().int().positive().optional().describe('The page to read, from 1.'),
      page_size: z
        .number()
        .int()
        .positive()
        .optional()
        .describe(`Page size in characters (default 4000; at most ${groupDigits(ANSWER_CAP_CHARS)}, larger is taken as that, with a note).`),
      lines: z
        .string()
        .regex(/^\d+(-\d*)?$/)
        .optional()
        .describe(`Whole lines to read, "A-B", "A-" (to the end) or "A"; an answer stops after the last whole line within ${groupDigits(ANSWER_CAP_CHARS)} characters, naming the call that reads on.`),
    },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    run: async (args: { text?: string; path?: string; fd?: string; page?: number; page_size?: number; lines?: string }, agent) => {
      const { ctx } = agent;
      const given = oneSource(args);
      if (args.page !== undefined && args.lines !== undefined) throw new UsageError('Give only one of page and lines');
      let sourceArg: string | undefined;
      let stdin: Iterable<string> = [];
      const confinement = confinementOf(ctx, aliasesOf(ctx));
      if (given === 'path') sourceArg = regularOrFolder(confinement.checkRead(args.path!), args.path!);
      else if (given === 'fd') sourceArg = checkHandle(args.fd!);
      else stdin = [args.text!];
      // One page is one answer: a page larger than the cap is read as pages of the cap.
      const pageSize = args.page_size === undefined ? undefined : Math.min(args.page_size, ANSWER_CAP_CHARS);
      const notes = pageSize !== args.page_size ? [pageSizeNote(args.page_size!)] : [];
      const named = (m: string) => (given === 'path' && sourceArg !== args.path ? m.split(sourceArg!).join(args.path!) : m);
      const view = await readFd(
        { source: sourceArg, page: args.page, pageSize, lines: args.lines ? lineRange(args.lines) : undefined, store: agent.store, confine: confinement, secrets: agent.secrets },
        ctx,
        toAsync(stdin),
      ).catch((err: unknown) => {
        // A path that names no file is read as a glob or ref, each file judged; the refusal names the path as given.
        if (given === 'path' && isRefcatError(err) && err.code === 'outside_root') throw outside(args.path!, ctx.cwd);
        // A file read in place is named by the `path` it was given, in errors as in answers.
        if (given === 'path' && err instanceof FdError) throw new FdError(err.type, args.path!, named(err.message), 'path');
        throw err;
      });
      const again = given === 'path' ? { path: args.path! } : { fd: view.fd };
      // The way on is this tool, not the CLI command that `fd read` names.
      if (view.next !== null) view.next = nextCall(again, pageSize);
      let text = '';
      try {
        if (view.kind === 'lines') notes.push(...capLines(view, ANSWER_CAP_CHARS, again));
        for (const block of fdRenderers.xml(view)) text += block;
      } finally {
        view.close();
      }
      // A file read in place is named by the `path` it was given: its absolute path is no fd.
      if (given === 'path') text = text.replace(/^<(fd_result|fd_content) fd="[^"]*"/, (_m, tag: string) => `<${tag} path="${escapeAttr(args.path!)}"`);
      const warnings = view.warnings.map((d) => renderDiagnostic('Warning', { ...d, message: argumentWords(named(d.message), ['lines']) })).join('');
      return { text: text + warnings + notes.join(''), isError: false };
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
      mode: z.enum(WRITE_MODES as unknown as ['write', 'append', 'insert']).optional().describe('write (default), append, or insert (needs `line` or `after`).'),
      line: z.number().int().positive().optional().describe('insert: before this line (lines + 1 appends).'),
      after: z.string().optional().describe('insert: after the first line matching this regex, "/def main/i" or "def main".'),
      force: z.boolean().optional().describe('write: replace an existing file.'),
      strip_fence: z.boolean().optional().describe('A ref that is exactly one fenced code block writes the code inside, without the fence lines.'),
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: async (args: ExportArgs, agent) => {
      const { ctx } = agent;
      const { mode, after } = exportPlacement(args);
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
        { to: args.to, mode, line: args.line, after, force: args.force ?? false, root: ctx.cwd, allowOutside: false, stripFence: args.strip_fence ?? false },
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
    description: 'List the aliases (NAME -> folder) that refs like "NAME:path#L3" can use, with where each was defined, and for an alias the workspace lockfile pins, its pin and whether the checkout is at it.',
    input: {},
    annotations: READ_ONLY,
    run: async (_args, agent) => {
      const { entries, errors } = aliasesOf(agent.ctx).listReadable();
      const seen = new Set<string>();
      const rows = entries.map((e) => {
        const shadowed = seen.has(e.name);
        seen.add(e.name);
        return { ...e, shadowed };
      });
      // The same report as `refcat aliases --json`: git runs only for pinned aliases.
      const pins = await pinStates(rows, agent.ctx);
      const aliases = rows.map((r, i) => ({ name: r.name, target: r.target, source: r.source, origin: r.origin, shadowed: r.shadowed, ...(pins[i] ? { pin: pins[i] } : {}) }));
      const json = { version: 1, aliases, errors: errors.map((e) => ({ ref: null, code: e.code, message: e.message })) };
      return { text: JSON.stringify(json, null, 2) + '\n', isError: errors.length > 0, log: errors[0]?.message };
    },
  },
  SYMBOLS_TOOL,
];

function tool(name: string): ToolSpec {
  return TOOLS.find((t) => t.name === name)!;
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
    // Messages name this tool's arguments, not the CLI's flags.
    const names = Object.keys(tool.input);
    if (err instanceof FdError) return { text: fdErrorRenderers.xml(new FdError(err.type, err.fd, argumentWords(err.message, names), err.source)), isError: true };
    if (isRefcatError(err)) {
      const d = toDiagnostic(err);
      return { text: renderDiagnostic('Error', { ...d, message: argumentWords(d.message, names), details: d.details.map((x) => argumentWords(x, names)) }), isError: true };
    }
    return { text: `Error: internal error: ${(err as Error)?.message ?? String(err)}\n`, isError: true };
  }
}

