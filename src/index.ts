/**
 * refcat as a library (docs/reference.md#library). The CLI is a thin layer over these functions.
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

export { parseRef } from './core/ref-spec/parse-ref-spec.js';
export { formatRef, formatSelector } from './core/ref-spec/format-ref-spec.js';
export type {
  RefSpec,
  Selector,
  RangeSelector,
  PatternSelector,
  PatternExtent,
  Window,
  SemanticUnit,
  SymbolSelector,
  LineSpan,
} from './core/ref-spec/ref-spec.js';

// Refs by name (docs/symbols.md). extract() reads symbol refs synchronously: await
// prepareSymbolRefs(refs) first, which loads the grammars they need.
export { prepareSymbolRefs, missingGrammars } from './core/symbols/prepare-symbol-refs.js';
export { configureSymbolEngine, loadGrammars, type EngineOptions } from './core/symbols/grammar-loader.js';
export { declarationsOfText, fileDeclarations, loadFileDeclarations } from './core/symbols/declaration-table.js';
export { resolveSymbol, symbolSpan } from './core/symbols/resolve-symbol.js';
export { SYMBOL_LANGUAGES, symbolLanguageOf, type SymbolLanguage } from './core/symbols/languages.js';
export type { Declaration, SymbolKind } from './core/symbols/declaration.js';
export { listSymbols, type ListedDeclaration, type SymbolFile, type SymbolListing, type ListSymbolsOptions } from './core/pipeline/list-symbols.js';

export {
  resolveAliases,
  AliasResolver,
  globalAliasFile,
  type AliasEntry,
  type AliasSource,
  type ExplicitAlias,
  type AliasResolverOptions,
} from './core/alias/resolve-aliases.js';

export {
  extract,
  extractSteps,
  extractFile,
  resolveFiles,
  type ExtractOptions,
  type ExtractReport,
  type ExtractStep,
  type Extraction,
  type ResolvedFile,
  type StreamOptions,
} from './core/extract/extract.js';
export type { ContentSpan } from './core/extract/content-span.js';
export { extractBatches, BatchRun, type RefBatch, type Logged } from './core/extract/extract-batches.js';
export { PatternBudget, DEFAULT_PATTERN_BUDGET_MS } from './core/regex/pattern-search.js';
export { workflowRefs } from './core/workflow/workflow-refs.js';
export { languageOf } from './core/extract/language.js';
export {
  renderers,
  renderMarkdownBlock,
  ExtractionWriter,
  type OutputChunk,
  DEFAULT_RENDER_OPTIONS,
  OUTPUT_FORMATS,
  type OutputFormat,
  type RenderOptions,
} from './core/output/render-extraction.js';

export { parseConv, type ParseConvOptions } from './core/workflow/parse-conv.js';
export { loadConv, type ConvReader, type LoadConvOptions } from './core/workflow/load-conv.js';
export { convRefs, splitRefs, type ConvRef } from './core/workflow/conv-refs.js';
export { KNOWN_DIRECTIVES } from './core/workflow/conv-directives.js';
export type { ConversationFile, ConvDirective, ConvBlock, ConvProblem, ConvSeverity } from './core/workflow/conv-types.js';
export { validateConv, validateWorkflows, type ValidateConvOptions, type ConvValidation } from './core/workflow/validate-conv.js';
export { verifyRefs, type VerifyRefsOptions, type VerifyRefsReport, type RefFinding } from './core/verify-refs/verify-refs.js';
export { findDocRefs, refsInLine, type DocRef, type LineRef, type ScanOptions } from './core/doc-refs/find-doc-refs.js';
export { paginate, type Page, type Pagination, type PaginateOptions } from './core/paging/paginate.js';
export { DEFAULT_PAGE_SIZE } from './core/paging/page-builder.js';
export { parseResponseRefs, type ResponseRef, type ResponseRefs } from './core/response-refs/parse-response-refs.js';
export { loadTokenizer, ENCODINGS, type Encoding, type Tokenizer } from './core/tokens/tokenizer.js';
export { budgetMarkdown, tokensJson, type BudgetOptions, type BudgetedMarkdown } from './core/tokens/token-budget.js';

export { detectDrift, type DetectDriftOptions } from './core/drift/detect-drift.js';
export type { DriftEntry, DriftNotFixed, DriftRefInput, DriftReport, DriftStatus, UnresolvedDriftRef } from './core/drift/drift-types.js';
export { fixDrift, fileStamp, type DriftFix } from './core/drift/fix-drift.js';
export { acceptDrift, ACCEPT_FILE, type DriftAcceptance } from './core/drift/accept-drift.js';
export { GitRunner, GitError } from './core/git/git-runner.js';
export { prepareVersions, PreparedVersions, type VersionPolicy, type FileVersion } from './core/versions/prepare-versions.js';
export { VersionReader, type VersionMode, type VersionTarget, type VersionedRead } from './core/versions/version-reader.js';
