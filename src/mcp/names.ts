/**
 * The gate's names of MCP tools: `<server>__<tool>`, within every provider's tool-name grammar
 * (`^[a-zA-Z0-9_-]{1,64}$`, a letter first for Gemini), one per tool across all servers.
 * Internal.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { compareUtf8 } from '../canonical/index.ts';

/** The longest tool name every provider takes (OpenAI, Anthropic, Gemini: 64). */
export const MAX_TOOL_NAME = 64;

/** Between the server's name and the tool's: server names hold no `_`, so the first `__` splits a gate name. */
export const SEPARATOR = '__';

/** A server's name: a letter first (Gemini), then letters, digits and `-` (no `_`: see {@link SEPARATOR}), 1 to 24. */
export const SERVER_NAME = /^[a-zA-Z][a-zA-Z0-9-]{0,23}$/;

const TOOL_PART = /^[a-zA-Z0-9_-]+$/;

/** 8 hex digits of the SHA-256 of a tool's own name: what keeps a rewritten name apart from the others. */
function tag(name: string): string {
  return createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 8);
}

/** One server's tool names as the gate names them, or why a tool has none. */
export interface NamedTools {
  /** The server's tool name to the gate's name. */
  readonly names: ReadonlyMap<string, string>;
  /** The server's tool names left out, each with why. */
  readonly refused: readonly { readonly tool: string; readonly reason: string }[];
}

/**
 * The gate's names of one server's tools: `<server>__<tool>` when the tool's own name fits the
 * grammar and the length; otherwise its allowed characters (others as `_`), cut to fit, then `_`
 * and 8 hex digits of its own name's SHA-256. Deterministic for one list of tools (names that fit
 * are placed first, then the rewritten ones in UTF-8 order), so two processes name them alike. A
 * name the server lists twice, or a rewritten one that lands on a name already taken, is refused.
 *
 * @param server - The server's name (checked by the caller against {@link SERVER_NAME}).
 * @param tools - The server's tool names as it lists them.
 */
export function nameTools(server: string, tools: readonly string[]): NamedTools {
  const prefix = `${server}${SEPARATOR}`;
  const room = MAX_TOOL_NAME - prefix.length;
  const names = new Map<string, string>();
  const taken = new Set<string>();
  const refused: { tool: string; reason: string }[] = [];
  const seen = new Set<string>();
  const fitting: string[] = [];
  const rewritten: string[] = [];
  for (const tool of tools) {
    if (seen.has(tool)) {
      refused.push({ tool, reason: 'the server lists two tools with this name' });
      continue;
    }
    seen.add(tool);
    (TOOL_PART.test(tool) && tool.length <= room ? fitting : rewritten).push(tool);
  }
  for (const tool of fitting) {
    names.set(tool, `${prefix}${tool}`);
    taken.add(`${prefix}${tool}`);
  }
  for (const tool of rewritten.sort(compareUtf8)) {
    const safe = tool.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, room - 9);
    const name = `${prefix}${safe}_${tag(tool)}`;
    if (tool === '' || taken.has(name)) {
      refused.push({
        tool,
        reason: tool === '' ? 'a blank tool name' : `its rewritten name ${name} is another tool's name`,
      });
      continue;
    }
    names.set(tool, name);
    taken.add(name);
  }
  return { names, refused };
}
