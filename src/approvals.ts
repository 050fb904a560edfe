/**
 * Approvals bound to the intent (`turngate/approvals`, docs/APPROVALS.md): a mutation that waits
 * for a person's decision, recorded in the effect ledger and begun only on a matching approval;
 * the rules of a policy (`approvalPolicy`, `beginGated`) and signed approval tokens.
 *
 * @module
 */
export {
  approvalAnswer,
  approvalPolicy,
  approvalRequestDigest,
  beginApproved,
  beginApprovedByToken,
  beginGated,
  decideApproval,
  evaluateApproval,
  expectClearance,
  readApproval,
  requestApproval,
  signApprovalToken,
  verifyApprovalToken,
  type ApprovalCheck,
  type ApprovalContext,
  type ApprovalDecision,
  type ApprovalFailure,
  type ApprovalLedger,
  type ApprovalPolicy,
  type ApprovalRecord,
  type ApprovalRequest,
  type ApprovalRule,
  type ApprovalRules,
  type ApprovalState,
  type ApprovalVerdict,
  type ApprovedClaim,
  type Clearance,
  type ClearanceData,
  type ClearanceFor,
  type ClearanceKind,
  type GatedClaim,
  type GatedToolName,
  type StoredApproval,
} from './typestate/index.ts';
