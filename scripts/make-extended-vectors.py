#!/usr/bin/env python3
"""Writes conformance/harness-typestate-extended/: join-check vectors for the extended profile
(premath's suite format, every input with "profile": "turngate.harness.extended.v1").

Vectors are grouped by the design notes' implementation slices (§8, 4-18) plus the tool policy
and use rows of §4.2-4.4. Accept vectors list the classes whose checks they pass through in
`checkedClasses` (the runner ignores it; a unit test reads it for coverage). Expected digests
are computed here, in Python (json + hashlib), independently of the TypeScript under test; the
policy normalizations below restate the rules of the extended profile's documentation.
Run: python3 scripts/make-extended-vectors.py
"""
import copy, importlib.util, os

_spec = importlib.util.spec_from_file_location('typestate_vectors', os.path.join(os.path.dirname(__file__), 'make-typestate-vectors.py'))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)

ROOT = os.path.join(os.path.dirname(__file__), '..', 'conformance', 'harness-typestate-extended')
SUITE = 'turngate-harness-typestate-extended'
PROFILE = 'turngate.harness.extended.v1'
STAGES = ['pre_flight', 'input', 'output']


def digest(value):
    # Canonical JSON as base.canon writes it; the only floats used below are ratios such as 0.9,
    # which Python and serde write alike.
    return base.sha(base.canon(value))


def refs(values):
    """A refs list: trimmed, blanks dropped, deduplicated, sorted (code point order = UTF-8 byte order)."""
    return sorted({v.strip() for v in values if v.strip()})


def number(x):
    """A ratio as the extended profile writes it in digests: whole values without a fraction."""
    return int(x) if float(x).is_integer() else x


def put_list(out, key, values):
    if values:
        out[key] = values
    return out


# --- digests of the inline policies -------------------------------------------------------------
def catalog_digest(tools):
    return digest([{'toolName': t['toolName'], 'schemaDigest': t['schemaDigest']} for t in sorted(tools, key=lambda t: t['toolName'])])


def defer_digest(tools):
    return digest(sorted(t['toolName'] for t in tools if t.get('deferLoading')))


def example_digest(tools):
    return digest([{'toolName': t['toolName'], 'exampleDigest': t['exampleDigest']}
                   for t in sorted(tools, key=lambda t: t['toolName']) if t.get('exampleDigest')])


def callers_digest(tools):
    out = []
    for t in sorted(tools, key=lambda t: t['toolName']):
        out.append(put_list({'toolName': t['toolName']}, 'allowedCallers', refs(t.get('allowedCallers', ['direct']))))
    return digest(out)


def result_set_digest(names):
    return digest(refs(names))


def search_ref_digest(query, result_set):
    return digest({'query': query.strip(), 'resultSetDigest': result_set})


def guardrail_policy_digest(policy):
    required = [s.strip().lower() for s in policy.get('requiredStages', []) if s.strip()]
    return digest({'requiredStages': [s for s in STAGES if not required or s in required]})


def eval_policy_digest(p):
    return digest({'minPrecision': number(p['minPrecision']), 'minRecall': number(p['minRecall']),
                   'minF1': number(p['minF1']), 'minLabeledExamples': p.get('minLabeledExamples', 1)})


def redteam_policy_digest(p):
    out = {'minProbes': p['minProbes'], 'maxSuccessfulAttacks': p.get('maxSuccessfulAttacks', 0)}
    put_list(out, 'requiredPlugins', refs(p.get('requiredPlugins', [])))
    put_list(out, 'requiredStrategies', refs(p.get('requiredStrategies', [])))
    return digest(out)


def compaction_policy_digest(p):
    return digest(put_list({}, 'requiredItemKinds', refs(p.get('requiredItemKinds', []))))


def scope_digest(p):
    out = {}
    if p.get('role'):
        out['role'] = p['role'].strip().lower()
    put_list(out, 'readRefs', refs(p.get('readRefs', [])))
    put_list(out, 'writeRefs', refs(p.get('writeRefs', [])))
    return digest(out)


def contract_digest(p):
    out = {'requireReturnPath': p.get('requireReturnPath', False)}
    for key in ('allowedTargets', 'requiredArtifactRefs', 'returnArtifactRefs'):
        put_list(out, key, refs(p.get(key, [])))
    put_list(out, 'allowedRoles', refs([r.lower() for r in p.get('allowedRoles', [])]))
    return digest(out)


# --- turns ----------------------------------------------------------------------------------------
def schema_of(name):
    return 'sha256:schema-' + name


def tool(name, **extra):
    entry = {'toolName': name, 'schemaDigest': schema_of(name)}
    entry.update(extra)
    return entry


def call(cid, name, **extra):
    row = {'toolCallId': cid, 'toolName': name, 'schemaDigest': schema_of(name)}
    row.update(extra)
    return row


def xturn(calls, mode='code', pattern='parallel', results=None, uses=None, **callspec):
    """A closed turn over `calls` (request rows) with full context evidence; extended CallSpec fields in `callspec`."""
    ids = [c['toolCallId'] for c in calls]
    ev = base.turn(tuple(ids))
    ev['callSpec'] = dict(base.spec(mode, pattern), **callspec)
    ev['toolRequests'] = calls
    if results is not None:
        ev['toolResults'] = results
    if uses is not None:
        ev['toolUse'] = uses
    return ev


def policy_turn(names=('tool.a', 'tool.b'), tools=None, **callspec):
    """A turn calling each tool of `names` once (ids c1, c2, ...) under a toolPolicy over `tools` (default: `names`)."""
    tools = tools if tools is not None else [tool(n) for n in names]
    calls = [call('c%d' % (i + 1), n) for i, n in enumerate(names)]
    return xturn(calls, toolPolicy={'tools': tools}, **callspec)


VECTORS = []


def vector(vid, evidence, result, classes=(), checks=(), extended=None, invalid_field=None, profile=PROFILE, **blocks):
    inp = {'profile': profile, 'evidence': evidence}
    inp.update(blocks)
    expect = {'schema': 1, 'result': result, 'expectedFailureClasses': sorted(set(classes)),
              'expectedJoinClosed': result == 'accepted'}
    if checks:
        expect['checkedClasses'] = sorted(set(checks))
    if extended is not None:
        expect['expectedExtended'] = extended
    if invalid_field is not None:
        expect['expectedInvalidField'] = invalid_field
    VECTORS.append((vid, inp, expect, None))


def accept(vid, evidence, checks, extended=None, **blocks):
    vector(vid, evidence, 'accepted', (), checks, extended, **blocks)


def reject(vid, evidence, classes, extended=None, **blocks):
    vector(vid, evidence, 'rejected', classes, (), extended, **blocks)


def invalid(vid, evidence, field, **blocks):
    vector(vid, evidence, 'invalid', invalid_field=field, **blocks)


JOIN = ['tool.join_incomplete']

# === the profile itself ==========================================================================
accept('profile/accept_no_extended_policy_is_premath_verdict', base.turn(('a', 'b')), [])
vector('profile/accept_profile_null_is_premath', base.turn(('a',)), 'accepted', profile=None,
       extended=None)
invalid('profile/invalid_unknown_profile', base.turn(('a',)), 'profile', profile='turngate.harness.extended.v0')
invalid('profile/invalid_extended_field_wrong_type', dict(base.turn(('a',)), toolSearches={'searchId': 's'}), 'evidence.toolSearches')

