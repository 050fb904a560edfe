#!/usr/bin/env python3
"""Writes conformance/harness-typestate/: turngate's own join-check vectors (premath's format).

Expected results follow HARNESS-TYPESTATE and premath's rules as the vector names state them;
expected digests are computed here, in Python (json + hashlib), independently of the
TypeScript implementation under test. Run: python3 scripts/make-typestate-vectors.py
(scripts/make-extended-vectors.py imports its helpers for the extended-profile suite.)
"""
import copy, hashlib, json, os, shutil

ROOT = os.path.join(os.path.dirname(__file__), '..', 'conformance', 'harness-typestate')
POL = {'render': 'pol.render.v2', 'queue': 'pol.queue.v1', 'view': 'pol.view.v1'}


def sha(text):
    return 'sha256:' + hashlib.sha256(text.encode('utf-8')).hexdigest()


def canon(value):
    """Canonical JSON for values without floats (Python and serde agree on these)."""
    return json.dumps(value, sort_keys=True, separators=(',', ':'), ensure_ascii=False)


def spec(mode='code', pattern='parallel'):
    return {'callId': 'turn-001', 'modelRef': 'model.test/2026-10', 'actionMode': mode,
            'executionPattern': pattern, 'normalizerId': 'nf.turngate.v1',
            'mutationPolicyDigest': 'pol.mutation.v1', 'governancePolicyDigest': 'pol.gov.v1',
            'toolRenderProtocolDigest': POL['render'], 'reminderQueuePolicyDigest': POL['queue'],
            'stateViewPolicyDigest': POL['view'], 'decompositionPolicyDigest': 'pol.decomp.v1'}


def render(ids, policy=None):
    return [{'toolCallId': i, 'operatorPayloadDigest': 'sha256:op-' + i, 'reminderRenderDigest': 'sha256:rem-' + i,
             'injectionPoint': 'tool_response', 'policyDigest': policy or POL['render']} for i in ids]


def turn(ids=('c1', 'c2'), results=None, uses=None, **extra):
    """A closed code-mode turn over `ids` with full context evidence; override any part."""
    ev = {'callSpec': spec(),
          'toolRequests': [{'toolCallId': i, 'toolName': 'tool.' + i} for i in ids],
          'toolResults': results if results is not None else [{'toolCallId': i, 'status': 'ok', 'resultDigest': 'sha256:r-' + i} for i in ids],
          'toolUse': uses if uses is not None else [{'toolCallId': i, 'disposition': 'consumed'} for i in ids],
          'protocolState': {'stopReason': 'tool_use', 'continuationAllowed': True},
          'toolRender': render(ids),
          'reminderQueue': [{'queueId': 'q/main', 'reducedDigest': 'sha256:q', 'policyDigest': POL['queue']}],
          'stateViews': [{'viewId': 'v/main', 'viewDigest': 'sha256:v', 'policyDigest': POL['view']}]}
    ev.update(extra)
    return ev


VECTORS = []


def vector(vid, evidence, result, classes=(), normalized=None, invalid_field=None, raw_case=None, checks=(), **blocks):
    inp = {'evidence': evidence}
    inp.update(blocks)
    expect = {'schema': 1, 'result': result, 'expectedFailureClasses': sorted(classes),
              'expectedJoinClosed': result == 'accepted'}
    if checks:
        # The classes whose checks an accepted vector passes through (read by a coverage test).
        expect['checkedClasses'] = sorted(checks)
    if normalized is not None:
        expect['expectedNormalized'] = normalized
    if invalid_field is not None:
        expect['expectedInvalidField'] = invalid_field
    VECTORS.append((vid, inp, expect, raw_case))


JOIN = ['tool.join_incomplete']
JOIN_ALL = JOIN + ['tool.result_missing', 'tool.result_orphan', 'tool.use_missing', 'tool.use_without_result']
CONTEXT = ['context.injection_point_missing', 'context.queue_policy_violation']

