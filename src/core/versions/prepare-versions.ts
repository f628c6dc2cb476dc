import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { type Diagnostic, isRefcatError, RefError, type RefcatError } from '../../shared/errors.js';
import { expandHome } from '../../shared/paths.js';
import type { AliasResolver } from '../alias/resolve-aliases.js';
import { repoFinder } from '../git/repository.js';
import { parseRef } from '../ref-spec/parse-ref-spec.js';
import type { RefSpec } from '../ref-spec/ref-spec.js';
import { quotedRevision } from '../ref-spec/revision-syntax.js';
import { hasGlobChars } from '../walk/glob.js';
import { compileGlob } from '../walk/glob-match.js';
import { type VersionMode, VersionReader, type VersionTarget } from './version-reader.js';

/** How a run reads versions: `--worktree`/`--pinned` (mode) and `--at REV`. */
export interface VersionPolicy {
  mode?: VersionMode;
  at?: string;
  /** A server's reads (refcat mcp): a revision is read only when a branch or tag reaches it. */
  reachableOnly?: boolean;
}

/** The version a resolved file is read at. */
export interface FileVersion {
  /** The full sha of the content; null: the checkout, at no version. */
  commit: string | null;
  /** The content; null: read the file on disk. */
  bytes: Buffer | null;
  /** The ref named its revision (`alias@REV:`, `.@REV:`, `--at`): a printed spec keeps it. */
  revision: boolean;
}

/** One ref's files at its version, as extraction takes them (resolve-files.ts). */
export interface VersionedFiles {
  /** The folder the files' paths are shown relative to (the alias's, or the repository's for `.`). */
  base: string;
  files: { abs: string; version: FileVersion }[];
  glob: boolean;
}

/** The refs of a run that name a version, read before the synchronous extraction takes them. */
export class PreparedVersions {
  private readonly refs = new Map<string, { value: VersionedFiles | RefcatError | null; warnings: Diagnostic[] }>();
  private readonly pending: Diagnostic[] = [];
  /** Git processes started to prepare them (tests, the bench). */
  spawned = 0;

  constructor(readonly policy: VersionPolicy) {}

  /** The ref's versioned files, null to read it as usual; throws the RefError its read gave. */
  filesOf(spec: RefSpec, folder: string): VersionedFiles | null {
    const entry = this.refs.get(keyOf(spec, folder));
    if (entry === undefined) {
      if (spec.rev !== undefined || (this.policy.at !== undefined && !spec.alias)) {
        throw new RefError('unsupported', `A revision is read only where the refs are prepared for it (prepareVersions): ${spec.raw}`, spec.raw);
      }
      return null;
    }
    // Its warnings go with the first ref that asks (each alias warns once a run).
    this.pending.push(...entry.warnings.splice(0));
    if (entry.value instanceof Error) throw entry.value;
    return entry.value;
  }

  /** The warnings of the refs asked for since the last call (each alias's once a run). */
  takeWarnings(): Diagnostic[] {
    return this.pending.splice(0);
  }

  /** Whether the ref was read already (ExtractOptions.versions's key: the ref and its folder). */
  has(spec: RefSpec, folder: string): boolean {
    return this.refs.has(keyOf(spec, folder));
  }

  /** @internal */
  set(spec: RefSpec, folder: string, value: VersionedFiles | RefcatError | null, warnings: Diagnostic[]): void {
    const key = keyOf(spec, folder);
    if (this.refs.has(key)) return;
    this.refs.set(key, { value, warnings: warnings.map((w) => ({ ...w, ref: spec.raw })) });
  }
}

/**
 * The folder a ref's key holds: its alias's target, or for a ref without one the base folder.
 * Extraction asks with the same folder it resolved.
 */
function keyOf(spec: RefSpec, folder: string): string {
  return `${spec.raw}\0${folder}`;
}

/**
 * Read, before a synchronous extraction, every ref of `batches` that names a version: a pinned
 * alias (outside `--worktree`), `alias@REV:`, `.@REV:`, and with `--at` every ref without an
 * alias. Null when none does: no git process is started, and extraction reads the disk.
 */