# === §4.2 tool policy: allow-list, schema digests, tool choice ===================================
accept('tool-policy/accept_allow_list_and_schema_digests', policy_turn(toolCatalogDigest=catalog_digest([tool('tool.a'), tool('tool.b')])),
       ['tool.unknown_or_disallowed', 'tool.schema_invalid'],
       extended={'normalized': {'digests': {'toolCatalogDigest': catalog_digest([tool('tool.a'), tool('tool.b')]),
                                            'deferPolicyDigest': digest([]), 'toolExampleDigest': digest([]),
                                            'allowedCallersDigest': callers_digest([tool('tool.a'), tool('tool.b')])}}})
reject('tool-policy/reject_tool_outside_allow_list', policy_turn(('tool.a', 'tool.shell'), tools=[tool('tool.a')]),
       ['tool.unknown_or_disallowed'])
ev = policy_turn()
ev['toolRequests'][1]['schemaDigest'] = 'sha256:schema-tool.b-v0'
reject('tool-policy/reject_request_validated_against_another_schema', ev, ['tool.schema_invalid'])
ev = policy_turn()
del ev['toolRequests'][0]['schemaDigest']
reject('tool-policy/reject_request_without_schema_digest', ev, ['tool.schema_invalid'])
accept('tool-policy/accept_specific_tool_choice', policy_turn(('tool.a',), toolChoice={'mode': 'Specific', 'toolName': 'tool.a'}),
       ['tool.unknown_or_disallowed'], extended={'normalized': {'callSpec': {'toolChoice': {'mode': 'specific', 'toolName': 'tool.a'}}}})
reject('tool-policy/reject_specific_tool_choice_other_tool_called', policy_turn(toolChoice={'mode': 'specific', 'toolName': 'tool.a'}),
       ['tool.unknown_or_disallowed'])
invalid('tool-policy/invalid_specific_tool_choice_without_name', policy_turn(toolChoice={'mode': 'specific'}),
        'evidence.callSpec.toolChoice.toolName')
invalid('tool-policy/invalid_tool_choice_mode', policy_turn(toolChoice={'mode': 'required'}), 'evidence.callSpec.toolChoice.mode')

# === slice 4: mode-specific closure (text mode through an adapter) ===============================
text = xturn([call('t1', 'tool.a', adapterProfileRef='adapter://react-v2')], mode='text', pattern='single')
accept('s04-mode-closure/accept_text_mode_call_from_adapter_profile', text, ['tool.schema_invalid'])
text = xturn([call('t1', 'tool.a')], mode='text', pattern='single')
reject('s04-mode-closure/reject_text_mode_call_from_free_text', text, ['tool.schema_invalid'])

# === slice 5: discovery ==========================================================================
CATALOG = [tool('tool.a'), tool('tool.db.query', deferLoading=True), tool('tool.db.migrate', deferLoading=True)]
RESULTS = ['tool.db.query', 'tool.db.migrate']


def discovery_turn(search=None, request_extra=None, **callspec):
    rsd = result_set_digest(RESULTS)
    s = {'searchId': 'search-1', 'query': 'database read', 'catalogDigest': catalog_digest(CATALOG),
         'resultToolNames': list(RESULTS), 'resultSetDigest': rsd}
    s.update(search or {})
    req = {'searchId': 'search-1', 'searchRefDigest': search_ref_digest('database read', rsd)}
    req.update(request_extra or {})
    calls = [call('c1', 'tool.a'), call('c2', 'tool.db.query', **{k: v for k, v in req.items() if v is not None})]
    spec = {'toolPolicy': {'tools': CATALOG}, 'toolCatalogDigest': catalog_digest(CATALOG), 'deferPolicyDigest': defer_digest(CATALOG)}
    spec.update(callspec)
    ev = xturn(calls, **spec)
    ev['toolSearches'] = [s]
    return ev


accept('s05-discovery/accept_deferred_tool_found_by_search_bound_to_catalog', discovery_turn(),
       ['tool.discovery_mismatch', 'tool.discovery_unresolved'],
       extended={'normalized': {'toolSearches': [{'searchId': 'search-1', 'searchRefDigest': search_ref_digest('database read', result_set_digest(RESULTS))}],
                                'digests': {'toolCatalogDigest': catalog_digest(CATALOG), 'deferPolicyDigest': defer_digest(CATALOG)}}})
accept('s05-discovery/accept_search_named_by_search_ref_digest_only', discovery_turn(request_extra={'searchId': None}),
       ['tool.discovery_mismatch', 'tool.discovery_unresolved'])
reject('s05-discovery/reject_search_ran_over_another_catalog', discovery_turn(search={'catalogDigest': catalog_digest(CATALOG[:2])}),
       ['tool.discovery_mismatch'])
reject('s05-discovery/reject_result_set_digest_not_of_results', discovery_turn(search={'resultSetDigest': result_set_digest(['tool.db.query'])}),
       ['tool.discovery_mismatch'])
reject('s05-discovery/reject_discovered_tool_not_in_results',
       discovery_turn(search={'resultToolNames': ['tool.db.migrate'], 'resultSetDigest': result_set_digest(['tool.db.migrate'])},
                      request_extra={'searchRefDigest': None}), ['tool.discovery_mismatch'])
reject('s05-discovery/reject_search_ref_digest_of_another_query',
       discovery_turn(request_extra={'searchRefDigest': search_ref_digest('database write', result_set_digest(RESULTS))}),
       ['tool.discovery_mismatch'])
reject('s05-discovery/reject_catalog_digest_not_of_tool_policy', discovery_turn(toolCatalogDigest=catalog_digest(CATALOG[:1])),
       ['tool.discovery_mismatch'])
reject('s05-discovery/reject_defer_policy_digest_not_of_tool_policy', discovery_turn(deferPolicyDigest=defer_digest([])),
       ['tool.discovery_mismatch'])
ev = discovery_turn(request_extra={'searchId': None, 'searchRefDigest': None})
del ev['toolSearches']
reject('s05-discovery/reject_deferred_tool_called_without_search', ev, ['tool.discovery_unresolved'])
reject('s05-discovery/reject_request_names_unknown_search', discovery_turn(request_extra={'searchId': 'search-9', 'searchRefDigest': None}),
       ['tool.discovery_unresolved'])
names = RESULTS + ['tool.db.drop']
reject('s05-discovery/reject_search_returned_tool_outside_catalog',
       discovery_turn(search={'resultToolNames': names, 'resultSetDigest': result_set_digest(names)}, request_extra={'searchRefDigest': None}),
       ['tool.discovery_unresolved'])

# === §4.1 usage examples =========================================================================
EXAMPLED = [tool('tool.a', exampleDigest='sha256:examples-a-v3'), tool('tool.b')]
accept('tool-examples/accept_example_digests_bound',
       xturn([call('c1', 'tool.a', exampleDigest='sha256:examples-a-v3'), call('c2', 'tool.b')],
             toolPolicy={'tools': EXAMPLED}, toolExampleDigest=example_digest(EXAMPLED)),
       ['tool.example_digest_mismatch'], extended={'normalized': {'digests': {'toolExampleDigest': example_digest(EXAMPLED)}}})
reject('tool-examples/reject_example_digest_not_of_tool_policy',
       xturn([call('c1', 'tool.a'), call('c2', 'tool.b')], toolPolicy={'tools': EXAMPLED},
             toolExampleDigest=example_digest([tool('tool.a', exampleDigest='sha256:examples-a-v2')])),
       ['tool.example_digest_mismatch'])