# --- accepted turns -------------------------------------------------------------------------
vector('accept/code_parallel_three_tools', turn(('a', 'b', 'c')), 'accepted', checks=JOIN_ALL + CONTEXT + ['protocol.stop_reason_unhandled'])
quiet = turn(('j1',), uses=[{'toolCallId': 'j1', 'disposition': 'observed'}])
quiet['callSpec'] = spec('json', 'single')
quiet['protocolState'] = {'stopReason': 'end_turn', 'continuationAllowed': False}
for k in ('toolRender', 'reminderQueue', 'stateViews'):
    del quiet[k]
vector('accept/json_single_call_no_continuation_needs_no_context', quiet, 'accepted', checks=JOIN_ALL + CONTEXT)
vector('accept/no_tool_calls_end_turn', {'callSpec': spec('text', 'single'), 'protocolState': {'stopReason': 'end_turn'}}, 'accepted')
vector('accept/error_row_with_flat_envelope', turn(('e1',), results=[
    {'toolCallId': 'e1', 'status': 'error', 'errorCode': 'timeout', 'retryable': True, 'errorMessage': 'upstream took 5 s'}],
    uses=[{'toolCallId': 'e1', 'disposition': 'observed'}]), 'accepted', checks=['tool.schema_invalid'],
    normalized={'toolResults': [{'toolCallId': 'e1', 'status': 'error', 'error': {'errorCode': 'timeout', 'retryable': True, 'errorMessageDigest': sha('upstream took 5 s')}}]})
vector('accept/error_row_envelope_in_raw_error_code_message', turn(('e1',), results=[
    {'toolCallId': 'e1', 'rawError': {'code': 'rate_limited', 'retryable': True, 'message': ' slow down '}}],
    uses=[{'toolCallId': 'e1', 'disposition': 'observed'}]), 'accepted',
    normalized={'toolResults': [{'toolCallId': 'e1', 'status': 'error', 'error': {'errorCode': 'rate_limited', 'retryable': True, 'errorMessageDigest': sha('slow down')}}]})
vector('accept/error_row_envelope_in_raw_error_long_keys', turn(('e1',), results=[
    {'toolCallId': 'e1', 'status': 'error', 'rawError': {'errorCode': 'EACCES', 'retryable': False, 'errorMessage': 'permission denied'}}],
    uses=[{'toolCallId': 'e1', 'disposition': 'discarded'}]), 'accepted')
vector('accept/governance_claimed_pinned_matching', turn(), 'accepted',
       checks=['governance.claim_id_invalid', 'governance.policy_package_unpinned', 'governance.policy_package_mismatch'], governanceProfile={
    'claimId': 'profile.doctrine_inf_governance.v0', 'claimed': True,
    'policyProvenance': {'pinned': True, 'packageRef': 'pkg/gov@3', 'expectedDigest': 'sha256:g', 'boundDigest': ' sha256:g '}})
vector('accept/governance_unclaimed_without_provenance', turn(), 'accepted', governanceProfile={'claimed': False})
vector('accept/handoff_meets_every_constraint', turn(handoff={
    'target': ' worker.docs ', 'requiredArtifactRefs': ['artifact://b', 'artifact://a', 'artifact://a'], 'returnPathRef': 'handoff://back'}), 'accepted',
    checks=['handoff.required_artifact_missing', 'handoff.target_not_allowed', 'handoff.return_path_missing'],
    handoffConstraints={'requiredArtifactRefs': ['artifact://a', ' artifact://b ', ''], 'allowedTargets': ['worker.docs'], 'requireReturnPath': True},
    normalized={'handoff': {'target': 'worker.docs', 'requiredArtifactRefs': ['artifact://a', 'artifact://b'], 'returnPathRef': 'handoff://back'}})
pat = turn()
pat['callSpec'] = dict(spec(), executionPattern='Parallel')
vector('accept/decomposition_expected_pattern_compared_lowercased', pat, 'accepted', checks=['coordination.decomposition_policy_violation'],
       decompositionConstraints={'admissible': True, 'expectedExecutionPattern': ' PARALLEL ', 'expectedPolicyDigest': 'pol.decomp.v1'})
vector('accept/stop_reason_lowercased_before_check', turn(protocolState={'stopReason': 'MAX_TOKENS', 'continuationAllowed': True}), 'accepted',
       normalized={'protocolState': {'stopReason': 'max_tokens', 'continuationAllowed': True}})
