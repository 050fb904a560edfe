// Types of scripts/cross-format.mjs, for the test that imports it.

export declare const FORMATS: readonly string[];

export interface ReadableCase {
  id: string;
  format: string;
  expect: 'sendable' | 'received';
  input: unknown;
  source: 'accepted' | 'rejected';
}

export interface CrossFormatRow {
  id: string;
  from: string;
  as: string;
  own: 'accepted' | 'rejected';
  result: 'accepted' | 'rejected' | 'invalid';
  plain: boolean;
  message: string | undefined;
}

export interface CrossFormatCount {
  checks: number;
  accepted: number;
  rejected: number;
  invalid: number;
}

export declare function hasToolStructure(value: unknown): boolean;
export declare function readableCases(dir?: string): ReadableCase[];
export declare function crossFormat(
  checkTranscriptJson: typeof import('../src/transcripts/index.ts').checkTranscriptJson,
  cases?: readonly ReadableCase[],
): CrossFormatRow[];
export declare function summarize(rows: readonly CrossFormatRow[]): {
  all: CrossFormatCount;
  withToolStructure: CrossFormatCount;
  plain: CrossFormatCount;
  ownRejected: CrossFormatCount;
  byPair: Record<string, CrossFormatCount>;
};