reject('tool-examples/reject_request_shown_stale_examples',
       xturn([call('c1', 'tool.a', exampleDigest='sha256:examples-a-v2'), call('c2', 'tool.b')], toolPolicy={'tools': EXAMPLED}),
       ['tool.example_digest_mismatch'])
reject('tool-examples/reject_example_digest_without_tool_policy', xturn([call('c1', 'tool.a')], toolExampleDigest='sha256:e'),
       ['tool.example_digest_mismatch'])

# === slice 6: caller edges =======================================================================
CALLERS = [tool('code_execution'), tool('tool.db.query', allowedCallers=['code_execution']), tool('tool.a', allowedCallers=['direct', 'code_execution'])]


def caller_turn(edges=None, tools=CALLERS, **callspec):
    calls = [call('x1', 'code_execution'),
             call('c1', 'tool.db.query', callerId='code_execution', parentToolCallId='x1'),
             call('c2', 'tool.a')]
    for cid, fields in (edges or {}).items():
        row = next(c for c in calls if c['toolCallId'] == cid)
        for k, v in fields.items():
            if v is None:
                row.pop(k, None)
            else:
                row[k] = v
    return xturn(calls, toolPolicy={'tools': tools}, **callspec)


accept('s06-caller-edges/accept_programmatic_call_with_valid_edge', caller_turn(allowedCallersDigest=callers_digest(CALLERS)),
       ['tool.caller_not_allowed', 'tool.programmatic_caller_edge_invalid'],
       extended={'normalized': {'toolRequests': [{'toolCallId': 'c1', 'parentToolCallId': 'x1'}],
                                'digests': {'allowedCallersDigest': callers_digest(CALLERS)}}})
reject('s06-caller-edges/reject_direct_call_of_code_only_tool', caller_turn({'c1': {'callerId': None, 'parentToolCallId': None}}),
       ['tool.caller_not_allowed'])
reject('s06-caller-edges/reject_code_call_of_direct_only_tool', caller_turn({'c2': {'callerId': 'code_execution', 'parentToolCallId': 'x1'}},
       tools=[tool('code_execution'), tool('tool.db.query', allowedCallers=['code_execution']), tool('tool.a')]), ['tool.caller_not_allowed'])
reject('s06-caller-edges/reject_allowed_callers_digest_not_of_policy',
       caller_turn(allowedCallersDigest=callers_digest([tool('code_execution'), tool('tool.db.query'), tool('tool.a')])),
       ['tool.caller_not_allowed'])
reject('s06-caller-edges/reject_code_call_without_parent', caller_turn({'c1': {'parentToolCallId': None}}),
       ['tool.programmatic_caller_edge_invalid'])
reject('s06-caller-edges/reject_parent_not_requested', caller_turn({'c1': {'parentToolCallId': 'x9'}}),
       ['tool.programmatic_caller_edge_invalid'])
reject('s06-caller-edges/reject_parent_is_not_the_caller_tool', caller_turn({'c1': {'parentToolCallId': 'c2'}}),
       ['tool.programmatic_caller_edge_invalid'])
reject('s06-caller-edges/reject_direct_call_names_parent', caller_turn({'c2': {'parentToolCallId': 'x1'}}),
       ['tool.programmatic_caller_edge_invalid'])


# === slice 4: mode-specific closure and branch cardinality =======================================
PAR = 'tool.parallel_policy_violation'
three = [call('c1', 'tool.a'), call('c2', 'tool.b'), call('c3', 'tool.c')]
accept('s04-mode-closure/accept_code_mode_three_calls_in_one_action', xturn(three, parallelPolicy={'allowed': True, 'maxBranches': 3}), [PAR])
reject('s04-mode-closure/reject_code_mode_parallel_branch_left_open',
       xturn(three, results=[{'toolCallId': c, 'status': 'ok'} for c in ('c1', 'c2')],
             uses=[{'toolCallId': c, 'disposition': 'observed'} for c in ('c1', 'c2')]),
       JOIN + ['tool.result_missing'])
accept('s04-mode-closure/accept_json_mode_one_call', xturn([call('j1', 'tool.a')], mode='json', pattern='single'), [PAR])
reject('s04-mode-closure/reject_json_mode_two_calls_in_one_action', xturn(three[:2], mode='json', pattern='single'), [PAR])
reject('s04-mode-closure/reject_text_mode_two_calls_in_one_action',
       xturn([call('t1', 'tool.a', adapterProfileRef='adapter://v1'), call('t2', 'tool.b', adapterProfileRef='adapter://v1')], mode='text', pattern='single'),
       [PAR])
reject('s04-mode-closure/reject_more_branches_than_parallel_policy_admits', xturn(three, parallelPolicy={'allowed': True, 'maxBranches': 2}), [PAR])
reject('s04-mode-closure/reject_parallel_branches_when_policy_admits_none', xturn(three[:2], pattern='chain', parallelPolicy={'allowed': False}), [PAR])
code = [call('x1', 'code_execution'), call('c1', 'tool.a', callerId='code_execution', parentToolCallId='x1'),
        call('c2', 'tool.b', callerId='code_execution', parentToolCallId='x1')]
accept('s04-mode-closure/accept_calls_made_by_code_are_not_branches', xturn(code, pattern='single', parallelPolicy={'allowed': False}),
       [PAR, 'tool.programmatic_caller_edge_invalid'])

# === slice 10: transport order and truncation ====================================================
ORD = 'protocol.parallel_transport_order_invalid'


def ordered_turn(request_idx, result_idx, ordering='strict', parallel=True):
    calls = [call(c, 'tool.' + c, **({} if i is None else {'transportIndex': i})) for c, i in zip(('c1', 'c2', 'c3'), request_idx)]
    results = [dict({'toolCallId': c, 'status': 'ok', 'resultDigest': 'sha256:r-' + c}, **({} if i is None else {'transportIndex': i}))
               for c, i in zip(('c1', 'c2', 'c3'), result_idx)]
    return xturn(calls, results=results, toolTransportPolicy={'parallelToolCalls': parallel, 'ordering': ordering})


accept('s10-transport/accept_strict_order_outputs_follow_calls', ordered_turn([0, 1, 2], [3, 4, 5]), [ORD, PAR],
       extended={'normalized': {'callSpec': {'toolTransportPolicy': {'parallelToolCalls': True, 'ordering': 'strict'}}}})
reject('s10-transport/reject_strict_order_outputs_swapped', ordered_turn([0, 1, 2], [0, 2, 1]), [ORD])
reject('s10-transport/reject_strict_order_output_without_index', ordered_turn([0, 1, 2], [0, None, 2]), [ORD])
reject('s10-transport/reject_strict_order_calls_share_an_index', ordered_turn([0, 1, 1], [0, 1, 2]), [ORD])
accept('s10-transport/accept_unordered_outputs_in_any_order', ordered_turn([0, 1, 2], [2, 0, 1], ordering='unordered'), [ORD])
reject('s10-transport/reject_parallel_calls_with_parallel_tool_calls_off', ordered_turn([0, 1, 2], [0, 1, 2], parallel=False), [PAR])
TRUNC = 'tool.response_truncation_policy_violation'
POLICY = {'maxBytes': 4096, 'marker': '[... truncated ...]'}


def truncated_turn(truncation=None, payload_bytes=None, policy=POLICY):
    results = [{'toolCallId': 'c1', 'status': 'ok', 'resultDigest': 'sha256:r-c1'},
               {'toolCallId': 'c2', 'status': 'ok', 'resultDigest': 'sha256:r-c2', 'payloadBytes': 812}]
    if truncation is not None:
        results[0]['truncation'] = dict({'originalBytes': 48213, 'headBytes': 2048, 'tailBytes': 2048, 'marker': POLICY['marker']}, **truncation)
    if payload_bytes is not None:
        results[1]['payloadBytes'] = payload_bytes
    extra = {} if policy is None else {'toolResponseTruncationPolicy': policy}
    return xturn([call('c1', 'tool.log.read'), call('c2', 'tool.a')], results=results, **extra)