vector('accept/stop_reason_pause_turn', turn(protocolState={'stopReason': 'pause_turn', 'continuationAllowed': True}), 'accepted')
vector('accept/seed001_dispositions', turn(('d1', 'd2', 'd3'), uses=[
    {'toolCallId': 'd1', 'disposition': 'observed_only'},
    {'toolCallId': 'd2', 'disposition': 'discarded_with_reason', 'reasonCode': ' stale_result '},
    {'toolCallId': 'd3', 'disposition': 'retry_scheduled'}]), 'accepted',
    normalized={'toolUse': [{'toolCallId': 'd1', 'disposition': 'observed_only'},
                            {'toolCallId': 'd2', 'disposition': 'discarded_with_reason', 'reasonCode': 'stale_result'},
                            {'toolCallId': 'd3', 'disposition': 'retry_scheduled'}]})
vector('accept/truncation_required_and_valid', turn(), 'accepted', checks=['tool.response_truncation_policy_violation'],
       truncationConstraints={'required': True, 'valid': True})
vector('accept/constraint_blocks_null_mean_absent', turn(), 'accepted', governanceProfile=None, protocolConstraints=None,
       handoffConstraints=None, truncationConstraints=None, decompositionConstraints=None)

# --- rejected turns: the join ---------------------------------------------------------------
ev = turn(('a', 'b', 'c'))
ev['toolResults'] = [r for r in ev['toolResults'] if r['toolCallId'] != 'b']
ev['toolUse'] = [u for u in ev['toolUse'] if u['toolCallId'] != 'b']
vector('reject/result_missing_one_of_three', ev, 'rejected', JOIN + ['tool.result_missing'],
       normalized={'joinState': {'missingResultCallIds': ['b'], 'joinClosed': False}})
ev = turn(('a',))
ev['toolResults'].append({'toolCallId': 'ghost', 'status': 'ok'})
ev['toolUse'].append({'toolCallId': 'ghost', 'disposition': 'observed'})
ev['toolRender'] = render(['a', 'ghost'])
vector('reject/result_orphan', ev, 'rejected', JOIN + ['tool.result_orphan'], normalized={'joinState': {'orphanResultCallIds': ['ghost']}})
vector('reject/use_missing', turn(('a', 'b'), uses=[{'toolCallId': 'a', 'disposition': 'consumed'}]), 'rejected',
       JOIN + ['tool.use_missing'], normalized={'joinState': {'missingUseCallIds': ['b']}})
vector('reject/use_without_result', turn(('a',), uses=[{'toolCallId': 'a', 'disposition': 'consumed'}, {'toolCallId': 'z', 'disposition': 'consumed'}]),
       'rejected', JOIN + ['tool.use_without_result'], normalized={'joinState': {'unknownUseCallIds': ['z']}})
ev = turn(('a', 'b', 'c'))
ev['toolResults'] = [{'toolCallId': 'a', 'status': 'ok'}, {'toolCallId': 'b', 'status': 'ok'}, {'toolCallId': 'x', 'status': 'ok'}]
ev['toolUse'] = [{'toolCallId': 'a', 'disposition': 'observed'}, {'toolCallId': 'y', 'disposition': 'observed'}]
ev['toolRender'] = render(['a', 'b', 'x'])
vector('reject/all_four_join_faults', ev, 'rejected', JOIN + ['tool.result_missing', 'tool.result_orphan', 'tool.use_missing', 'tool.use_without_result'],
       normalized={'joinState': {'missingResultCallIds': ['c'], 'orphanResultCallIds': ['x'], 'missingUseCallIds': ['b', 'x'], 'unknownUseCallIds': ['y']}})
ev = turn(('a',))
ev['toolResults'] = []
ev['toolUse'] = []
vector('reject/dangling_tool_call_the_provider_400', ev, 'rejected', JOIN + ['tool.result_missing'])

