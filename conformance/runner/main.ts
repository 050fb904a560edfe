#!/usr/bin/env node
/**
 * `npm run conformance -- <suite-dir> [--reference <dir>]`: runs a conformance suite (premath
 * harness-typestate, harness-chat, or transcript cases) and
 * prints one line per vector and a closing `N passed, N failed` line; exit 1 on any failure, exit 2
 * on a malformed fixture (one line naming the file, the field and what was expected).
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { isChatSuite, runChatSuite } from './chat-suite.ts';
import { FixtureError, messageOf } from './fixtures.ts';
import { runPremathSuite, type VectorVerdict } from './premath-suite.ts';
import { isTranscriptSuite, runTranscriptSuite } from './transcripts-suite.ts';

async function main(): Promise<number> {
  let parsed: ReturnType<
    typeof parseArgs<{ options: { reference: { type: 'string' } }; allowPositionals: true; strict: true }>
  >;
  try {
    parsed = parseArgs({
      args: process.argv.slice(2),
      options: { reference: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    process.stderr.write(`conformance: ${messageOf(error)}\n`);
    return 2;
  }
  const [suiteDir, ...extra] = parsed.positionals;
  if (suiteDir === undefined || extra.length > 0) {
    process.stderr.write('usage: npm run conformance -- <suite-dir> [--reference <dir>]\n');
    return 2;
  }
  let verdicts: VectorVerdict[];
  try {
    if (existsSync(join(suiteDir, 'manifest.json'))) {
      verdicts = runPremathSuite(suiteDir, parsed.values.reference);
    } else if (isChatSuite(suiteDir)) {
      verdicts = await runChatSuite(suiteDir);
    } else if (isTranscriptSuite(suiteDir)) {
      verdicts = runTranscriptSuite(suiteDir);
    } else {
      process.stderr.write(
        `conformance: ${suiteDir} holds neither manifest.json (premath harness-typestate), *.yaml (harness-chat) nor <format>/*.json (transcripts)\n`,
      );
      return 2;
    }
  } catch (error) {
    if (!(error instanceof FixtureError)) throw error;
    process.stderr.write(`conformance: ${error.message}\n`);
    return 2;
  }
  let passed = 0;
  for (const verdict of verdicts) {
    if (verdict.passed) passed++;
    process.stdout.write(`${verdict.passed ? 'ok  ' : 'FAIL'} ${verdict.id}: ${verdict.note}\n`);
  }
  process.stdout.write(`${passed} passed, ${verdicts.length - passed} failed\n`);
  return passed === verdicts.length ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`conformance: ${messageOf(error)}\n`);
    process.exitCode = 2;
  },
);
