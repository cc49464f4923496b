/**
 * OC-Memory with the real OpenClaw 2026.9.6 (the database era: transcripts
 * in agents/<id>/agent/openclaw-agent.sqlite): see
 * helpers/openclaw-e2e-scenario.ts for the scenario.
 */
import { defineOpenClawEndToEnd } from '../../helpers/openclaw-e2e-scenario.js';
import { OPENCLAW_RELEASES } from '../../helpers/openclaw.js';

defineOpenClawEndToEnd(OPENCLAW_RELEASES.database);