accept('s10-transport/accept_middle_truncation_within_budget', truncated_turn({}), [TRUNC],
       extended={'normalized': {'toolResults': [{'toolCallId': 'c1', 'terminal': True, 'truncation': {'originalBytes': 48213, 'headBytes': 2048, 'tailBytes': 2048, 'marker': POLICY['marker']}},
                                                {'toolCallId': 'c2', 'terminal': True, 'payloadBytes': 812}]}})
reject('s10-transport/reject_truncation_marker_not_the_policy_marker', truncated_turn({'marker': '...'}), [TRUNC])
reject('s10-transport/reject_truncation_keeps_more_than_budget', truncated_turn({'headBytes': 3000, 'tailBytes': 2000}), [TRUNC])
reject('s10-transport/reject_truncation_keeps_head_only', truncated_turn({'headBytes': 4096, 'tailBytes': 0}), [TRUNC])
reject('s10-transport/reject_response_within_budget_truncated', truncated_turn({'originalBytes': 4000, 'headBytes': 1000, 'tailBytes': 1000}), [TRUNC])
reject('s10-transport/reject_response_over_budget_returned_whole', truncated_turn(payload_bytes=9000), [TRUNC])
reject('s10-transport/reject_truncation_without_policy', truncated_turn({}, policy=None), [TRUNC])

# === §4.1 protocol state policy ==================================================================
STOP = 'protocol.stop_reason_unhandled'
PSP = {'handledStopReasons': ['tool_use', 'end_turn', 'pause_turn'], 'continueOn': ['TOOL_USE', 'pause_turn']}
accept('protocol-state/accept_stop_reason_handled_and_continuable', policy_turn(protocolStatePolicy=PSP), [STOP],
       extended={'normalized': {'callSpec': {'protocolStatePolicy': {'handledStopReasons': ['end_turn', 'pause_turn', 'tool_use'], 'continueOn': ['pause_turn', 'tool_use']}}}})
ev = policy_turn(protocolStatePolicy=PSP)
ev['protocolState'] = {'stopReason': 'max_tokens', 'continuationAllowed': True}
reject('protocol-state/reject_stop_reason_the_policy_does_not_handle', ev, [STOP])
ev = policy_turn(protocolStatePolicy=PSP)
ev['protocolState'] = {'stopReason': 'end_turn', 'continuationAllowed': True}
reject('protocol-state/reject_continuation_after_end_turn', ev, [STOP])

# === slices 7-8: execution-pattern guardrails and architecture escalation =========================
DEC = 'coordination.decomposition_policy_violation'


def loop_turn(iteration=None, checkpoints=(), continuing=True, pattern='chain', **callspec):
    ev = xturn([call('c1', 'tool.a')], pattern=pattern, **callspec)
    ev['protocolState'] = {'stopReason': 'tool_use', 'continuationAllowed': continuing}
    if iteration is not None:
        ev['loopState'] = {'iteration': iteration, 'checkpointRefs': list(checkpoints)}
    return ev


BOUND = {'maxIterations': 5, 'checkpointRequired': True}
accept('s07-pattern-guardrails/accept_loop_within_bound_with_checkpoint', loop_turn(3, ['checkpoint://human/approve-3'], stopPolicy=BOUND), [DEC])
accept('s07-pattern-guardrails/accept_last_iteration_that_stops', loop_turn(5, ['checkpoint://h/5'], continuing=False, stopPolicy=BOUND), [DEC])
reject('s07-pattern-guardrails/reject_iteration_past_bound', loop_turn(6, ['checkpoint://h/6'], stopPolicy=BOUND), [DEC])
reject('s07-pattern-guardrails/reject_last_iteration_that_continues', loop_turn(5, ['checkpoint://h/5'], stopPolicy=BOUND), [DEC])
reject('s07-pattern-guardrails/reject_bound_without_loop_state', loop_turn(stopPolicy={'maxIterations': 5}), [DEC])
reject('s07-pattern-guardrails/reject_continuing_without_required_checkpoint', loop_turn(2, stopPolicy=BOUND), [DEC])
reject('s07-pattern-guardrails/reject_unknown_execution_pattern', loop_turn(1, pattern='swarm'), [DEC])
accept('s08-escalation/accept_agentic_pattern_bounded_and_measured',
       loop_turn(1, ['checkpoint://h/1'], pattern='orchestrator_workers', stopPolicy=BOUND, evalProfileRef='eval://routing/2026-10'), [DEC])
reject('s08-escalation/reject_agentic_pattern_without_measured_trigger', loop_turn(1, ['checkpoint://h/1'], pattern='orchestrator_workers', stopPolicy=BOUND), [DEC])
reject('s08-escalation/reject_agentic_pattern_without_iteration_bound', loop_turn(1, pattern='evaluator_optimizer', evalProfileRef='eval://x'), [DEC])

# === §4.4-4.5 use rows: unknown and non-terminal results ==========================================
UNK = 'tool.use_unknown_result'
ev = xturn([call('c1', 'tool.a'), call('c2', 'tool.b')],
           uses=[{'toolCallId': 'c1', 'disposition': 'consumed', 'resultDigest': 'sha256:r-c1'},
                 {'toolCallId': 'c2', 'disposition': 'observed'}])
accept('use-rows/accept_use_rows_bound_to_their_terminal_results', ev, [UNK])
ev = copy.deepcopy(ev)
ev['toolUse'][0]['resultDigest'] = 'sha256:r-c1-previous-attempt'
reject('use-rows/reject_use_row_names_another_result_digest', ev, [UNK])
ev = xturn([call('c1', 'tool.a'), call('c2', 'tool.b')])
ev['toolResults'][1]['terminal'] = False
reject('use-rows/reject_use_of_a_non_terminal_result', ev, JOIN + ['tool.result_missing', UNK],
       extended={'normalized': {'toolResults': [{'toolCallId': 'c2', 'terminal': False}]}})
ev = copy.deepcopy(ev)
ev['toolUse'] = ev['toolUse'][:1]
reject('use-rows/reject_progress_row_does_not_answer_its_call', ev, JOIN + ['tool.result_missing', 'tool.use_missing'])

# === slice 11: runtime boundary ==================================================================
SHELL = 'runtime.shell_boundary_violation'
BOUNDARY = {'shellTools': ['shell.exec'], 'editTools': ['apply_patch'], 'allowedWorkdirs': ['/workspace/repo']}


def shell_turn(shell=None, writes=None, sandbox='sandbox://profiles/ro-net-off', boundary=BOUNDARY):
    results = [{'toolCallId': 's1', 'status': 'ok', 'resultDigest': 'sha256:r-s1',
                'shell': dict({'workdir': '/workspace/repo/pkg', 'sandboxProfile': 'sandbox://profiles/ro-net-off', 'commandDigest': 'sha256:cmd-npm-test'}, **(shell or {}))},
               {'toolCallId': 'p1', 'status': 'ok', 'resultDigest': 'sha256:r-p1', 'artifactWrites': [{'path': 'artifact://repo/src/a.ts', 'digest': 'sha256:w-a'}]}]
    for k, v in (shell or {}).items():
        if v is None:
            del results[0]['shell'][k]
    if writes is not None:
        results[0]['artifactWrites'] = writes
    spec = {'executionBoundaryPolicy': boundary}
    if sandbox is not None:
        spec['runtimeSandboxRef'] = sandbox
    return xturn([call('s1', 'shell.exec'), call('p1', 'apply_patch')], results=results, **spec)


