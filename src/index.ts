/**
 * refcat as a library (SPEC 8). The CLI is a thin layer over these functions.
 * Every function takes an explicit Context ({ cwd, env, home }) instead of reading the process.
 */
export type { Context, ProcessInfo } from './shared/context.js';
export {
  RefcatError,
  UsageError,
  RefParseError,
  ConfigError,
  RefError,
  FdError,
  type Diagnostic,
  type Finding,
  type ExitCode,
} from './shared/errors.js';

export { parseRef } from './core/spec/parse.js';
export { formatRef, formatSelector } from './core/spec/format.js';
export type {
  RefSpec,
  Selector,
  RangeSelector,
  PatternSelector,
  PatternExtent,
  Window,
  SemanticUnit,
  LineSpan,
} from './core/spec/types.js';

export {
  resolveAliases,
  AliasResolver,
  globalAliasFile,
  type AliasEntry,
  type AliasSource,
  type ExplicitAlias,
  type AliasResolverOptions,
} from './core/alias/resolve.js';

export {
  extract,
  extractFile,
  resolveFiles,
  type ExtractOptions,
  type ExtractReport,
  type Extraction,
  type ResolvedFile,
} from './core/extract/extract.js';
export { languageOf } from './core/language.js';
export {
  renderers,
  renderMarkdownBlock,
  DEFAULT_RENDER_OPTIONS,
  OUTPUT_FORMATS,
  type OutputFormat,
  type RenderOptions,
} from './core/output/render.js';

export { parseConv, type ParseConvOptions } from './core/conv/parse.js';
export { loadConv, type ConvReader, type LoadConvOptions } from './core/conv/load.js';
export { convRefs, splitRefs, type ConvRef } from './core/conv/refs.js';
export { KNOWN_DIRECTIVES } from './core/conv/directives.js';
export type { ConversationFile, ConvDirective, ConvBlock, ConvProblem, ConvSeverity } from './core/conv/types.js';
export { validateConv, type ValidateConvOptions, type ConvValidation } from './core/conv/validate.js';
export { verifyRefs, type VerifyRefsOptions, type VerifyRefsReport, type RefFinding } from './core/verify/verify.js';
export { findDocRefs, type DocRef, type ScanOptions } from './core/verify/scan.js';
export { paginate, type Page, type Pagination, type PaginateOptions } from './core/fd/paginate.js';
export { DEFAULT_PAGE_SIZE } from './core/fd/pager.js';
export { parseResponseRefs, type ResponseRef, type ResponseRefs } from './core/refs/parse.js';
