/**
 * turngate/mcp over the SDK's real transports: a server process over stdio (test/fixtures/mcp-shop.mjs),
 * Streamable HTTP on loopback, and two processes sharing a SQLite store's effect ledger (needs dist/:
 * `node scripts/bundle.mjs`).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { MemoryEffectLedger } from 'turngate';
import { toolLoop } from 'turngate/adapters/anthropic';
import { mcpTools } from 'turngate/mcp';
import { describe, expect, it } from 'vitest';
import { shopServer } from '../fixtures/mcp-shop.mjs';
import { HISTORY, reply } from './helpers.ts';

const shop = new URL('../fixtures/mcp-shop.mjs', import.meta.url).pathname;
const ledgerProcess = new URL('../fixtures/mcp-ledger.mjs', import.meta.url).pathname;

function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : [];
}

async function stdioClient(effects: string): Promise<Client> {
  const client = new Client({ name: 'turngate-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [shop, effects] }));
  return client;
}

describe('over stdio (a server process)', () => {
  it('runs a read and a refund in one turn, the refund once the turn is closed and once', async () => {
    const effects = join(mkdtempSync(join(tmpdir(), 'turngate-mcp-')), 'effects.txt');
    const client = await stdioClient(effects);
    try {
      const mcp = await mcpTools([{ name: 'shop', client, reads: ['get_order'] }]);
      const loop = toolLoop({ ...mcp, ledger: new MemoryEffectLedger(), sessionId: 'stdio-1' });
      const model = reply('msg_1', [
        ['toolu_1', 'shop__get_order', { id: 'A-1' }],
        ['toolu_2', 'shop__refund', { id: 'A-1', amount: 12 }],
      ]);
      const step = await loop.answer(HISTORY, model);
      expect(step.results.map((r) => (r.status === 'ok' ? r.output : r.error.errorCode))).toEqual([
        'order A-1: 2 books',
        'refunded 12 on A-1',
      ]);
      const again = await loop.answer(HISTORY, model);
      expect(again.mutations.map((m) => m.outcome)).toEqual(['replayed']);
      expect(lines(effects)).toEqual(['refund A-1 12']);
    } finally {
      await client.close();
    }
  });

  it('a server process that exits mid-call: the charge is outcome unknown and not sent again', async () => {
    const effects = join(mkdtempSync(join(tmpdir(), 'turngate-mcp-')), 'effects.txt');
    const client = await stdioClient(effects);
    const mcp = await mcpTools([{ name: 'shop', client }]);
    const loop = toolLoop({ ...mcp, ledger: new MemoryEffectLedger(), sessionId: 'stdio-2' });
    const model = reply('msg_2', [['toolu_1', 'shop__slow_charge', { id: 'A-1' }]]);
    const step = await loop.answer(HISTORY, model);
    expect(step.results[0]).toMatchObject({ status: 'error', error: { errorCode: 'effect_outcome_unknown' } });
    const again = await loop.answer(HISTORY, model);
    expect(again.mutations.map((m) => m.outcome)).toEqual(['replayed']);
    expect(lines(effects)).toEqual(['charge A-1']);
  });
});

describe('over Streamable HTTP on loopback', () => {
  it('runs a read and a refund in one turn; a failing read keeps the refund from running', async () => {
    const effects: string[] = [];
    const server = shopServer((line) => effects.push(line));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID });
    await server.connect(transport);
    const http = createServer((req, res) => void transport.handleRequest(req, res));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    const client = new Client({ name: 'turngate-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    try {
      const mcp = await mcpTools([{ name: 'shop', client, trusted: true }]);
      const loop = toolLoop(mcp);
      const step = await loop.answer(
        HISTORY,
        reply('msg_3', [
          ['toolu_1', 'shop__find_orders', { customer: 'ada' }],
          ['toolu_2', 'shop__refund', { id: 'ada-1', amount: 3 }],
        ]),
      );
      expect(step.results.map((r) => (r.status === 'ok' ? r.output : r.error.errorCode))).toEqual([
        { orders: ['ada-1', 'ada-2'] },
        'refunded 3 on ada-1',
      ]);
      // Another loop (this one recorded the first reply for this history: it would answer it again).
      const failed = await toolLoop(mcp).answer(
        HISTORY,
        reply('msg_4', [
          ['toolu_1', 'shop__broken_read', {}],
          ['toolu_2', 'shop__refund', { id: 'ada-2', amount: 3 }],
        ]),
      );
      expect(failed.results.map((r) => (r.status === 'ok' ? r.output : r.error.errorCode))).toEqual([
        'mcp_tool_error',
        'mutation_not_admitted',
      ]);
      expect(effects).toEqual(['refund ada-1 3']);
    } finally {
      await client.close();
      await transport.close();
      await new Promise((resolve) => http.close(resolve));
    }
  });
});

describe('two processes sharing a SQLite store ledger', () => {
  it('the same reply answered in two processes at once refunds once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turngate-mcp-'));
    const db = join(dir, 'chat.db');
    const effects = join(dir, 'effects.txt');
    const run = () => promisify(execFile)(process.execPath, [ledgerProcess, db, effects], { encoding: 'utf8' });
    const outs = (await Promise.all([run(), run()])).map((r) => JSON.parse(r.stdout));
    expect(lines(effects)).toEqual(['refund A-1 12']);
    // One process performed it; the other replayed it, found it running (outcome unknown) or found the turn in progress.
    expect(outs.filter((o) => o.mutations?.[0] === 'performed').length).toBe(1);
    for (const out of outs) {
      if (out.error !== undefined) expect(out.error).toBe('turn_in_progress');
      else expect(['performed', 'replayed']).toContain(out.mutations[0]);
    }
    // A third process afterwards answers from the ledger.
    const third = JSON.parse((await run()).stdout);
    expect(third.mutations).toEqual(['replayed']);
    expect(third.results).toEqual(['order A-1: 2 books', 'refunded 12 on A-1']);
    expect(lines(effects)).toEqual(['refund A-1 12']);
  });
});
