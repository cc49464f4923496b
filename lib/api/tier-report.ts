/**
 * The tier moves and approvals as people read them (`ocm-run archive`,
 * `ocm-run approvals`, `ocm-run tier`): what a run moved or proposed, the
 * proposals waiting with their contents summarised, sizes in KB / MB.
 */
export { formatBytes, formatProposals, formatTierResult } from '../tiers/report.js';