accept('s11-runtime-boundary/accept_shell_row_inside_its_boundary', shell_turn(), [SHELL],
       extended={'normalized': {'toolResults': [{'toolCallId': 'p1', 'artifactWrites': [{'path': 'artifact://repo/src/a.ts', 'digest': 'sha256:w-a'}]},
                                                {'toolCallId': 's1', 'shell': {'workdir': '/workspace/repo/pkg'}}]}})
reject('s11-runtime-boundary/reject_shell_row_without_workdir', shell_turn({'workdir': None}), [SHELL])
reject('s11-runtime-boundary/reject_shell_row_without_command_digest', shell_turn({'commandDigest': None}), [SHELL])
reject('s11-runtime-boundary/reject_shell_ran_in_another_sandbox', shell_turn({'sandboxProfile': 'sandbox://profiles/full-net'}), [SHELL])
reject('s11-runtime-boundary/reject_shell_without_bound_sandbox', shell_turn(sandbox=None), [SHELL])
reject('s11-runtime-boundary/reject_workdir_outside_allowed', shell_turn({'workdir': '/workspace/repo-other'}), [SHELL])
reject('s11-runtime-boundary/reject_workdir_escapes_by_dot_dot', shell_turn({'workdir': '/workspace/repo/../../etc'}), [SHELL])
reject('s11-runtime-boundary/reject_shell_wrote_past_the_edit_surface', shell_turn(writes=[{'path': 'artifact://repo/src/b.ts', 'digest': 'sha256:w-b'}]), [SHELL])
ev = xturn([call('s1', 'shell.exec')], executionBoundaryPolicy=BOUNDARY, runtimeSandboxRef='sandbox://p')
reject('s11-runtime-boundary/reject_shell_tool_result_without_shell_evidence', ev, [SHELL])

# === slice 12: continuity (compaction fallback) ==================================================
COMP = 'runtime.compaction_state_invalid'
CPOL = {'requiredItemKinds': ['plan', 'tool_call']}


def compaction_turn(items=None, policy=CPOL, **fields):
    ev = xturn([call('c1', 'tool.a'), call('c2', 'tool.b')],
               uses=[{'toolCallId': 'c1', 'disposition': 'observed'}, {'toolCallId': 'c2', 'disposition': 'retry_scheduled'}],
               **({} if policy is None else {'compactionPolicy': policy, 'compactionPolicyDigest': compaction_policy_digest(policy)}))
    ev['compaction'] = dict({'compactionId': 'cmp-7', 'policyDigest': compaction_policy_digest(CPOL), 'sourceDigest': 'sha256:hist-1-40',
                             'summaryDigest': 'sha256:summary-7',
                             'carriedItems': items if items is not None else [{'kind': 'plan', 'ref': 'artifact://plan/v3'}, {'kind': 'tool_call', 'ref': 'c2'}]},
                            **fields)
    return ev


accept('s12-continuity/accept_compaction_carries_plan_and_pending_call', compaction_turn(), [COMP],
       extended={'normalized': {'digests': {'compactionPolicyDigest': compaction_policy_digest(CPOL)}}})
reject('s12-continuity/reject_compaction_dropped_call_scheduled_for_retry', compaction_turn([{'kind': 'plan', 'ref': 'artifact://plan/v3'}, {'kind': 'tool_call', 'ref': 'c1'}]), [COMP])
reject('s12-continuity/reject_compaction_missing_required_item_kind', compaction_turn([{'kind': 'tool_call', 'ref': 'c2'}]), [COMP])
reject('s12-continuity/reject_compaction_under_another_policy', compaction_turn(policyDigest=compaction_policy_digest({'requiredItemKinds': ['plan']})), [COMP])
reject('s12-continuity/reject_compaction_without_compaction_policy', compaction_turn(policy=None), [COMP])
ev = compaction_turn()
ev['callSpec']['compactionPolicyDigest'] = compaction_policy_digest({})
reject('s12-continuity/reject_compaction_policy_digest_not_of_policy', ev, [COMP])


def edit(row, **fields):
    """A copy of `row` with `fields` set; a field set to None is removed."""
    out = copy.deepcopy(row)
    for k, v in fields.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = v
    return out


# === slice 13: staged guardrails =================================================================
MISSING, ORDER = 'governance.guardrail_stage_missing', 'governance.guardrail_stage_order_invalid'
GPOL = {'requiredStages': ['pre_flight', 'input', 'output']}
GDIG = guardrail_policy_digest(GPOL)


def decision(did, stage, seq, policy=GDIG, **extra):
    return dict({'decisionId': did, 'stage': stage, 'guardrailId': 'guard.' + stage, 'sequence': seq, 'policyDigest': policy}, **extra)


DECISIONS = [decision('g1', 'pre_flight', 1, toolCallId='c1'), decision('g2', 'input', 2, thresholdRef='threshold://pii/0.8'),
             decision('g3', 'output', 5, modelRef='guard-model/3')]


def guarded_turn(decisions=DECISIONS, policy=GPOL, **callspec):
    spec = {'guardrailStagePolicy': policy, 'guardrailStagePolicyDigest': guardrail_policy_digest(policy)}
    spec.update(callspec)
    ev = xturn([call('c1', 'tool.a')], **spec)
    ev['guardrailDecisions'] = decisions
    return ev


accept('s13-guardrail-stages/accept_three_stages_in_order', guarded_turn(), [MISSING, ORDER],
       extended={'normalized': {'callSpec': {'guardrailStagePolicy': {'requiredStages': STAGES}}, 'digests': {'guardrailStagePolicyDigest': GDIG}}})
accept('s13-guardrail-stages/accept_policy_requiring_two_stages',
       guarded_turn([decision('g2', 'input', 2, guardrail_policy_digest({'requiredStages': ['output', 'input']})),
                     decision('g3', 'output', 3, guardrail_policy_digest({'requiredStages': ['output', 'input']}))],
                    policy={'requiredStages': ['Output', 'input']}), [MISSING, ORDER])
reject('s13-guardrail-stages/reject_output_stage_missing', guarded_turn(DECISIONS[:2]), [MISSING])
reject('s13-guardrail-stages/reject_decision_under_another_policy',
       guarded_turn(DECISIONS[:2] + [decision('g3', 'output', 5, policy=guardrail_policy_digest({'requiredStages': ['output']}))]), [MISSING])
reject('s13-guardrail-stages/reject_input_decided_after_output', guarded_turn([DECISIONS[0], decision('g2', 'input', 6), DECISIONS[2]]), [ORDER])
reject('s13-guardrail-stages/reject_pre_flight_after_tool_input_stage', guarded_turn([decision('g1', 'pre_flight', 2), decision('g2', 'input', 2), DECISIONS[2]]), [ORDER])
reject('s13-guardrail-stages/reject_stage_policy_digest_not_of_policy', guarded_turn(guardrailStagePolicyDigest=guardrail_policy_digest({'requiredStages': ['input']})), [MISSING])
invalid('s13-guardrail-stages/invalid_unknown_stage', guarded_turn([decision('g1', 'post_flight', 1)]), 'evidence.guardrailDecisions[0].stage')