# --- rejected turns: protocol, decomposition, truncation ------------------------------------
vector('reject/stop_reason_refusal_unhandled', turn(protocolState={'stopReason': 'refusal', 'continuationAllowed': True}), 'rejected', ['protocol.stop_reason_unhandled'])
vector('reject/stop_reason_stop_sequence_unhandled', turn(protocolState={'stopReason': 'stop_sequence'}), 'rejected', ['protocol.stop_reason_unhandled'])
vector('reject/parallel_transport_order_invalid', turn(), 'rejected', ['protocol.parallel_transport_order_invalid'],
       protocolConstraints={'parallelTransportOrderValid': False})
vector('reject/decomposition_marked_inadmissible', turn(), 'rejected', ['coordination.decomposition_policy_violation'],
       decompositionConstraints={'admissible': False, 'expectedExecutionPattern': 'parallel'})
vector('reject/decomposition_pattern_mismatch', turn(), 'rejected', ['coordination.decomposition_policy_violation'],
       decompositionConstraints={'expectedExecutionPattern': 'chain'})
vector('reject/decomposition_policy_digest_mismatch', turn(), 'rejected', ['coordination.decomposition_policy_violation'],
       decompositionConstraints={'expectedPolicyDigest': 'pol.decomp.v2'})
vector('reject/truncation_required_but_invalid', turn(), 'rejected', ['tool.response_truncation_policy_violation'],
       truncationConstraints={'required': True})

# --- rejected turns: context reconstruction -------------------------------------------------
ev = turn(('a', 'b'))
ev['toolRender'] = render(['a'])
vector('reject/context_render_row_missing', ev, 'rejected', ['context.injection_point_missing'],
       normalized={'contextState': {'missingRenderCallIds': ['b'], 'continuationContextReady': False}})
ev = turn()
del ev['stateViews']
vector('reject/context_no_state_view', ev, 'rejected', ['context.injection_point_missing'])
ev = turn()
del ev['reminderQueue']
vector('reject/context_no_queue_reduction', ev, 'rejected', ['context.queue_policy_violation'])
ev = turn(('a',))
ev['toolRender'] = render(['a'], policy='pol.render.v1')
vector('reject/context_render_policy_digest_mismatch', ev, 'rejected', ['context.queue_policy_violation'],
       normalized={'contextState': {'renderPolicyValid': False}})
ev = turn(('a',), protocolState={'stopReason': 'end_turn', 'continuationAllowed': False})
del ev['toolRender'], ev['reminderQueue'], ev['stateViews']
vector('reject/context_consumed_result_needs_context', ev, 'rejected', ['context.injection_point_missing', 'context.queue_policy_violation'],
       normalized={'contextState': {'continuationContextReady': True}})

# --- rejected turns: handoff ----------------------------------------------------------------
hand = {'target': 'worker.qa', 'requiredArtifactRefs': ['artifact://plan'], 'returnPathRef': 'handoff://back'}
vector('reject/handoff_required_artifact_missing', turn(handoff=hand), 'rejected', ['handoff.required_artifact_missing'],
       handoffConstraints={'requiredArtifactRefs': ['artifact://plan', 'artifact://tests']})
vector('reject/handoff_constraints_without_packet', turn(), 'rejected',
       ['handoff.required_artifact_missing', 'handoff.return_path_missing', 'handoff.target_not_allowed'],
       handoffConstraints={'requiredArtifactRefs': ['artifact://plan'], 'allowedTargets': ['worker.qa'], 'requireReturnPath': True})
vector('reject/handoff_target_not_allowed', turn(handoff=hand), 'rejected', ['handoff.target_not_allowed'],
       handoffConstraints={'allowedTargets': ['worker.frontend', ' ']})
vector('reject/handoff_return_path_blank', turn(handoff=dict(hand, returnPathRef='  ')), 'rejected', ['handoff.return_path_missing'],
       handoffConstraints={'requireReturnPath': True})

# --- rejected turns: error envelopes --------------------------------------------------------
vector('reject/error_row_without_retryable', turn(('e1',), results=[
    {'toolCallId': 'e1', 'status': 'error', 'errorCode': 'boom', 'errorMessage': 'it broke'}],
    uses=[{'toolCallId': 'e1', 'disposition': 'observed'}]), 'rejected', ['tool.schema_invalid'],
    normalized={'toolResults': [{'error': {'errorCode': 'boom', 'retryable': False, 'errorMessageDigest': sha('it broke')}}]})