export async function prepareVersions(
  batches: readonly { inputs: readonly string[]; aliases?: AliasResolver; searchDirs?: string[] }[],
  ctx: Context,
  options: { aliases: AliasResolver; base?: string; policy?: VersionPolicy; run?: { reader: VersionReader; prepared: PreparedVersions } },
): Promise<PreparedVersions | null> {
  const policy = options.policy ?? {};
  const base = options.base ?? ctx.cwd;
  const findRepo = repoFinder();
  // A run that checks ref by ref (verify refs) prepares into one set, through one reader.
  let prepared: PreparedVersions | null = options.run?.prepared ?? null;
  let reader: VersionReader | null = options.run?.reader ?? null;
  try {
    for (const batch of batches) {
      const aliases = batch.aliases ?? options.aliases;
      // A workflow's refs are relative to its own folder first (as extraction looks them up).
      const from = batch.searchDirs?.[0] ?? base;
      for (const input of batch.inputs) {
        let spec: RefSpec;
        let target: VersionTarget | null;
        let folder: string;
        let relPath: string;
        try {
          spec = parseRef(input);
        } catch (err) {
          if (!isRefcatError(err)) throw err;
          continue; // extraction reports it
        }
        try {
          ({ target, folder, relPath } = targetOf(spec, aliases, from, policy, findRepo, ctx));
        } catch (err) {
          if (!isRefcatError(err)) throw err;
          // `.` outside a repository is the ref's error; an alias's (unknown, a bad file) extraction reports.
          if (spec.alias === '.' || (!spec.alias && policy.at !== undefined)) (prepared ??= new PreparedVersions(policy)).set(spec, from, err, []);
          continue;
        }
        if (!target || prepared?.has(spec, folder)) continue;
        prepared ??= new PreparedVersions(policy);
        reader ??= new VersionReader(ctx, { mode: policy.mode, reachableOnly: policy.reachableOnly });
        if (!reader.versioned(target)) continue;
        const warnings: Diagnostic[] = [];
        try {
          prepared.set(spec, folder, await readRef(reader, spec, target, relPath, warnings), warnings);
        } catch (err) {
          if (!isRefcatError(err)) throw err;
          prepared.set(spec, folder, err, warnings);
        }
      }
    }
  } finally {
    if (prepared && reader) prepared.spawned = reader.spawned;
    if (!options.run) reader?.close();
  }
  return prepared;
}

/** What a ref reads at a version, and the folder its key holds; target null: the disk, as usual. */
function targetOf(
  spec: RefSpec,
  aliases: AliasResolver,
  base: string,
  policy: VersionPolicy,
  findRepo: (dir: string) => string | null,
  ctx: Context,
): { target: VersionTarget | null; folder: string; relPath: string } {
  if (spec.alias === '.' || (!spec.alias && policy.at !== undefined)) {
    const root = findRepo(base);
    if (root === null) {
      const naming = spec.alias === '.' ? spec.raw : `--at ${quotedRevision(policy.at!)}`;
      throw new RefError('not_a_repository', `${base} is in no git repository: ${naming} names a revision`, spec.raw);
    }
    const rev = spec.rev ?? policy.at!;
    const target: VersionTarget = { root, alias: '.', rev, ref: spec.raw };
    if (spec.alias === '.') return { target, folder: base, relPath: spec.path };
    // `--at`: the path is relative to the base folder, as for any ref without an alias.
    return { target, folder: base, relPath: path.relative(root, path.resolve(base, expandHome(spec.path, ctx.home))) };
  }
  const none = { target: null, folder: base, relPath: spec.path };
  if (!spec.alias) return none;
  const entry = aliases.lookup(spec.alias);
  if (!entry) return none;
  const folder = entry.target;
  if (spec.rev !== undefined) return { target: { root: folder, alias: spec.alias, rev: spec.rev, ref: spec.raw }, folder, relPath: spec.path };
  if (entry.pin === undefined) return { ...none, folder };
  return { target: { root: folder, alias: spec.alias, pin: entry.pin, lockfile: entry.origin, ref: spec.raw }, folder, relPath: spec.path };
}

/** The ref's files at the target's version: one file, or a glob's matches in the version's tree. */
async function readRef(reader: VersionReader, spec: RefSpec, target: VersionTarget, relPath: string, warnings: Diagnostic[]): Promise<VersionedFiles | null> {
  if (!hasGlobChars(relPath)) {
    const read = await reader.read(target, relPath);
    warnings.push(...read.warnings);
    if (read.commit === null) return null;
    return { base: target.root, files: [{ abs: path.resolve(target.root, relPath), version: read }], glob: false };
  }
  const listed = await reader.list(target);
  warnings.push(...listed.warnings);
  if (!listed.tree) return null;
  const pattern = path.posix.normalize(relPath.split(path.sep).join('/')).replace(/^\.\//, '');
  const match = compileGlob(pattern, { dot: false, windows: false }).test;
  const names = listed.tree.files.filter(match).sort();
  if (names.length === 0) throw new RefError('glob_no_match', `Glob matched no files: ${spec.raw}`, spec.raw, [`Nothing in commit ${listed.tree.commit.slice(0, 7)} matches`]);
  const files: VersionedFiles['files'] = [];
  for (const name of names) {
    const read = await reader.read({ ...target, ref: spec.raw }, name);
    warnings.push(...read.warnings);
    files.push({ abs: path.resolve(target.root, name), version: read });
  }
  return { base: target.root, files, glob: true };
}
