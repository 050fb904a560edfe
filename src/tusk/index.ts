/**
 * The Tusk harness (`turngate/tusk`): the long-running loop around single turns. `boot` from
 * persisted state, `step` one bounded item with verification before and after, `stop` with a
 * handoff for a fresh-context session; the session artifact, the append-only trajectory and its
 * projection, the throughput KPI, retry and escalation by a digest-checked policy, and the
 * host-effect envelope.
 *
 * Source: the Tusk harness contract; HARNESS-RUNTIME; HARNESS-RETRY-ESCALATION.
 *
 * @module
 */
export {
  HarnessInputError,
  RetryPolicyError,
  StepFailure,
  TrajectoryLockTimeoutError,
  TrajectoryTornTailError,
} from './errors.ts';
export type { RetryPolicyFailureClass, TornTail, TrajectoryLockHolder } from './errors.ts';
export {
  BOOTSTRAP_KIND,
  DEFAULT_SESSION_PATH,
  SESSION_KIND,
  bootstrapSession,
  newSessionId,
  parseSession,
  renderSession,
  updateSession,
} from './session.ts';
export type { HarnessBootstrap, HarnessSession, HarnessSessionState, SessionUpdate } from './session.ts';
export {
  DEFAULT_FEATURE_LEDGER_PATH,
  FEATURE_LEDGER_KIND,
  checkFeatureLedger,
  parseFeatureLedger,
  projectFeatures,
  renderFeatureLedger,
  upsertFeature,
} from './feature-ledger.ts';
export type {
  FeatureLedger,
  FeatureLedgerCheck,
  FeatureLedgerFinding,
  FeatureProjection,
  FeatureRow,
  FeatureStatus,
  FeatureUpdate,
} from './feature-ledger.ts';
export { issueMemorySnapshotRef } from './issues.ts';
export {
  DEFAULT_TRAJECTORY_PATH,
  STEP_KIND,
  TRAJECTORY_PROJECTION_KIND,
  normalizeTrajectoryRow,
  parseTrajectoryText,
  renderTrajectoryLine,
  tornTailOf,
} from './trajectory.ts';
export type { TrajectoryRead, TrajectoryRow, TrajectoryRowInput } from './trajectory.ts';
export {
  SUCCESS_RESULT_CLASSES,
  compareTrajectoryRows,
  isRetryNeededResultClass,
  isSuccessResultClass,
  projectTrajectory,
} from './trajectory-projection.ts';
export type { TrajectoryProjection, TrajectoryProjectionMode } from './trajectory-projection.ts';
export { KPI_KIND, computeKpi } from './kpi.ts';
export type { KpiDecisionState, KpiOptions, KpiReport } from './kpi.ts';
export {
  MISSING_FAILURE_CLASS,
  RETRY_POLICY_KIND,
  classifyFailureClasses,
  decideRetry,
  parseRetryPolicy,
  retryPolicyDigest,
} from './retry-policy.ts';
export type { EscalationAction, RetryDecision, RetryPolicy, RetryRule } from './retry-policy.ts';
export { FileEffectLedger } from './effect-ledger.ts';
export {
  HOST_EFFECT_SCHEMA,
  MUTATION_HOST_ACTIONS,
  canonicalHostAction,
  hostEffect,
  hostEffectArgsDigest,
  isMutationHostAction,
  missingMutationAuthority,
} from './host-effect.ts';
export type { HostEffect, HostEffectInput } from './host-effect.ts';
export { leaseHandoffRef, siteLineageRefs } from './refs.ts';
export type { LeaseHandoff, SiteLineage } from './refs.ts';
export {
  bootstrapFromFiles,
  readFeatureLedger,
  readSession,
  readSessionIfExists,
  writeFeature,
  writeSession,
} from './session-store.ts';
export type { StoreClock } from './session-store.ts';
export { appendTrajectoryRow, readTrajectory, repairTrajectory } from './trajectory-store.ts';
export type { TrajectoryAppend, TrajectoryRepair } from './trajectory-store.ts';
export { runHarness } from './loop.ts';
export type {
  EffectRequest,
  HarnessBootContext,
  HarnessClaimContext,
  HarnessEscalation,
  HarnessHandoff,
  HarnessItemOutcome,
  HarnessMode,
  HarnessRunResult,
  HarnessStepContext,
  HarnessStepHooks,
  HarnessStepRecord,
  HarnessStopContext,
  HarnessStopReason,
  MutationRequest,
  RunHarnessOptions,
  Verification,
  WorkItem,
} from './loop-types.ts';