# === slices 14-15: provenance and governance gates on a policy change ============================
GOV_PKG, NEW_PKG = 'sha256:gov-pkg-v7', 'sha256:gov-pkg-v8'
GOVERNANCE = {'claimId': 'profile.doctrine_inf_governance.v0', 'claimed': True,
              'policyProvenance': {'pinned': True, 'packageRef': 'policy/governance@7', 'expectedDigest': GOV_PKG, 'boundDigest': GOV_PKG}}
EVAL = {'minPrecision': 0.9, 'minRecall': 0.85, 'minF1': 0.85, 'minLabeledExamples': 500}
RT = {'minProbes': 200, 'requiredPlugins': ['prompt-injection', 'pii-leak'], 'requiredStrategies': ['jailbreak']}
EVAL_RUN = {'runId': 'eval-run-311', 'gatePolicyDigest': eval_policy_digest(EVAL), 'policyDigest': NEW_PKG,
            'datasetRef': 'dataset://routing-labeled/v4', 'datasetDigest': 'sha256:ds-v4',
            'truePositives': 90, 'falsePositives': 10, 'falseNegatives': 15, 'trueNegatives': 885}
RT_RUN = {'runId': 'rt-run-88', 'gatePolicyDigest': redteam_policy_digest(RT), 'policyDigest': NEW_PKG,
          'plugins': ['pii-leak', 'prompt-injection', 'harmful-content'], 'strategies': ['jailbreak', 'crescendo'], 'probes': 240, 'successfulAttacks': 0}
CHANGE = {'changeId': 'chg-42', 'fromPolicyDigest': GOV_PKG, 'toPolicyDigest': NEW_PKG, 'evalRun': EVAL_RUN, 'redTeamRun': RT_RUN}
SELF = {'selfEvolution': True, 'retryPolicyDigest': 'pol1_85f35a1dd21bbfd1bd8c0b1e999303dba5f905e75ffe7eb8be25d581296ec0c7',
        'escalationAction': 'mark_blocked', 'rollback': {'targetPolicyDigest': GOV_PKG, 'ref': 'rollback://governance/chg-42'}}
GATES = ['governance.eval_gate_unmet', 'governance.eval_lineage_missing', 'governance.redteam_gate_unmet',
         'governance.policy_package_unpinned', 'governance.policy_package_mismatch']


def governed_turn(change=None, eval_policy=EVAL, rt_policy=RT, **callspec):
    spec = {}
    if eval_policy is not None:
        spec.update(evalGatePolicy=eval_policy, evalGatePolicyDigest=eval_policy_digest(eval_policy))
    if rt_policy is not None:
        spec.update(redTeamPolicy=rt_policy, redTeamPolicyDigest=redteam_policy_digest(rt_policy))
    spec.update(callspec)
    ev = xturn([call('c1', 'policy.propose')], pattern='single', **spec)
    ev['policyChange'] = CHANGE if change is None else change
    return ev


def gov(vid, evidence, classes=None, checks=None, governance=GOVERNANCE, **kw):
    if classes is None:
        accept(vid, evidence, checks, governanceProfile=governance, **kw)
    else:
        reject(vid, evidence, classes, governanceProfile=governance, **kw)


gov('s15-governance-gates/accept_policy_change_meets_eval_and_redteam_gates', governed_turn(), checks=GATES,
    extended={'normalized': {'digests': {'evalGatePolicyDigest': eval_policy_digest(EVAL), 'redTeamPolicyDigest': redteam_policy_digest(RT)},
                             'callSpec': {'redTeamPolicy': {'minProbes': 200, 'maxSuccessfulAttacks': 0}}}})
gov('s14-provenance/reject_policy_change_without_claimed_profile', governed_turn(), ['governance.policy_package_unpinned'], governance={'claimed': False})
gov('s14-provenance/reject_policy_change_from_another_package', governed_turn(edit(CHANGE, fromPolicyDigest='sha256:gov-pkg-v6')), ['governance.policy_package_mismatch'])
EG, EL, RG = 'governance.eval_gate_unmet', 'governance.eval_lineage_missing', 'governance.redteam_gate_unmet'
gov('s15-governance-gates/reject_precision_below_threshold', governed_turn(edit(CHANGE, evalRun=edit(EVAL_RUN, falsePositives=11))), [EG])
gov('s15-governance-gates/reject_recall_below_threshold', governed_turn(edit(CHANGE, evalRun=edit(EVAL_RUN, falseNegatives=20))), [EG])
F1_GATE = dict(EVAL, minF1=0.9)
gov('s15-governance-gates/reject_f1_below_threshold',
    governed_turn(edit(CHANGE, evalRun=edit(EVAL_RUN, gatePolicyDigest=eval_policy_digest(F1_GATE))), eval_policy=F1_GATE), [EG])
gov('s15-governance-gates/reject_too_few_labeled_examples', governed_turn(edit(CHANGE, evalRun=edit(EVAL_RUN, trueNegatives=300))), [EG])
gov('s15-governance-gates/reject_policy_change_without_eval_run', governed_turn(edit(CHANGE, evalRun=None)), [EG])
gov('s15-governance-gates/reject_policy_change_without_eval_gate_policy', governed_turn(eval_policy=None), [EG])
gov('s15-governance-gates/reject_eval_gate_digest_not_of_policy',
    governed_turn(evalGatePolicyDigest=eval_policy_digest(dict(EVAL, minRecall=0.8))), [EG])
gov('s15-governance-gates/reject_eval_run_without_dataset_digest', governed_turn(edit(CHANGE, evalRun=edit(EVAL_RUN, datasetDigest=None))), [EL])
gov('s15-governance-gates/reject_eval_run_evaluated_another_policy', governed_turn(edit(CHANGE, evalRun=edit(EVAL_RUN, policyDigest=GOV_PKG))), [EL])
gov('s15-governance-gates/reject_eval_run_judged_by_another_gate',
    governed_turn(edit(CHANGE, evalRun=edit(EVAL_RUN, gatePolicyDigest=eval_policy_digest(F1_GATE)))), [EL])
gov('s15-governance-gates/reject_too_few_redteam_probes', governed_turn(edit(CHANGE, redTeamRun=edit(RT_RUN, probes=150))), [RG])
gov('s15-governance-gates/reject_redteam_attack_succeeded', governed_turn(edit(CHANGE, redTeamRun=edit(RT_RUN, successfulAttacks=1))), [RG])
gov('s15-governance-gates/reject_required_redteam_plugin_not_run', governed_turn(edit(CHANGE, redTeamRun=edit(RT_RUN, plugins=['prompt-injection']))), [RG])
gov('s15-governance-gates/reject_redteam_run_probed_another_policy', governed_turn(edit(CHANGE, redTeamRun=edit(RT_RUN, policyDigest=GOV_PKG))), [RG])
gov('s15-governance-gates/reject_policy_change_without_redteam_run', governed_turn(edit(CHANGE, redTeamRun=None)), [RG])
gov('s15-governance-gates/reject_policy_change_without_redteam_policy', governed_turn(rt_policy=None), [RG])
EVO = ['governance.self_evolution_retry_missing', 'governance.self_evolution_escalation_missing', 'governance.self_evolution_rollback_missing']
gov('s15-self-evolution/accept_self_evolving_change_with_retry_escalation_rollback', governed_turn(dict(CHANGE, **SELF)), checks=GATES + EVO)
gov('s15-self-evolution/reject_self_evolving_change_without_retry_policy', governed_turn(edit(dict(CHANGE, **SELF), retryPolicyDigest=None)), [EVO[0]])
gov('s15-self-evolution/reject_self_evolving_change_without_escalation', governed_turn(edit(dict(CHANGE, **SELF), escalationAction=' ')), [EVO[1]])
gov('s15-self-evolution/reject_self_evolving_change_without_rollback', governed_turn(edit(dict(CHANGE, **SELF), rollback=None)), [EVO[2]])
gov('s15-self-evolution/reject_rollback_to_another_policy',
    governed_turn(edit(dict(CHANGE, **SELF), rollback={'targetPolicyDigest': NEW_PKG, 'ref': 'rollback://x'})), [EVO[2]])