vector('reject/opaque_raw_error_counts_as_error_row', turn(('e1',), results=[
    {'toolCallId': 'e1', 'rawError': {'detail': 'opaque'}}],
    uses=[{'toolCallId': 'e1', 'disposition': 'observed'}]), 'rejected', ['tool.schema_invalid'],
    normalized={'toolResults': [{'toolCallId': 'e1', 'status': 'ok'}]})
vector('reject/uppercase_error_status_without_envelope', turn(('e1',), results=[{'toolCallId': 'e1', 'status': ' ERROR '}],
    uses=[{'toolCallId': 'e1', 'disposition': 'observed'}]), 'rejected', ['tool.schema_invalid'],
    normalized={'toolResults': [{'toolCallId': 'e1', 'status': 'error', 'error': {'errorCode': 'unknown_error', 'retryable': False, 'errorMessageDigest': sha('')}}]})
vector('normalize/raw_error_code_not_a_string_falls_back_only_in_the_check', turn(('e1',), results=[
    {'toolCallId': 'e1', 'rawError': {'errorCode': 503, 'code': 'unavailable', 'retryable': True, 'message': 'try later'}}],
    uses=[{'toolCallId': 'e1', 'disposition': 'observed'}]), 'accepted',
    normalized={'toolResults': [{'status': 'error', 'error': {'errorCode': 'unknown_error', 'retryable': True, 'errorMessageDigest': sha('try later')}}]})

# --- rejected turns: governance -------------------------------------------------------------
vector('reject/governance_claim_id_wrong', turn(), 'rejected', ['governance.claim_id_invalid'],
       governanceProfile={'claimId': 'profile.other.v9', 'claimed': True})
vector('reject/governance_package_ref_blank', turn(), 'rejected', ['governance.policy_package_unpinned'],
       governanceProfile={'claimed': True, 'policyProvenance': {'pinned': True, 'packageRef': ' ', 'expectedDigest': 'a', 'boundDigest': 'a'}})
vector('reject/governance_claimed_without_provenance', turn(), 'rejected', ['governance.policy_package_unpinned'],
       governanceProfile={'claimId': 'profile.doctrine_inf_governance.v0', 'claimed': True})
vector('reject/governance_bound_digest_differs', turn(), 'rejected', ['governance.policy_package_mismatch'],
       governanceProfile={'claimed': True, 'policyProvenance': {'pinned': True, 'packageRef': 'p', 'expectedDigest': 'sha256:a', 'boundDigest': 'sha256:b'}})

# --- normalization rules --------------------------------------------------------------------
ev = turn(('a',))
ev['toolRequests'] = [{'toolCallId': '\u3000a\u0085', 'toolName': ' tool.a\t'}]
ev['toolResults'] = [{'toolCallId': '\ufeffb', 'status': 'ok'}]
ev['toolUse'] = [{'toolCallId': ' \ufeffb ', 'disposition': 'observed'}]
ev['toolRender'] = render(['\ufeffb'])
vector('normalize/trim_unicode_white_space_not_bom', ev, 'rejected', JOIN + ['tool.result_missing', 'tool.result_orphan'],
       normalized={'toolRequests': [{'toolCallId': 'a', 'toolName': 'tool.a'}],
                   'joinState': {'missingResultCallIds': ['a'], 'orphanResultCallIds': ['\ufeffb']}})
ev = turn(('a',), results=[{'toolCallId': 'a', 'status': 'OK'}], uses=[{'toolCallId': 'a', 'disposition': 'CONSUMED'}])
ev['callSpec'] = dict(spec(), actionMode='CODE', executionPattern='Orchestrator_Workers', modelRef='Model.Test')
ev['toolRender'][0]['injectionPoint'] = 'TOOL_RESPONSE'
vector('normalize/lowercase_enum_fields_only', ev, 'accepted',
       normalized={'callSpec': {'actionMode': 'code', 'executionPattern': 'orchestrator_workers', 'modelRef': 'Model.Test'},
                   'toolResults': [{'status': 'ok'}], 'toolUse': [{'disposition': 'consumed'}],
                   'toolRender': [{'injectionPoint': 'tool_response'}]})
