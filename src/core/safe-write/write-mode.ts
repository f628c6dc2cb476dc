/** How a write meets an existing file; its own module so that the CLI's flag table loads nothing else. */
export type WriteMode = 'write' | 'append' | 'insert';
export const WRITE_MODES: readonly WriteMode[] = ['write', 'append', 'insert'];
