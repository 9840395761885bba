// The fake accounts service behind scan-to-create (the SDK's registerApp): an RFC 8628-style device flow over HTTPS.
//
// The SDK always builds `https://<domain>/oauth/v1/app/registration` and POSTs form bodies to it: `action=begin` once,
// then `action=poll&device_code=…` every `interval` seconds. Pending/slow-down/refusal/expiry answer HTTP 400 with
// `{ error, error_description }`, success answers 200 with `{ client_id, client_secret, user_info }`. The SDK only speaks
// https, so this server has a self-signed certificate for 127.0.0.1; a client trusts it through NODE_EXTRA_CA_CERTS=caFile.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { hexId } from './envelopes.js';
import type { FakeApp, FakeState } from './state.js';

export const REGISTRATION_PATH = '/oauth/v1/app/registration';

/** What the person did with the link; `pending` until a test control decides. */
export type RegistrationOutcome = 'pending' | 'approved' | 'denied' | 'expired';

export interface Registration {
  deviceCode: string;
  userCode: string;
  /** The begin request's form fields (archetype, auth_method, request_user_info). */
  begin: Record<string, string>;
  outcome: RegistrationOutcome;
  polls: number;
  /** The next poll answers slow_down (once). */
  slowDown: boolean;
  /** What the scanned link asked for (the SDK's `addons` query parameter, decoded), once scanned. */
  addons?: unknown;
  /** Query parameters of the scanned link. */
  linkParams?: Record<string, string[]>;
  app?: FakeApp;
  tenantBrand: 'feishu' | 'lark';
}

export interface FakeAccountsOptions {
  /** Polling interval the begin answer asks for, seconds (the SDK multiplies by 1000; fractions work). */
  intervalSec?: number;
  /** Lifetime of a device code, seconds. */
  expiresInSec?: number;
}

const DEFAULTS = { intervalSec: 0.2, expiresInSec: 600 } as const;

function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')))));
    req.on('error', reject);
  });
}

function answer(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/** A self-signed certificate for 127.0.0.1 (openssl), in a temp folder removed on close. */
function selfSignedCert(): { dir: string; key: Buffer; cert: Buffer; caFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'lmx-fake-accounts-'));
  const keyFile = join(dir, 'key.pem');
  const caFile = join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', caFile], { stdio: 'ignore' });
  return { dir, key: readFileSync(keyFile), cert: readFileSync(caFile), caFile };
}

/** The SDK's addons encoding undone: base64url → gunzip → JSON. */
export function decodeAddons(encoded: string): unknown {
  return JSON.parse(gunzipSync(Buffer.from(encoded.replace(/-/g, '+').replace(/_/g, '/'), 'base64')).toString('utf8')) as unknown;
}

export class FakeAccounts {
  readonly registrations: Registration[] = [];
  /** Every request's action, in order (begin, poll, …). */
  readonly requests: Array<{ action: string; status: number }> = [];
  private port = 0;
  private readonly server: Server;
  private readonly certDir: string;
  readonly caFile: string;
  private readonly opts: Required<FakeAccountsOptions>;

  private constructor(private readonly state: FakeState, options: FakeAccountsOptions) {
    this.opts = { ...DEFAULTS, ...options };
    const { dir, key, cert, caFile } = selfSignedCert();
    this.certDir = dir;
    this.caFile = caFile;
    this.server = createServer({ key, cert }, (req, res) => {
      this.handle(req, res).catch((e: unknown) => answer(res, 500, { error: 'server_error', error_description: String(e) }));
    });
  }

  static async start(state: FakeState, options: FakeAccountsOptions = {}): Promise<FakeAccounts> {
    const accounts = new FakeAccounts(state, options);
    await new Promise<void>((resolve) => accounts.server.listen(0, '127.0.0.1', resolve));
    accounts.port = (accounts.server.address() as AddressInfo).port;
    return accounts;
  }

  /** What registerApp's `domain` option (and larkmux's --accounts-url) names: the SDK prepends https://. */
  get host(): string {
    return `127.0.0.1:${this.port}`;
  }