ev = turn(('a', 'b'))
ev['toolRequests'] = ev['toolRequests'] + [{'toolCallId': ' a ', 'toolName': 'tool.a'}]
req_rows = [{'toolCallId': 'a', 'toolName': 'tool.a'}, {'toolCallId': 'b', 'toolName': 'tool.b'}]
vector('normalize/identical_duplicates_collapse', ev, 'accepted',
       normalized={'toolRequests': req_rows, 'digests': {'requestSetDigest': sha(canon(req_rows))}})
ev = turn(('b', 'a', 'c'))
for k in ('toolRequests', 'toolResults', 'toolUse', 'toolRender'):
    ev[k] = list(reversed(ev[k]))
rows3 = [{'toolCallId': i, 'toolName': 'tool.' + i} for i in ('a', 'b', 'c')]
use3 = [{'toolCallId': i, 'disposition': 'consumed'} for i in ('a', 'b', 'c')]
vector('normalize/row_order_does_not_change_digests', ev, 'accepted',
       normalized={'digests': {'requestSetDigest': sha(canon(rows3)), 'useSetDigest': sha(canon(use3))},
                   'joinState': {'requestedCallIds': ['a', 'b', 'c']}})
big = {'seed': 9007199254740993, 'max': 18446744073709551615, 'min': -9223372036854775808}
vector('normalize/payload_digest_keeps_integers_beyond_2_53', turn(('a',), results=[{'toolCallId': 'a', 'payload': big}]), 'accepted',
       normalized={'toolResults': [{'toolCallId': 'a', 'status': 'ok', 'resultDigest': sha(canon(big))}]})
# serde_json writes these f64 values as: 1.0 100.0 0.00001 1e-7 1e+16 1.8446744073709552e+19 -0.0 0.1
FLOATS_TEXT = '[1.0,1E2,0.00001,1e-7,1e16,18446744073709551616,-0,0.1]'
FLOATS_CANON = '[1.0,100.0,0.00001,1e-7,1e+16,1.8446744073709552e+19,-0.0,0.1]'
vector('normalize/payload_digest_writes_floats_as_serde', turn(('a',), results=[{'toolCallId': 'a', 'payload': '@FLOATS@'}]), 'accepted',
       normalized={'toolResults': [{'resultDigest': sha(FLOATS_CANON)}]})
vector('normalize/payload_null_means_no_digest', turn(('a',), results=[{'toolCallId': 'a', 'payload': None}]), 'accepted',
       normalized={'toolResults': [{'toolCallId': 'a', 'status': 'ok'}]})
vector('normalize/given_result_digest_wins_over_payload', turn(('a',), results=[{'toolCallId': 'a', 'resultDigest': ' sha256:given ', 'payload': {'x': 1}}]),
       'accepted', normalized={'toolResults': [{'resultDigest': 'sha256:given'}]})
vector('normalize/blank_result_digest_falls_back_to_payload', turn(('a',), results=[{'toolCallId': 'a', 'resultDigest': '  ', 'payload': {'x': 1}}]),
       'accepted', normalized={'toolResults': [{'resultDigest': sha('{"x":1}')}]})
vector('normalize/refs_trimmed_deduplicated_sorted', turn(sessionRefs=['s://b', ' s://a ', 's://b', '\u3000'], trajectoryRefs=['t://1']), 'accepted',
       normalized={'sessionRefs': ['s://a', 's://b'], 'trajectoryRefs': ['t://1']})
proto = {'__proto__': {'polluted': True}, 'constructor': 'c', 'toString': 1}
vector('normalize/proto_keys_are_ordinary_payload_keys', turn(('a',), results=[{'toolCallId': 'a', 'payload': proto}]), 'accepted',
       normalized={'toolResults': [{'resultDigest': sha(canon(proto))}]})
