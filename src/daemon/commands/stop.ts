// /stop: interrupts the CLI's current turn with the key that CLI uses for that (Esc, or Ctrl-C).
import { keyLabel } from '../../shared/keys.js';
import { stopKeyFor } from './cli-commands.js';
import { defineSessionCommand } from './types.js';

export const stopCommand = defineSessionCommand({
  name: 'stop',
  aliases: ['interrupt'],
  usage: '/stop',
  summary: 'cmd.summary.stop',
  level: 'talk',
  async run(ctx, s) {
    if (s.lifecycle !== 'live' && s.lifecycle !== 'detached') return ctx.reply(ctx.t('cmd.stop.notRunning'));
    const key = stopKeyFor(s.cli);
    const res = await ctx.pressKey(s.id, key);
    if (!res.ok) return ctx.reply(ctx.t('cmd.stop.failed', { reason: res.message }));
    await ctx.reply(ctx.t('cmd.stop.done', { key: keyLabel(key, ctx.t) }));
  },
});
