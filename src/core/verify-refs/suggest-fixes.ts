import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { isRefcatError } from '../../shared/errors.js';
import { displayRelative, findUp } from '../../shared/paths.js';
import type { AliasResolver } from '../alias/resolve-aliases.js';
import { parseRef } from '../ref-spec/parse-ref-spec.js';
import { hasGlobChars } from '../walk/glob.js';
import { walkFiles } from '../walk/collect-files.js';
import type { RefFinding } from './ref-finding.js';
import type { RunVersions } from '../versions/run-versions.js';

const MAX_SUGGESTIONS = 5;

/**
 * For every ref to a missing file: existing files with the same name below the alias root (alias
 * refs) or anywhere in the repository holding the current directory (the current directory outside
 * a repository), as refs with the original selector, closest path first (most trailing folders in
 * common, then shortest). A file below a scanned folder is written relative to it, any other
 * relative to the current directory: both are folders a doc's ref is looked up in.
 */
export function addSuggestions(findings: RefFinding[], aliases: AliasResolver, roots: string[], ctx: Context, trees?: ReadonlyMap<string, readonly string[]>): void {
  const indexes = new Map<string, Map<string, string[]>>();
  const indexOf = (root: string, shownFrom: (file: string) => string) => {
    const key = `${shownFrom === fromScanRoot ? 'scan' : 'alias'}\0${root}`;
    let index = indexes.get(key);
    if (!index) {
      index = new Map();
      for (const file of walkFiles(root, root, [], () => true)) {
        const name = path.basename(file);
        index.set(name, [...(index.get(name) ?? []), shownFrom(file)]);
      }
      indexes.set(key, index);
    }
    return index;
  };
  const scanRoots = [...new Set(roots)];
  const dotGit = findUp(ctx.cwd, '.git');
  const top = dotGit ? path.dirname(dotGit) : ctx.cwd;
  // A scanned folder outside that repository is searched too.
  const searched = [top, ...scanRoots.filter((r) => path.relative(top, r).startsWith('..') || path.isAbsolute(path.relative(top, r)))];
  const fromScanRoot = (file: string) => {
    const root = scanRoots.find((r) => file.startsWith(r.endsWith(path.sep) ? r : r + path.sep));
    return displayRelative(root ?? ctx.cwd, file);
  };
  for (const f of findings) {
    if (f.severity !== 'error' || (f.code !== 'not_found' && f.code !== 'context_no_match') || !f.ref) continue;
    // The ref as written may end in a heading anchor (`@docs/GUIDE.md#install`), not a selector.
    const hash = f.ref.indexOf('#');
    const spec = parseRef(hash === -1 ? f.ref : f.ref.slice(0, hash));
    if (hasGlobChars(spec.path)) continue;
    const selector = hash === -1 ? '' : f.ref.slice(hash);
    const wanted = spec.path.split('/');
    const name = wanted[wanted.length - 1]!;
    const target = spec.alias ? aliases.lookup(spec.alias)?.target : undefined;
    // A pinned alias's refs are judged at the pin: its files are the pinned tree's.
    const pinned = spec.alias ? trees?.get(spec.alias) : undefined;
    const inAlias = (t: string) => (pinned ? pinned.filter((p) => p.slice(p.lastIndexOf('/') + 1) === name) : (indexOf(t, (file) => displayRelative(t, file)).get(name) ?? []));
    const candidates = spec.alias ? (target ? inAlias(target) : []) : searched.flatMap((root) => indexOf(root, fromScanRoot).get(name) ?? []);
    const shared = (p: string) => {
      const parts = p.split('/');
      let n = 0;
      while (n < parts.length && n < wanted.length && parts[parts.length - 1 - n] === wanted[wanted.length - 1 - n]) n++;
      return n;
    };
    f.suggestions = [...new Set(candidates)]
      .sort((a, b) => shared(b) - shared(a) || a.length - b.length || (a < b ? -1 : 1))
      .slice(0, MAX_SUGGESTIONS)
      .map((p) => (spec.alias ? `${spec.alias}:${p}` : `@${p}`) + selector);
  }
}

/**
 * The files of each pinned alias that a broken ref names, at the pin (paths relative to its
 * folder), for the suggestions of its refs: one `ls-tree` per alias.
 */
export async function pinnedTrees(findings: readonly RefFinding[], aliases: AliasResolver, versions: RunVersions): Promise<Map<string, readonly string[]>> {
  const trees = new Map<string, readonly string[]>();
  for (const f of findings) {
    if (f.severity !== 'error' || f.code !== 'not_found' || !f.ref) continue;
    let alias: string | null | undefined;
    try {
      alias = parseRef(f.ref).alias;
    } catch (err) {
      if (!isRefcatError(err)) throw err;
      continue;
    }
    if (!alias || alias === '.' || trees.has(alias)) continue;
    const entry = aliases.lookup(alias);
    if (!entry) continue;
    const files = await versions.treeOf(entry);
    if (files) trees.set(alias, files);
  }
  return trees;
}
