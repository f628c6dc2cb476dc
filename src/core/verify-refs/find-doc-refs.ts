// The doc-ref scanner is doc-refs/find-doc-refs.ts; drift/fix-drift.ts still imports it by this
// path, which goes once drift names doc-refs itself.
export { refsInLine } from '../doc-refs/find-doc-refs.js';
