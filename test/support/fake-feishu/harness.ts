// Test harness: a FakeFeishu plus a real LarkAdapter (real SDK) wired to it, with captured events, states and log lines.
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../../src/platform/log.js';
import { LarkAdapter, type LarkAdapterOptions, type LarkBotConfig } from '../../../src/daemon/im/lark/adapter.js';
import type { CardActionReply, ConnectionState, InboundEvent, InboundRejected } from '../../../src/daemon/im/types.js';
import { FakeFeishu, type FakeAppSpec, type FakeFeishuOptions } from './fake-feishu.js';

export const TEST_APPS: FakeAppSpec[] = [
  { appId: 'cli_a1b2c3d4e5f60718', appSecret: 'sec-alpha-9f8e7d6c5b4a', botName: 'AlphaBot' },
  { appId: 'cli_0123456789abcdef', appSecret: 'sec-beta-1a2b3c4d5e6f', botName: 'BetaBot' },
];

/** Fast retry timings so fault tests take milliseconds, not seconds. */
export const FAST_LIMITS = { backoffBaseMs: 20, backoffMaxMs: 100 } as const;

export interface AdapterProbe {
  adapter: LarkAdapter;
  events: InboundEvent[];
  rejected: InboundRejected[];
  states: Array<{ state: ConnectionState; detail?: string }>;
  /** What the card-action handler answers; replace in a test. */
  onCardAction: (ev: InboundEvent) => Promise<CardActionReply | void>;
}

export interface LarkHarness {
  fake: FakeFeishu;
  home: string;
  logFile: string;
  logText(): string;
  makeAdapter(appId?: string, extra?: Partial<LarkAdapterOptions> & { secret?: string; botAppId?: string; botOverrides?: Partial<LarkBotConfig> }): AdapterProbe;
  cleanup(): Promise<void>;
}

export async function startHarness(opts: Partial<FakeFeishuOptions> = {}): Promise<LarkHarness> {
  const home = mkdtempSync(join(tmpdir(), 'lmx-lark-'));
  process.env.LARKMUX_HOME = home;
  const fake = await FakeFeishu.start({ apps: TEST_APPS, ...opts });
  const logFile = join(home, 'logs', 'daemon.log');
  const logger = createLogger({ file: logFile, level: 'trace', name: 'lark-test' });
  const adapters: LarkAdapter[] = [];
  return {
    fake, home, logFile,
    logText: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
    makeAdapter(appId, extra = {}) {
      const app = fake.app(appId);
      const { secret, botAppId, botOverrides, ...rest } = extra;
      const adapter = new LarkAdapter({
        bot: { name: app.botName, appId: botAppId ?? app.appId, appSecret: secret ?? app.appSecret, domain: fake.baseUrl, events: 'websocket', locale: 'en' /* these tests read English cards */, ...botOverrides },
        logger, limits: FAST_LIMITS, ...rest,
      });
      adapters.push(adapter);
      const probe: AdapterProbe = {
        adapter, events: [], rejected: [], states: [],
        onCardAction: async () => undefined,
      };
      // Handlers are installed by the test through connectProbe.
      return probe;
    },
    async cleanup() {
      for (const a of adapters) await a.dispose();
      await fake.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export function connectProbe(p: AdapterProbe) {
  return p.adapter.connect({
    onEvent: async (ev) => {
      p.events.push(ev);
      if (ev.kind === 'card_action') return p.onCardAction(ev);
      return undefined;
    },
    onState: (state, detail) => p.states.push(detail === undefined ? { state } : { state, detail }),
    onRejected: (r) => p.rejected.push(r),
  });
}