  get url(): string {
    return `https://${this.host}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || path !== REGISTRATION_PATH) return answer(res, 404, { error: 'not_found' });
    if (!/^application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? '')) return answer(res, 400, { error: 'invalid_request', error_description: 'form body expected' });
    const form = await readForm(req);
    const reply = (status: number, body: Record<string, unknown>) => {
      this.requests.push({ action: form.action ?? '', status });
      answer(res, status, body);
    };
    if (form.action === 'begin') {
      if (form.archetype !== 'PersonalAgent' || form.auth_method !== 'client_secret') return reply(400, { error: 'invalid_request', error_description: 'unsupported archetype or auth_method' });
      const userCode = `${hexId(2)}-${hexId(2)}`.toUpperCase();
      const reg: Registration = { deviceCode: randomBytes(24).toString('base64url'), userCode, begin: form, outcome: 'pending', polls: 0, slowDown: false, tenantBrand: 'feishu' };
      this.registrations.push(reg);
      const expiresAt = Date.now() + this.opts.expiresInSec * 1000;
      setTimeout(() => reg.outcome === 'pending' && (reg.outcome = 'expired'), Math.max(0, expiresAt - Date.now())).unref();
      return reply(200, {
        device_code: reg.deviceCode,
        user_code: userCode,
        verification_uri: `${this.url}/page/app-registration`,
        verification_uri_complete: `${this.url}/page/app-registration?user_code=${userCode}`,
        expires_in: this.opts.expiresInSec,
        interval: this.opts.intervalSec,
      });
    }
    if (form.action !== 'poll') return reply(400, { error: 'invalid_request', error_description: `unknown action ${form.action ?? ''}` });
    const reg = this.registrations.find((r) => r.deviceCode === form.device_code);
    if (!reg) return reply(400, { error: 'invalid_grant', error_description: 'unknown device_code' });
    reg.polls++;
    if (reg.slowDown) {
      reg.slowDown = false;
      return reply(400, { error: 'slow_down', error_description: 'polling too fast' });
    }
    switch (reg.outcome) {
      case 'pending': return reply(400, { error: 'authorization_pending', error_description: 'the user has not scanned the code yet' });
      case 'denied': return reply(400, { error: 'access_denied', error_description: 'the user declined to create the app' });
      case 'expired': return reply(400, { error: 'expired_token', error_description: 'the device code has expired' });
      case 'approved': return reply(200, { client_id: reg.app!.appId, client_secret: reg.app!.appSecret, user_info: { open_id: `ou_${hexId(16)}`, tenant_brand: reg.tenantBrand } });
    }
  }

  /** The registration a printed link belongs to (by its user_code), as a phone would find it on scanning. */
  private scanned(link: string): Registration {
    const url = new URL(link);
    const reg = this.registrations.find((r) => r.userCode === url.searchParams.get('user_code'));
    if (!reg) throw new Error(`no registration for ${link}`);
    const params: Record<string, string[]> = {};
    for (const k of new Set(url.searchParams.keys())) params[k] = url.searchParams.getAll(k);
    reg.linkParams = params;
    const addons = url.searchParams.get('addons');
    if (addons) reg.addons = decodeAddons(addons);
    return reg;
  }

  /** The person scans the link and confirms: a new app exists (and can fetch tenant tokens from the fake). */
  approve(link: string, opts: { tenantBrand?: 'feishu' | 'lark' } = {}): FakeApp {
    const reg = this.scanned(link);
    reg.tenantBrand = opts.tenantBrand ?? 'feishu';
    reg.app = this.state.addApp({ appId: `cli_${hexId(8)}`, appSecret: randomBytes(24).toString('base64url') });
    reg.outcome = 'approved';
    return reg.app;
  }

  /** The person scans the link and declines. */
  refuse(link: string): void {
    this.scanned(link).outcome = 'denied';
  }

  /** Nobody scans in time: the device code is dead from the next poll on. */
  expire(link: string): void {
    const reg = this.registrations.find((r) => r.userCode === new URL(link).searchParams.get('user_code'));
    if (!reg) throw new Error(`no registration for ${link}`);
    reg.outcome = 'expired';
  }

  /** The next poll of this link's registration answers slow_down. */
  slowDown(link: string): void {
    const reg = this.registrations.find((r) => r.userCode === new URL(link).searchParams.get('user_code'));
    if (reg) reg.slowDown = true;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.certDir, { recursive: true, force: true });
  }
}
