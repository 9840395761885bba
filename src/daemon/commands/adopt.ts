// /adopt [n]: a card listing hand-started tmux panes that run a CLI, or take pane n over (operators only).
import { z } from 'zod';
import type { MessageKey } from '../../shared/i18n.js';
import { cliLabel } from '../../shared/console-cli.js';
import type { AdoptCandidate } from '../../shared/adopt-candidates.js';
import type { BotAdoptScan } from '../sessions/adopt.js';
import { defineCommand, type CommandContext } from './types.js';

/** Lists longer than this would not fit one card's buttons on a phone; /adopt <n> still reaches the rest. */
export const ADOPT_CARD_MAX = 20 as const;

export function candidateLabel(ctx: Pick<CommandContext, 't'>, c: AdoptCandidate, index: number): string {
  return ctx.t('adopt.candidate', { n: index + 1, cli: cliLabel(c.cli), where: paneWhere(c), cwd: c.cwd, pid: c.cliPid });
}

/** `session:window`, and on a configured host `host:session:window` (as `/cd host:/dir` names a place there). */
export function paneWhere(c: Pick<AdoptCandidate, 'host' | 'tmuxSession' | 'windowIndex'>): string {
  return `${c.host ? `${c.host}:` : ''}${c.tmuxSession}:${c.windowIndex}`;
}

/**
 * One line per host left out of the list (down, slow, or its scan failed: said, never waited on), and one per host
 * whose panes outside its workingDirs were not offered.
 */
function leftOutLines(ctx: Pick<CommandContext, 't'>, scan: Extract<BotAdoptScan, { ok: true }>): string {
  return [
    ...scan.leftOut.map((h) => ctx.t('adopt.hostUnreachable', { host: h.host, reason: h.reason ?? ctx.t('adopt.hostTimeout', { seconds: scan.hostTimeoutSeconds }) })),
    ...scan.outsideRoots.map((h) => ctx.t('adopt.outsideRoots', { host: h.host, count: h.count, roots: h.roots.join(', ') })),
  ].map((line) => `\n${line}`).join('');
}

const FAILURE_KEYS = { has_session: 'adopt.hasSession', gone: 'adopt.gone', scan_failed: 'adopt.scanFailed', link_failed: 'adopt.linkFailed' } as const satisfies Record<string, MessageKey>;

/** Takes the pane over and says what happened; the same words whether it came from `/adopt <n>` or a tap. Returns the success text. */
export async function adoptAndReply(ctx: CommandContext, paneId: string, cliPid: number, host?: string): Promise<string | null> {
  const res = await ctx.adopt(paneId, cliPid, host);
  if (!res.ok) {
    await ctx.reply(res.code === 'outside_roots'
      ? ctx.t('adopt.outsideRootsRefused', { host: res.host, cwd: res.cwd, roots: res.roots.join(', ') })
      : ctx.t(FAILURE_KEYS[res.code], { reason: res.message ?? '' }));
    return null;
  }
  const c = res.candidate;
  const text = ctx.t('adopt.done', { cli: cliLabel(c.cli), where: paneWhere(c), pid: c.cliPid, cwd: c.cwd });
  await ctx.reply(text);
  return text;
}

export const adoptCommand = defineCommand({
  name: 'adopt',
  usage: '/adopt [n]',
  summary: 'cmd.summary.adopt',
  level: 'operate',
  args: z.string().trim().regex(/^(\d{1,4})?$/, 'adopt.badArgs' satisfies MessageKey).transform((s) => (s ? Number(s) : null)),
  // A pane picked on the /adopt list: taken over as this topic's session; the list says which.
  taps: {
    adopt: async (ctx, v, tap) => {
      const done = await adoptAndReply(ctx, v.paneId, v.pid, v.host);
      if (done) await ctx.updateCard(tap.cardMessageId, { kind: 'adopt', anchorKey: v.anchorKey, title: ctx.t('adopt.title'), candidates: [], chosen: done });
    },
  },
  async run(ctx, n) {
    if (ctx.currentSession()) return ctx.reply(ctx.t('adopt.hasSession'));
    const scan = await ctx.adoptScan();
    if (!scan.ok) return ctx.reply(ctx.t('adopt.scanFailed', { reason: scan.message }));
    const shared = (scan.sharedWindows > 0 ? `\n${ctx.t('adopt.sharedWindow', { count: scan.sharedWindows })}` : '') + leftOutLines(ctx, scan);
    if (scan.candidates.length === 0) {
      return ctx.reply(ctx.t('adopt.none', { server: ctx.tmuxSocket ? `-L ${ctx.tmuxSocket} ` : '' }) + shared);
    }
    if (n !== null) {
      const chosen = scan.candidates[n - 1];
      if (!chosen) return ctx.reply(ctx.t('adopt.noSuchNumber', { n }));
      await adoptAndReply(ctx, chosen.paneId, chosen.cliPid, chosen.host);
      return;
    }
    const labels = scan.candidates.map((c, i) => candidateLabel(ctx, c, i));
    ctx.offerAdopt();
    const sent = await ctx.sendCard({
      kind: 'adopt',
      anchorKey: ctx.anchor.sessionKey,
      title: ctx.t('adopt.title'),
      candidates: scan.candidates.slice(0, ADOPT_CARD_MAX).map((c, i) => ({ label: labels[i]!, paneId: c.paneId, pid: c.cliPid, ...(c.host ? { host: c.host } : {}) })),
    });
    // Without the card, the list as text: `/adopt <n>` works from it just as well.
    if (!sent.ok || shared) await ctx.reply(`${sent.ok ? '' : `${labels.join('\n')}\n/adopt <n>`}${shared}`.trim());
  },
});
