// Types of scripts/doc-claims.mjs, for the tests that import it.

export declare const CLAIM_HOOK: '__turngateDocClaim';

export type ParsedClaim =
  | { kind: 'literal'; source: string; value: unknown; remark?: string }
  | { kind: 'descriptive'; source: string; reason: string };

export interface Claim {
  id: number;
  line: number;
  expression: string;
  claim: ParsedClaim;
  status: 'checked' | 'descriptive';
  reason?: string;
}

export interface ClaimResult {
  claim: Claim;
  holds: boolean;
  actual: string;
}

export declare function parseClaim(text: string): ParsedClaim;
export declare function rewriteExample(code: string): { code: string; claims: Claim[] };
export declare function examplesOf(text: string): Generator<{ line: number; bodyLine: number; code: string }>;
export declare function markdownDocs(root: string): string[];
export declare function markdownExamplesOf(text: string): Generator<{ line: number; bodyLine: number; code: string }>;
export declare function markdownExamples(
  root: string,
): Generator<{ file: string; line: number; bodyLine: number; code: string }>;
export declare function runClaims(
  checked: readonly Claim[],
  load: () => Promise<unknown>,
  timeoutMs?: number,
): Promise<ClaimResult[]>;
