/**
 * OC-Memory with the real OpenClaw 2026.2.26 (the file era: JSONL
 * transcripts under agents/<id>/sessions/): see
 * helpers/openclaw-e2e-scenario.ts for the scenario.
 */
import { defineOpenClawEndToEnd } from '../../helpers/openclaw-e2e-scenario.js';
import { OPENCLAW_RELEASES } from '../../helpers/openclaw.js';

defineOpenClawEndToEnd(OPENCLAW_RELEASES.files);