invalid('s15-self-evolution/invalid_unknown_escalation_action', governed_turn(edit(dict(CHANGE, **SELF), escalationAction='page_oncall')),
        'evidence.policyChange.escalationAction', governanceProfile=GOVERNANCE)

# === slice 9: workload-bound eval of pre-context filtering =======================================
accept('s09-workload-eval/accept_filtering_enabled_with_eval_profile',
       xturn([call('c1', 'tool.a')], preContextFilterPolicy={'enabled': True}, evalProfileRef='eval://filtering/logs-2026-10'), [EL])
ev = xturn([call('c1', 'tool.a')], preContextFilterPolicy={'enabled': True})
ev['toolResults'][0]['tokenUsage'] = {'filteredTokens': 1200, 'unfilteredTokens': 48000}
reject('s09-workload-eval/reject_filtering_enabled_without_eval_profile', ev, [EL])

# === slice 16: observability mode ================================================================
TRACE = 'governance.trace_mode_violation'


def traced_turn(mode, exports, **callspec):
    ev = xturn([call('c1', 'tool.a')], **dict({'observabilityMode': mode} if mode else {}, **callspec))
    ev['traceExports'] = exports
    return ev


INTERNAL = {'exportId': 'tr-1', 'sink': 'internal_processor', 'processorRef': 'processor://otel/zdr-eu'}
DASH = {'exportId': 'tr-2', 'sink': 'dashboard'}
accept('s16-observability/accept_internal_processor_exports', traced_turn('internal_processor', [INTERNAL]), [TRACE])
accept('s16-observability/accept_dashboard_mode_exports_anywhere', traced_turn('dashboard', [INTERNAL, DASH]), [TRACE])
accept('s16-observability/accept_disabled_without_exports', traced_turn('disabled', []), [TRACE])
reject('s16-observability/reject_export_while_disabled', traced_turn('disabled', [INTERNAL]), [TRACE])
reject('s16-observability/reject_dashboard_export_in_internal_mode', traced_turn('internal_processor', [INTERNAL, DASH]), [TRACE])
reject('s16-observability/reject_internal_export_without_processor', traced_turn('internal_processor', [edit(INTERNAL, processorRef=None)]), [TRACE])
ZDR = {'tier': 'high', 'profileRef': 'controls://high/v2', 'requiredControls': ['zero_data_retention']}
reject('s16-observability/reject_dashboard_mode_under_zero_data_retention', traced_turn('dashboard', [], riskTier='high', riskControlProfile=ZDR), [TRACE])
invalid('s16-observability/invalid_unknown_observability_mode', traced_turn('verbose', []), 'evidence.callSpec.observabilityMode')

# === §4.1 risk tier and its control profile ======================================================
RISK = 'governance.risk_tier_profile_missing'
HIGH = {'tier': 'high', 'profileRef': 'controls://high/v2', 'requiredControls': ['guardrail_stages', 'sandbox', 'zero_data_retention']}
ev = guarded_turn(riskTier='High', riskControlProfile=HIGH, runtimeSandboxRef='sandbox://profiles/ro', observabilityMode='internal_processor')
accept('risk-tier/accept_high_tier_with_its_controls_configured', ev, [RISK, TRACE, MISSING],
       extended={'normalized': {'callSpec': {'riskTier': 'high', 'riskControlProfile': {'requiredControls': ['guardrail_stages', 'sandbox', 'zero_data_retention']}}}})
reject('risk-tier/reject_tier_without_control_profile', xturn([call('c1', 'tool.a')], riskTier='moderate'), [RISK])
reject('risk-tier/reject_control_profile_for_another_tier', xturn([call('c1', 'tool.a')], riskTier='high', riskControlProfile=dict(HIGH, tier='low', requiredControls=[])), [RISK])
reject('risk-tier/reject_control_profile_requires_unconfigured_eval_gate',
       xturn([call('c1', 'tool.a')], riskTier='high', riskControlProfile=dict(HIGH, requiredControls=['eval_gate', 'sandbox']), runtimeSandboxRef='sandbox://p'), [RISK])
invalid('risk-tier/invalid_unknown_control', xturn([call('c1', 'tool.a')], riskTier='low', riskControlProfile=dict(HIGH, tier='low', requiredControls=['blessing'])),
        'evidence.callSpec.riskControlProfile.requiredControls')

# === slice 17: handoff contract, fan-out and fan-in ==============================================
TNA, RAM, RPM = 'handoff.target_not_allowed', 'handoff.required_artifact_missing', 'handoff.return_path_missing'
CONTRACT = {'allowedTargets': ['worker.frontend', 'worker.qa'], 'requiredArtifactRefs': ['artifact://design/spec'],
            'requireReturnPath': True, 'returnArtifactRefs': ['artifact://review/report'], 'allowedRoles': ['Orchestrator']}
FAN = [{'transferId': 't1', 'direction': 'fan_out', 'target': 'worker.frontend', 'artifactRefs': ['artifact://design/spec', 'artifact://plan/v3'], 'returnPathRef': 'handoff://return/t1'},
       {'transferId': 't2', 'direction': 'fan_out', 'target': 'worker.qa', 'artifactRefs': ['artifact://design/spec'], 'returnPathRef': 'handoff://return/t2'},
       {'transferId': 'r1', 'direction': 'fan_in', 'target': 'worker.frontend', 'artifactRefs': ['artifact://review/report', 'artifact://frontend/button.tsx'], 'answersTransferId': 't1'},
       {'transferId': 'r2', 'direction': 'FAN_IN', 'target': 'worker.qa', 'artifactRefs': ['artifact://review/report'], 'answersTransferId': 't2'}]
HANDOFF_TRANSFER = [TNA, RAM, RPM, 'tool.join_incomplete']


def fan_turn(transfers=FAN, contract=CONTRACT, role='orchestrator', continuing=False, **callspec):
    spec = {} if contract is None else {'handoffContract': contract, 'handoffContractDigest': contract_digest(contract)}
    if role is not None:
        spec['orchestrationRole'] = role
    spec.update(callspec)
    ev = xturn([call('c1', 'tool.a')], pattern='orchestrator_workers', stopPolicy={'maxIterations': 8},
               evalProfileRef='eval://orchestration/2026-10', **spec)
    ev['protocolState'] = {'stopReason': 'tool_use' if continuing else 'end_turn', 'continuationAllowed': continuing}
    ev['transfers'] = transfers
    ev['loopState'] = {'iteration': 2}
    return ev


def replace(rows, tid, **fields):
    return [edit(r, **fields) if r['transferId'] == tid else r for r in rows]


accept('s17-handoff/accept_fan_out_and_fan_in_under_contract', fan_turn(), HANDOFF_TRANSFER,
       extended={'normalized': {'digests': {'handoffContractDigest': contract_digest(CONTRACT)},
                                'transfers': [{'transferId': 'r1'}, {'transferId': 'r2', 'direction': 'fan_in'}, {'transferId': 't1'}, {'transferId': 't2'}]}})
