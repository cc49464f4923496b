/**
 * Alerts: tell the user when memory stops working (an LLM that keeps failing,
 * a reflection that lost too many key terms). Two targets, each optional:
 *
 * - OpenClaw's webhook: `POST <gateway><hooks.path>/agent` with
 *   `Authorization: Bearer <hooks.token>` and a message naming the failure,
 *   its cause and what to do; OpenClaw runs a turn that relays it (Telegram…).
 * - Any URL (`alerts.webhook_url`) receiving
 *   `{source, event, severity, details, timestamp}` as JSON.
 *
 * At most one alert per error class per `alerts.min_interval_minutes` (60),
 * remembered in `.ocm/state.json` (`extra.alerts`). Secrets are masked in
 * everything sent. Sending never throws: a failed alert is logged.
 */
import type { Config } from '../config/config-schema.js';
import type { HomePaths } from '../platform/home.js';
import type { Logger } from '../platform/log.js';
import { maskSecrets } from '../masking/masking.js';
import { discoverOpenClawEndpoint, type ConnectionTest, type OpenClawEndpoint } from '../integrations/openclaw/config.js';
import { readState, writeState } from '../platform/state.js';

export type AlertSeverity = 'info' | 'warning' | 'error' | 'critical';

export interface Alert {
  /** What happened, e.g. "observer_failed", "reflector_failed", "keyword_preservation_low". */
  event: string;
  /** The rate-limit key: one alert per class per interval (auth, rate_limit, …). */
  errorClass: string;
  severity: AlertSeverity;
  /** What went wrong (one sentence). */
  summary: string;
  /** Why. */
  cause: string;
  /** What to do next. */
  action: string;
  details?: Record<string, unknown>;
}

export interface AlertDeps {
  config: Config;
  paths: HomePaths;
  env: Record<string, string | undefined>;
  logger: Logger;
  now?: () => Date;
  fetch?: typeof fetch;
  /** For discovery of ~/.openclaw/openclaw.json. */
  homeDir?: string;
  /** Extra secret values to mask (API keys). */
  secrets?: string[];
}

export interface AlertOutcome {
  /** Targets that accepted it: "openclaw", "webhook". */
  sent: string[];
  skipped?: 'disabled' | 'rate_limited' | 'no_target';
  errors: string[];
}

interface AlertRecord {
  /** Last time an alert of this class reached a target. */
  at?: string;
  /** Last time every target failed (retry after a few minutes, not every tick). */
  failedAt?: string;
  count?: number;
}

const RETRY_FAILED_DELIVERY_MS = 5 * 60_000;

function mask(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('[REDACTED]');
  return maskSecrets(out).text;
}

function maskDeep(value: unknown, secrets: string[]): unknown {
  if (typeof value === 'string') return mask(value, secrets);
  if (Array.isArray(value)) return value.map((v) => maskDeep(v, secrets));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskDeep(v, secrets)]));
  return value;
}

/** The text OpenClaw's agent receives (it relays it to the user). */
export function alertMessage(alert: Alert): string {
  return [
    `⚠️ OC-Memory alert (${alert.severity}) — please relay this to the user.`,
    `What happened: ${alert.summary}`,
    `Cause: ${alert.cause}`,
    `What to do: ${alert.action}`,
  ].join('\n');
}

async function post(doFetch: typeof fetch, url: string, body: unknown, headers: Record<string, string>): Promise<void> {
  const response = await doFetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
  await response.arrayBuffer().catch(() => undefined);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
}

function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  return cause ?? (error instanceof Error ? error.message : String(error));
}

/** Send an alert to every configured target, unless one of its class went out recently. */
export async function sendAlert(deps: AlertDeps, alertIn: Alert, options: { force?: boolean } = {}): Promise<AlertOutcome> {
  const { config, logger, paths } = deps;
  const now = (deps.now ?? (() => new Date()))();
  const secrets = deps.secrets ?? [];
  if (!config.alerts.enabled) return { sent: [], skipped: 'disabled', errors: [] };
  const alert = maskDeep(alertIn, secrets) as Alert;

  const { state } = await readState(paths.state);
  const records = (state.extra.alerts ??= {}) as Record<string, AlertRecord>;
  const record = (records[alert.errorClass] ??= {});
  const interval = config.alerts.min_interval_minutes * 60_000;
  if (!options.force) {
    if (record.at && now.getTime() - Date.parse(record.at) < interval) {
      logger.log('info', 'alert.rate_limited', { event: alert.event, errorClass: alert.errorClass, lastSent: record.at });
      return { sent: [], skipped: 'rate_limited', errors: [] };
    }
    if (record.failedAt && now.getTime() - Date.parse(record.failedAt) < Math.min(RETRY_FAILED_DELIVERY_MS, interval)) {
      return { sent: [], skipped: 'rate_limited', errors: [] };
    }
  }

  const doFetch = deps.fetch ?? fetch;
  const sent: string[] = [];
  const errors: string[] = [];
  let targets = 0;

  const endpoint = await discoverOpenClawEndpoint({ env: deps.env, alerts: config.alerts, homeDir: deps.homeDir });
  if (endpoint.token) {
    targets++;
    const url = `${endpoint.url}${endpoint.hooksPath}/agent`;
    try {
      await post(
        doFetch,
        url,
        { message: alertMessage(alert), name: 'OC-Memory', wakeMode: 'now', deliver: true },
        { authorization: `Bearer ${endpoint.token}` },
      );
      sent.push('openclaw');
    } catch (error) {
      errors.push(`openclaw ${url}: ${describeFetchError(error)}`);
    }
  }
  if (config.alerts.webhook_url) {
    targets++;
    try {
      await post(
        doFetch,
        config.alerts.webhook_url,
        {
          source: 'oc-memory',
          event: alert.event,
          severity: alert.severity,
          details: {
            errorClass: alert.errorClass,
            summary: alert.summary,
            cause: alert.cause,
            action: alert.action,
            home: paths.root,
            ...(alert.details ?? {}),
          },
          timestamp: now.toISOString(),
        },
        {},
      );
      sent.push('webhook');
    } catch (error) {
      errors.push(`webhook: ${describeFetchError(error)}`);
    }
  }

  if (targets === 0) {
    logger.log('warn', 'alert.no_target', { event: alert.event, errorClass: alert.errorClass, summary: alert.summary });
    return { sent, skipped: 'no_target', errors };
  }
  if (sent.length > 0) {
    record.at = now.toISOString();
    record.count = (record.count ?? 0) + 1;
    delete record.failedAt;
    logger.log('info', 'alert.sent', { event: alert.event, errorClass: alert.errorClass, targets: sent });
  } else {
    record.failedAt = now.toISOString();
  }
  for (const e of errors)
    logger.log('warn', 'alert.delivery_failed', { event: alert.event, errorClass: alert.errorClass, error: mask(e, secrets) });
  await writeState(paths.state, state);
  return { sent, errors };
}

