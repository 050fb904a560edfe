#!/usr/bin/env node
// Runs examples/mcp/anthropic-loop.ts (Node 20 runs no TypeScript: bundled first, turngate
// resolved to this checkout's sources, the MCP SDK and zod left to node_modules) with its
// scripted model, and prints what happened: which calls each step held, what the MCP server did,
// in order, and what a replayed reply did.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// Inside node_modules, so the bundle's bare imports (the SDK, zod) resolve; removed at the end.
const dir = mkdtempSync(join(root, 'node_modules', '.turngate-example-mcp-'));
const outfile = join(dir, 'anthropic-loop.mjs');
await build({
  entryPoints: [join(root, 'examples', 'mcp', 'anthropic-loop.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['@modelcontextprotocol/sdk', 'zod', 'ajv'],
  alias: {
    'turngate/adapters/anthropic': join(root, 'src', 'adapters', 'anthropic', 'index.ts'),
    'turngate/mcp': join(root, 'src', 'mcp', 'index.ts'),
    turngate: join(root, 'src', 'index.ts'),
  },
  logLevel: 'warning',
});
const { runMcpLoop } = await import(pathToFileURL(outfile).href);
const { history, log, held, replayed } = await runMcpLoop().finally(() =>
  rmSync(dir, { recursive: true, force: true }),
);
console.log('calls answered "not run" per step:', JSON.stringify(held));
console.log('what the MCP server did, in order:', JSON.stringify(log));
console.log('the last tool-use reply handed in again:', JSON.stringify(replayed));
console.log('the model:', JSON.stringify(history.at(-1)?.content));
