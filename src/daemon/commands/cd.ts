// /cd [host:]<dir>: changes the folder (and host) the CLI works in (restarting it there on the next message).
import { z } from 'zod';
import type { MessageKey, Translate } from '../../shared/i18n.js';
import { LOCAL_HOST } from '../../shared/host-config.js';
import { formatPlace, parsePlace, type PlaceError } from '../../shared/session-place.js';
import { homedir } from 'node:os';
import { sessionHost } from '../ground/session-core.js';
import { defineCommand, type CommandContext } from './types.js';

/** What /cd says when the place cannot be used: each error names the fix. */
export function placeErrorText(e: PlaceError, t: Translate): string {
  switch (e.code) {
    case 'unknown_host': return t('cmd.cd.unknownHost', { host: e.host, known: e.known.join(', ') });
    case 'drive_letter': return t('cmd.cd.driveLetter', { input: e.input });
    case 'outside_roots': return t('cmd.cd.outsideRoots', { host: e.host, path: e.dir, roots: e.roots.join(', ') });
    case 'needs_absolute': return t('cmd.cd.needsAbsolute', { host: e.host, input: e.input });
    case 'empty': return t('cmd.cd.folderRequired');
  }
}

/** Where a relative folder starts on `host`: the session's folder when it runs there, else the bot's folder there. */
function baseFor(ctx: CommandContext, host: string): string | undefined {
  const s = ctx.currentSession();
  if (s && sessionHost(s) === host) return s.cwd;
  if (host === LOCAL_HOST) return ctx.bot.workingDir;
  if (ctx.bot.defaultPlace.host === host && ctx.bot.defaultPlace.dir.startsWith('/')) return ctx.bot.defaultPlace.dir;
  return ctx.bot.hosts.find((h) => h.name === host)?.workingDirs?.find((r) => r.startsWith('/'));
}

export const cdCommand = defineCommand({
  name: 'cd',
  usage: '/cd [host:]<folder>',
  summary: 'cmd.summary.cd',
  level: 'operate',
  args: z.string().trim().min(1, 'cmd.cd.folderRequired' satisfies MessageKey),
  // A project picked on the picker card: the card says which, and the message that waited for it starts there.
  taps: {
    project: async (ctx, v, tap) => {
      await ctx.updateCard(tap.cardMessageId, { kind: 'picker', anchorKey: v.anchorKey, title: ctx.t('session.projectChosen'), projects: [], chosen: v.path });
      await ctx.answerPicker(v.path);
    },
  },
  async run(ctx, input) {
    const place = parsePlace(input, { hosts: ctx.bot.hosts, defaultHost: ctx.bot.host, localHome: homedir(), baseFor: (h) => baseFor(ctx, h) });
    if (!place.ok) return ctx.reply(placeErrorText(place.error, ctx.t));
    // Only this machine's folders are checked here; one on another host is checked there, when its worker starts.
    if (place.host === LOCAL_HOST && !(await ctx.isDirectory(place.dir))) return ctx.reply(ctx.t('cmd.cd.notFolder', { path: place.dir }));
    const shown = formatPlace(place);
    const res = await ctx.setWorkingDir(shown);
    if (!res.ok) return ctx.reply(ctx.t('cmd.cd.failed', { reason: res.message }));
    await ctx.reply(ctx.t(res.appliesTo === 'restarted' ? 'cmd.cd.restarted' : 'cmd.cd.next', { path: shown }));
  },
});