vector('normalize/payload_repeated_key_keeps_last', turn(('a',), results=[{'toolCallId': 'a', 'payload': '@DUPKEY@'}]), 'accepted',
       normalized={'toolResults': [{'resultDigest': sha('{"k":2}')}]})
astral = {'\U0001F600': 1, '\uff21': 2, 'z': 3}
vector('normalize/payload_keys_sorted_by_utf8_bytes', turn(('a',), results=[{'toolCallId': 'a', 'payload': astral}]), 'accepted',
       normalized={'toolResults': [{'resultDigest': sha('{"z":3,"\uff21":2,"\U0001F600":1}')}]})
vector('normalize/unknown_fields_ignored', dict(turn(('a',)), vendorExtension={'x': 1}), 'accepted')
vector('normalize/struct_written_as_positional_array', turn(('a',), protocolState=['tool_use', True]), 'accepted',
       normalized={'protocolState': {'stopReason': 'tool_use', 'continuationAllowed': True}})

# --- input the check must refuse --------------------------------------------------------------
ev = turn(('a',))
ev['toolRequests'].append({'toolCallId': 'a', 'toolName': 'tool.other'})
vector('invalid/conflicting_duplicate_request', ev, 'invalid', invalid_field='evidence.toolRequests')
vector('invalid/blank_call_id', dict(turn(), callSpec=dict(spec(), callId=' \u3000 ')), 'invalid', invalid_field='evidence.callSpec.callId')
vector('invalid/unknown_disposition', turn(('a',), uses=[{'toolCallId': 'a', 'disposition': 'used'}]), 'invalid', invalid_field='evidence.toolUse[0].disposition')
vector('invalid/unknown_status', turn(('a',), results=[{'toolCallId': 'a', 'status': 'failed'}]), 'invalid', invalid_field='evidence.toolResults[0].status')
vector('invalid/null_list', dict(turn(), toolRequests=None), 'invalid', invalid_field='evidence.toolRequests')
vector('invalid/repeated_field_in_row', turn(('a',)), 'invalid', invalid_field='evidence.toolRequests[0].toolName', raw_case='@DUPFIELD@')
vector('invalid/discarded_with_reason_needs_reason_code', turn(('a',), uses=[{'toolCallId': 'a', 'disposition': 'discarded_with_reason'}]),
       'invalid', invalid_field='evidence.toolUse[0].reasonCode')
ev = turn()
del ev['protocolState']
vector('invalid/missing_protocol_state', ev, 'invalid', invalid_field='evidence.protocolState')
vector('invalid/retryable_not_a_boolean', turn(('a',), results=[{'toolCallId': 'a', 'status': 'error', 'retryable': 'yes'}]),
       'invalid', invalid_field='evidence.toolResults[0].retryable')


def write(root=ROOT, suite='turngate-harness-typestate', vectors=VECTORS):
    if os.path.isdir(root):
        shutil.rmtree(root)
    ids = []
    for vid, inp, expect, raw in vectors:
        folder = os.path.join(root, vid)
        os.makedirs(folder)
        case = {'schema': 1, 'suiteId': suite, 'vectorId': vid, 'input': inp}
        text = json.dumps(case, indent=2, ensure_ascii=False) + '\n'
        text = text.replace('"@FLOATS@"', FLOATS_TEXT).replace('"@DUPKEY@"', '{"k": 1, "k": 2}')
        if raw == '@DUPFIELD@':
            text = text.replace('"toolName": "tool.a"', '"toolName": "tool.a", "toolName": "tool.b"', 1)
        with open(os.path.join(folder, 'case.json'), 'w', encoding='utf-8') as f:
            f.write(text)
        with open(os.path.join(folder, 'expect.json'), 'w', encoding='utf-8') as f:
            f.write(json.dumps(expect, indent=2, ensure_ascii=False) + '\n')
        ids.append(vid)
    manifest = {'schema': 1, 'suiteId': suite, 'vectors': ids}
    with open(os.path.join(root, 'manifest.json'), 'w') as f:
        f.write(json.dumps(manifest, indent=2) + '\n')
    print(len(ids), 'vectors written to', os.path.normpath(root))


if __name__ == '__main__':
    write()
