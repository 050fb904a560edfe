/**
 * The transcripts layer's internals that other layers use (the adapters), reached here rather
 * than through the files that hold them. Not part of the public API.
 *
 * @module
 */
export { runCheck } from './check.ts';
export { checkExtendable } from './extend.ts';
export { runRepair } from './repair.ts';
// One writer of a tool result per format (what repair and conversion write; the adapters' answers).
export { toolResult as aisdkToolResult } from './aisdk/convert.ts';
export { toolResult as anthropicToolResult } from './anthropic/convert.ts';
export { toolResult as geminiToolResult } from './gemini/convert.ts';
export { toolResult as openAIChatToolResult } from './openai-chat/convert.ts';
export { toolResult as responsesToolResult } from './openai-responses/convert.ts';
// Where each format that takes the system prompt outside its messages takes it (the CLI names it).
export { SYSTEM_FIELDS } from './convert-system.ts';
