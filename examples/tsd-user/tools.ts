/**
 * The user's agent: its tools, and a scripted turn its tests pin down. Only the public API of
 * the installed `turngate` package is used.
 */
import * as v from 'valibot';
import { defineTools, turn, type CallSpec } from 'turngate';

/** The agent's tools; a class, so type errors name it `Tools`. */
export class Tools extends defineTools({
  read_file: { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) },
  update_issue: {
    input: v.object({ id: v.string(), status: v.picklist(['open', 'closed']) }),
    output: v.object({ ok: v.boolean() }),
    mutation: true,
  },
}) {}

/** A scripted turn: the model reads a file, then asks to close an issue. */
export function triageTurn(spec: CallSpec<'code'>) {
  return turn(spec, Tools)
    .request('toolu_01', 'read_file', { path: 'CHANGELOG.md' })
    .request('toolu_02', 'update_issue', { id: 'BILL-7', status: 'closed' })
    .result('toolu_01', { status: 'ok', output: { text: '## 0.2.0' } })
    .result('toolu_02', { status: 'pending' })
    .use('toolu_01', 'consumed', { evidence: { summaryRef: 'summary://triage' } });
}