accept('s17-handoff/accept_fan_out_awaiting_fan_in_while_loop_continues', fan_turn(FAN[:2], continuing=True), HANDOFF_TRANSFER)
reject('s17-handoff/reject_fan_out_to_target_outside_contract', fan_turn(replace(FAN, 't2', target='worker.billing')), [TNA])
reject('s17-handoff/reject_transfer_blocked_without_required_artifact', fan_turn(replace(FAN, 't1', artifactRefs=['artifact://plan/v3'])), [RAM])
reject('s17-handoff/reject_fan_out_without_return_path', fan_turn(replace(FAN, 't2', returnPathRef=None)), [RPM])
reject('s17-handoff/reject_fan_in_without_return_artifacts', fan_turn(replace(FAN, 'r1', artifactRefs=['artifact://frontend/button.tsx'])), [RAM])
reject('s17-handoff/reject_fan_in_from_another_agent', fan_turn(replace(FAN, 'r2', target='worker.frontend')), [TNA])
reject('s17-handoff/reject_fan_in_answering_no_fan_out', fan_turn(replace(FAN, 'r2', answersTransferId='t9')), ['tool.join_incomplete'])
reject('s17-handoff/reject_turn_ends_with_fan_out_unanswered', fan_turn(FAN[:3]), ['tool.join_incomplete'])
reject('s17-handoff/reject_specialist_role_transfers', fan_turn(role='specialist'), [TNA])
reject('s17-handoff/reject_contract_digest_not_of_contract', fan_turn(handoffContractDigest=contract_digest(edit(CONTRACT, requireReturnPath=False))), [TNA])
reject('s17-handoff/reject_transfers_without_contract', fan_turn(contract=None), [TNA])
ev = fan_turn([])
ev['handoff'] = {'target': 'worker.billing', 'requiredArtifactRefs': ['artifact://design/spec'], 'returnPathRef': 'handoff://return/main'}
reject('s17-handoff/reject_handoff_packet_to_target_outside_contract', ev, [TNA])
invalid('s17-handoff/invalid_unknown_transfer_direction', fan_turn(replace(FAN, 't1', direction='broadcast')), 'evidence.transfers[0].direction')

# === slice 12: continuity (descent handoff before resuming) ======================================
accept('s12-continuity/accept_resume_after_descent_handoff_with_return_artifacts', fan_turn(continuing=True), HANDOFF_TRANSFER)
reject('s12-continuity/reject_resume_after_descent_handoff_without_return_artifacts',
       fan_turn(replace(FAN, 'r2', artifactRefs=[]), continuing=True), [RAM])

# === slice 18: role scope ========================================================================
SCOPE_CLASS = 'context.scope_violation'
SCOPE = {'role': 'Specialist', 'readRefs': ['artifact://design/', 'handoff://return/main'], 'writeRefs': ['artifact://frontend']}


def scoped_turn(reads=('artifact://design/tokens.json',), writes=('artifact://frontend/button.tsx',), scope=SCOPE, role='specialist', sources=None, **callspec):
    spec = {'contextScope': scope, 'contextScopeDigest': scope_digest(scope)}
    if role is not None:
        spec['orchestrationRole'] = role
    spec.update(callspec)
    ev = xturn([call('c1', 'fs.write')], pattern='single', results=[{'toolCallId': 'c1', 'status': 'ok', 'resultDigest': 'sha256:r-c1',
               'artifactWrites': [{'path': w, 'digest': 'sha256:w'} for w in writes]}], **spec)
    ev['stateViews'][0]['sourceRefs'] = list(sources if sources is not None else ['handoff://return/main', 'artifact://design/spec'])
    ev['contextReads'] = list(reads)
    return ev


accept('s18-role-scope/accept_specialist_reads_and_writes_inside_scope', scoped_turn(), [SCOPE_CLASS],
       extended={'normalized': {'callSpec': {'contextScope': {'role': 'specialist'}}, 'digests': {'contextScopeDigest': scope_digest(SCOPE)}}})
reject('s18-role-scope/reject_specialist_reads_outside_scope', scoped_turn(reads=['artifact://billing/ledger.csv']), [SCOPE_CLASS])
reject('s18-role-scope/reject_state_view_built_from_outside_scope', scoped_turn(sources=['session://orchestrator/full-history']), [SCOPE_CLASS])
reject('s18-role-scope/reject_specialist_writes_outside_scope', scoped_turn(writes=['artifact://design/spec']), [SCOPE_CLASS])
reject('s18-role-scope/reject_read_escapes_scope_by_dot_dot', scoped_turn(reads=['artifact://design/../secrets/key']), [SCOPE_CLASS])
reject('s18-role-scope/reject_scope_of_another_role', scoped_turn(role='orchestrator'), [SCOPE_CLASS])
reject('s18-role-scope/reject_scope_digest_not_of_scope', scoped_turn(contextScopeDigest=scope_digest(edit(SCOPE, writeRefs=['artifact://']))), [SCOPE_CLASS])

# === §4.6 MutationReady under a mutation intent ==================================================
MPD, MCM, MUE = 'mutation.policy_digest_mismatch', 'mutation.capability_claim_missing', 'mutation.use_evidence_missing'
INTENT = {'activeMutationPolicyDigest': 'pol.mutation.v1', 'requiredCapabilities': ['issues:write'], 'capabilityClaims': ['issues:write', 'issues:read']}


def mutating_turn(use_fields=None, **extra):
    ev = xturn([call('c1', 'issues.read'), call('c2', 'ci.status')],
               uses=[dict({'toolCallId': 'c1', 'disposition': 'consumed', 'resultDigest': 'sha256:r-c1', 'mutationInputRef': 'mutation://issues/BILL-7'}, **(use_fields or {})),
                     {'toolCallId': 'c2', 'disposition': 'observed'}])
    ev['toolUse'][0] = edit(ev['toolUse'][0], **{k: v for k, v in (use_fields or {}).items()})
    ev.update(sessionRefs=['session://harness/s-19'], trajectoryRefs=['trajectory://harness/s-19/step-4'])
    ev.update(extra)
    return ev


accept('mutation-ready/accept_mutation_intent_admitted', mutating_turn(), [MPD, MCM, MUE], mutationIntent=INTENT,
       extended={'mutationReady': True, 'witness': {'mutationIntentDigest': digest({'activeMutationPolicyDigest': 'pol.mutation.v1',
                 'requiredCapabilities': ['issues:write'], 'capabilityClaims': ['issues:read', 'issues:write']})}})
reject('mutation-ready/reject_active_policy_differs', mutating_turn(), [MPD], mutationIntent=edit(INTENT, activeMutationPolicyDigest='pol.mutation.v2'),
       extended={'mutationReady': False})
reject('mutation-ready/reject_required_capability_not_claimed', mutating_turn(), [MCM], mutationIntent=edit(INTENT, capabilityClaims=['issues:read']))
reject('mutation-ready/reject_consumed_row_not_bound_to_result', mutating_turn({'resultDigest': None}), [MUE], mutationIntent=INTENT)
reject('mutation-ready/reject_consumed_row_names_nothing_it_fed', mutating_turn({'mutationInputRef': None}), [MUE], mutationIntent=INTENT)
reject('mutation-ready/reject_no_trajectory_refs_for_the_witness', mutating_turn(trajectoryRefs=[]), [MUE], mutationIntent=INTENT)

if __name__ == '__main__':
    base.write(ROOT, SUITE, VECTORS)
