/**
 * The tools every adapter example uses: one definition each (valibot schemas, a description,
 * `mutation: true` for the one with a side effect), and one handler each.
 */
import * as v from 'valibot';
import { defineTools } from 'turngate';
import type { MutationWitness } from 'turngate/types';

/** The registry: a read tool and a mutating tool. */
export class Tools extends defineTools({
  get_weather: {
    description: 'The weather now in a city.',
    input: v.object({ city: v.string() }),
    output: v.object({ city: v.string(), sky: v.string(), celsius: v.number() }),
  },
  send_email: {
    description: 'Sends an email.',
    input: v.object({ to: v.pipe(v.string(), v.email()), subject: v.string(), body: v.string() }),
    output: v.object({ messageId: v.string() }),
    mutation: true,
  },
}) {}

/** The emails sent, in order (what the mutating handler did). */
export interface Outbox {
  readonly sent: { readonly to: string; readonly subject: string; readonly joinSetDigest: string }[];
}

/**
 * One handler per tool: the read tool answers at once, the mutating one records the email it
 * sends (it runs only through the gate, under the witness of a closed turn).
 */
export function handlers(outbox: Outbox) {
  return {
    get_weather: async ({ city }: { city: string }) => ({ city, sky: 'snow', celsius: -3 }),
    send_email: async ({ to, subject }: { to: string; subject: string }, witness: MutationWitness) => {
      outbox.sent.push({ to, subject, joinSetDigest: witness.joinSetDigest });
      return { messageId: `msg-${outbox.sent.length}` };
    },
  };
}
