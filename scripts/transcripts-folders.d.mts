// Types of scripts/transcripts-folders.mjs, for the tests that import it.

export declare const HUB_FACE: 'chat/index.ts';
export declare function transcriptsFolderViolation(
  from: string,
  to: string,
): { kind: 'core-to-format' | 'to-root' | 'between-formats'; message: string } | undefined;
