import { expectType } from 'tsd';
import type { CallSpec, JoinClosed, MutationToolName, Result } from 'turngate';
import type { IsJoinClosed, OpenCalls, ToolOutputOf, ToolResultOf } from 'turngate/types';
import { type Tools, triageTurn } from '../tools.js';

declare const spec: CallSpec<'code'>;
const triage = triageTurn(spec);

// The scripted turn leaves exactly the pending call without a disposition.
expectType<'toolu_02'>({} as OpenCalls<typeof triage>);
expectType<false>({} as IsJoinClosed<typeof triage>);
// @ts-expect-error -- JoinIncomplete: toolu_02 has no disposition yet
triage.close();

// Disposing of it closes the join; close returns a Result of the closed turn.
const closed = triage.use('toolu_02', 'retry_scheduled', { reasonCode: 'mutation_pending' });
expectType<never>({} as OpenCalls<typeof closed>);
expectType<Result<JoinClosed<Tools>>>(closed.close());

// The agent's tool types, as its code sees them.
expectType<'update_issue'>({} as MutationToolName<Tools>);
expectType<{ ok: boolean }>({} as ToolOutputOf<typeof Tools, 'update_issue'>);
expectType<'ok' | 'error'>(({} as ToolResultOf<typeof Tools, 'read_file'>).status);
// @ts-expect-error -- tool.result_orphan: toolu_09 was never requested
triage.result('toolu_09', { status: 'ok', output: { text: '' } });