/** The alert for an LLM failure (observer or reflector) after its last retry. */
export function llmFailureAlert(
  role: 'observer' | 'reflector',
  failure: { message: string; errorClass?: string; hint?: string },
  extra: Record<string, unknown> = {},
): Alert {
  const errorClass = failure.errorClass ?? 'server';
  return {
    event: `${role}_failed`,
    errorClass,
    severity: errorClass === 'auth' || errorClass === 'request' ? 'critical' : 'error',
    summary: `The ${role} could not reach its LLM (${errorClass.replace('_', ' ')}); no new memories are being written.`,
    cause: failure.message,
    action: `${failure.hint ?? 'Check the LLM settings in config.yaml.'} Nothing is lost: the transcripts are re-read from the same place on the next run.`,
    details: { role, ...extra },
  };
}

/** Alert once per error class for the LLM failures of an observe run. */
export async function alertLlmFailures(
  deps: AlertDeps,
  role: 'observer' | 'reflector',
  failures: Array<{ code: string; message: string; errorClass?: string; hint?: string; stream?: string }>,
): Promise<AlertOutcome[]> {
  const byClass = new Map<string, (typeof failures)[number]>();
  for (const f of failures) if (f.code === 'LLM_ERROR' && !byClass.has(f.errorClass ?? 'server')) byClass.set(f.errorClass ?? 'server', f);
  const out: AlertOutcome[] = [];
  for (const f of byClass.values()) {
    try {
      out.push(await sendAlert(deps, llmFailureAlert(role, f, f.stream ? { stream: f.stream } : {})));
    } catch (error) {
      deps.logger.log('warn', 'alert.failed', { error: error instanceof Error ? error.message : String(error) });
    }
  }
  return out;
}

/** `ocm-run alerts test`: one info alert to every target, past the rate limit. */
export async function sendTestAlert(deps: AlertDeps): Promise<AlertOutcome> {
  return sendAlert(
    deps,
    {
      event: 'test',
      errorClass: 'test',
      severity: 'info',
      summary: 'This is a test alert from OC-Memory.',
      cause: 'Someone ran `ocm-run alerts test`.',
      action: 'Nothing to do: alerts reach you.',
    },
    { force: true },
  );
}

export interface AlertsEndpointOptions {
  config: Config;
  env: NodeJS.ProcessEnv;
  /** Save the endpoint to this config file when the connection works (`alerts save`). */
  saveTo?: { file: string; envFile: string };
}

/** Where alerts go, as `ocm-run alerts` shows it (the token itself never appears). */
export interface AlertsEndpointReport {
  endpoint: OpenClawEndpoint;
  check: ConnectionTest;
  shown: {
    url: string;
    urlSource: OpenClawEndpoint['urlSource'];
    hooksPath: string;
    hooksEnabled: OpenClawEndpoint['hooksEnabled'];
    token: string;
    openclawConfig: string | null;
    webhookUrl: string | null;
    enabled: boolean;
    connection: ConnectionTest;
    warning?: string;
  };
  /** The endpoint was written to the config (only with `saveTo` and a working connection). */
  saved: boolean;
}

/** `ocm-run alerts [show|save]`: find OpenClaw's hooks endpoint, test it, and save it if asked and it works. */
export async function checkAlertsEndpoint(options: AlertsEndpointOptions): Promise<AlertsEndpointReport> {
  const { config, env } = options;
  const { testOpenClawConnection, saveOpenClawEndpoint } = await import('../integrations/openclaw/config.js');
  const endpoint = await discoverOpenClawEndpoint({ env, alerts: config.alerts });
  const check = await testOpenClawConnection(endpoint);
  const shown = {
    url: endpoint.url,
    urlSource: endpoint.urlSource,
    hooksPath: endpoint.hooksPath,
    hooksEnabled: endpoint.hooksEnabled,
    token: endpoint.token ? `set (from ${endpoint.tokenSource})` : 'none',
    openclawConfig: endpoint.configPath ?? null,
    webhookUrl: config.alerts.webhook_url || null,
    enabled: config.alerts.enabled,
    connection: check,
    warning: endpoint.warning,
  };
  let saved = false;
  if (options.saveTo && check.ok) {
    await saveOpenClawEndpoint({ file: options.saveTo.file, envFile: options.saveTo.envFile, endpoint, env });
    saved = true;
  }
  return { endpoint, check, shown, saved };
}
